/*
 * media_png — PNG through libpng. Probing decodes every row (the CRCs and
 * the zlib stream checked); cleaning writes the same rows again with the
 * chunks that say how to show them (palette, transparency, colour space,
 * pixel density) and without eXIf, tEXt, iTXt, zTXt, tIME or any chunk
 * libpng does not know. An interlaced image comes out non-interlaced,
 * and an animated PNG as its first frame.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "core/media_int.h"

struct media_pngio {
	const unsigned char	*data;
	size_t			 len, off;
	char			 msg[256];
	FILE			*out;		/* the writer's stream */
	png_bytep		 row;		/* the prober's row, freed
						   on the error path too */
	jmp_buf			 jump;		/* both structs' errors */
};

static void
media_png_fail(png_structp png, png_const_charp msg)
{
	struct media_pngio *io = png_get_error_ptr(png);

	snprintf(io->msg, sizeof io->msg, "%s", msg);
	longjmp(io->jump, 1);
}

static void
media_png_warn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

static void
media_png_read(png_structp png, png_bytep buf, size_t n)
{
	struct media_pngio *io = png_get_io_ptr(png);

	if (n > io->len - io->off)
		png_error(png, "the file ends early");
	memcpy(buf, io->data + io->off, n);
	io->off += n;
}

static void
media_png_write(png_structp png, png_bytep buf, size_t n)
{
	struct media_pngio *io = png_get_io_ptr(png);

	if (fwrite(buf, 1, n, io->out) != n)
		png_error(png, "out of memory");
}

static void
media_png_flush(png_structp png)
{
	(void)png;
}

static png_structp
media_png_reader(struct media_pngio *io, png_infop *info)
{
	/* Metadata is never needed to read the pixels: skip it unread. */
	static const png_byte skip[] = "eXIf\0tEXt\0iTXt\0zTXt\0tIME";
	png_structp png;

	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, io,
	    media_png_fail, media_png_warn);
	if (png == NULL)
		return NULL;
	*info = png_create_info_struct(png);
	if (*info == NULL) {
		png_destroy_read_struct(&png, NULL, NULL);
		return NULL;
	}
	png_set_read_fn(png, io, media_png_read);
	png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skip, 5);
	png_set_user_limits(png, 65535, 65535);
	png_set_chunk_malloc_max(png, 8u << 20);
	return png;
}

/* Reads every row, into rows (height of them) or over one row buffer.
 * Called after png_read_info(). */
static void
media_png_rows(png_structp png, png_infop info, png_bytepp rows)
{
	struct media_pngio *io = png_get_io_ptr(png);
	png_uint_32 h = png_get_image_height(png, info), y;
	int pass, npass;

	if (rows != NULL) {
		png_read_image(png, rows);
		png_read_end(png, NULL);
		return;
	}
	npass = png_set_interlace_handling(png);
	png_read_update_info(png, info);
	io->row = png_malloc(png, png_get_rowbytes(png, info));
	for (pass = 0; pass < npass; pass++)
		for (y = 0; y < h; y++)
			png_read_row(png, io->row, NULL);
	png_free(png, io->row);
	io->row = NULL;
	png_read_end(png, NULL);
}

int
media_png_probe(const unsigned char *data, size_t len, const char *name,
    struct media_info *mi, struct error *err)
{
	struct media_pngio io = { .data = data, .len = len };
	png_structp png;
	png_infop info;

	if ((png = media_png_reader(&io, &info)) == NULL)
		return error_set(err, EXIT_ERROR, "%s: out of memory", name);
	if (setjmp(io.jump)) {
		png_free(png, io.row);
		png_destroy_read_struct(&png, &info, NULL);
		return error_set(err, EXIT_USAGE, "%s: corrupt PNG: %s", name,
		    io.msg);
	}
	png_read_info(png, info);
	mi->width = (int)png_get_image_width(png, info);
	mi->height = (int)png_get_image_height(png, info);
	if (media_check_pixels(name, "the PNG", (unsigned long)mi->width,
	    (unsigned long)mi->height, err) != 0) {
		png_destroy_read_struct(&png, &info, NULL);
		return -1;
	}
	media_png_rows(png, info, NULL);
	png_destroy_read_struct(&png, &info, NULL);
	return 0;
}

/* The chunks that change how the pixels look, from the reader's info to
 * the writer's; the header written non-interlaced. */
static void
media_png_copy(png_structp r, png_infop ri, png_structp w, png_infop wi)
{
	png_uint_32 width, height, xres, yres;
	int depth, color, interlace, unit, intent, n;
	png_colorp pal;
	png_bytep trans;
	png_color_16p tc, bkgd;
	png_color_8p sbit;
	png_charp iname;
	png_bytep prof;
	png_uint_32 plen;
	double g, wx, wy, rx, ry, gx, gy, bx, by;

	png_get_IHDR(r, ri, &width, &height, &depth, &color, &interlace,
	    NULL, NULL);
	png_set_IHDR(w, wi, width, height, depth, color, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (png_get_PLTE(r, ri, &pal, &n))
		png_set_PLTE(w, wi, pal, n);
	if (png_get_tRNS(r, ri, &trans, &n, &tc))
		png_set_tRNS(w, wi, trans, n, tc);
	if (png_get_bKGD(r, ri, &bkgd))
		png_set_bKGD(w, wi, bkgd);
	if (png_get_sBIT(r, ri, &sbit))
		png_set_sBIT(w, wi, sbit);
	if (png_get_sRGB(r, ri, &intent))
		png_set_sRGB(w, wi, intent);
	if (png_get_iCCP(r, ri, &iname, &n, &prof, &plen))
		png_set_iCCP(w, wi, iname, n, prof, plen);
	if (png_get_gAMA(r, ri, &g))
		png_set_gAMA(w, wi, g);
	if (png_get_cHRM(r, ri, &wx, &wy, &rx, &ry, &gx, &gy, &bx, &by))
		png_set_cHRM(w, wi, wx, wy, rx, ry, gx, gy, bx, by);
	if (png_get_pHYs(r, ri, &xres, &yres, &unit))
		png_set_pHYs(w, wi, xres, yres, unit);
}

/* Everything the transcoder changes between setjmp and a longjmp lives
 * here, on the heap, so the error path sees its current values. */
struct media_pngpair {
	struct media_pngio	 io;
	png_structp		 r, w;
	png_infop		 ri, wi;
	png_bytepp		 rows;
	png_uint_32		 h;
	char			*buf;
	size_t			 n;
};

static void
media_png_pair_free(struct media_pngpair *p)
{
	png_uint_32 y;

	if (p->rows != NULL)
		for (y = 0; y < p->h; y++)
			free(p->rows[y]);
	free(p->rows);
	if (p->w != NULL)
		png_destroy_write_struct(&p->w, &p->wi);
	if (p->r != NULL)
		png_destroy_read_struct(&p->r, &p->ri, NULL);
	if (p->io.out != NULL)
		fclose(p->io.out);
	free(p->buf);
	free(p);
}

/* Called inside the caller's setjmp: every libpng error lands there. */
static void
media_png_transcode(struct media_pngpair *p)
{
	size_t rb;
	png_uint_32 y;

	png_read_info(p->r, p->ri);
	if (png_get_image_width(p->r, p->ri) >
	    MEDIA_MAX_PIXELS / png_get_image_height(p->r, p->ri))
		png_error(p->r, "too many pixels");
	(void)png_set_interlace_handling(p->r);
	png_read_update_info(p->r, p->ri);
	rb = png_get_rowbytes(p->r, p->ri);
	p->rows = xcalloc(png_get_image_height(p->r, p->ri), sizeof *p->rows);
	p->h = png_get_image_height(p->r, p->ri);
	for (y = 0; y < p->h; y++)
		p->rows[y] = xmalloc(rb);
	media_png_rows(p->r, p->ri, p->rows);
	media_png_copy(p->r, p->ri, p->w, p->wi);
	png_write_info(p->w, p->wi);
	png_write_image(p->w, p->rows);
	png_write_end(p->w, NULL);
}

static struct media_pngpair *
media_png_pair(const unsigned char *data, size_t len)
{
	struct media_pngpair *p = xcalloc(1, sizeof *p);

	p->io.data = data;
	p->io.len = len;
	p->io.out = xmemstream(&p->buf, &p->n);
	p->r = media_png_reader(&p->io, &p->ri);
	if (p->r != NULL)
		p->w = png_create_write_struct(PNG_LIBPNG_VER_STRING, &p->io,
		    media_png_fail, media_png_warn);
	if (p->w != NULL)
		p->wi = png_create_info_struct(p->w);
	if (p->wi == NULL) {
		media_png_pair_free(p);
		return NULL;
	}
	png_set_write_fn(p->w, &p->io, media_png_write, media_png_flush);
	return p;
}

/* The libpng calls of one clean, under one setjmp; p set before it. */
static int
media_png_run(struct media_pngpair *p, const char *name, struct error *err)
{
	if (setjmp(p->io.jump))
		return error_set(err, EXIT_USAGE, "%s: corrupt PNG: %s", name,
		    p->io.msg);
	media_png_transcode(p);
	return 0;
}

int
media_png_clean(const unsigned char *data, size_t len, const char *name,
    unsigned char **out, size_t *outlen, struct error *err)
{
	struct media_pngpair *p;

	if ((p = media_png_pair(data, len)) == NULL)
		return error_set(err, EXIT_ERROR, "%s: out of memory", name);
	if (media_png_run(p, name, err) != 0) {
		media_png_pair_free(p);
		return -1;
	}
	fclose(p->io.out);
	p->io.out = NULL;
	*out = (unsigned char *)p->buf;
	*outlen = p->n;
	p->buf = NULL;
	media_png_pair_free(p);
	return 0;
}
