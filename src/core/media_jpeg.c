/*
 * media_jpeg — JPEG through libjpeg-turbo. Probing reads every DCT
 * coefficient (so a truncated or corrupt scan is refused) and the EXIF
 * orientation through libexif; cleaning writes those coefficients again,
 * losslessly, with the ICC profile and no other APPn or COM marker, and
 * a fresh EXIF block holding only the orientation when it is not 1 (so
 * a photo taken sideways is still shown upright).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <libexif/exif-data.h>

#include "core/media_int.h"

struct media_jerr {
	struct jpeg_error_mgr	 mgr;
	jmp_buf			 jump;
	char			 msg[JMSG_LENGTH_MAX];
};

static void
media_jpeg_fail(j_common_ptr c)
{
	struct media_jerr *e = (struct media_jerr *)c->err;

	c->err->format_message(c, e->msg);
	longjmp(e->jump, 1);
}

/* libjpeg reports corrupt data (a premature end, a bad Huffman code) as
 * a warning and carries on with grey blocks; here it is a refusal. */
static void
media_jpeg_message(j_common_ptr c, int level)
{
	if (level < 0)
		media_jpeg_fail(c);
}

static void
media_jpeg_errors(struct media_jerr *e)
{
	jpeg_std_error(&e->mgr);
	e->mgr.error_exit = media_jpeg_fail;
	e->mgr.emit_message = media_jpeg_message;
	e->msg[0] = '\0';
}

/* The orientation of the first APP1 marker that holds EXIF, 1 without. */
static int
media_jpeg_orientation(j_decompress_ptr d)
{
	jpeg_saved_marker_ptr m;
	ExifData *ed;
	ExifEntry *e;
	int o = 1;

	for (m = d->marker_list; m != NULL; m = m->next)
		if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 &&
		    memcmp(m->data, "Exif\0\0", 6) == 0)
			break;
	if (m == NULL)
		return 1;
	ed = exif_data_new_from_data(m->data, m->data_length);
	if (ed == NULL)
		return 1;
	e = exif_data_get_entry(ed, EXIF_TAG_ORIENTATION);
	if (e != NULL && e->format == EXIF_FORMAT_SHORT && e->components == 1 &&
	    e->size >= 2)
		o = exif_get_short(e->data, exif_data_get_byte_order(ed));
	exif_data_unref(ed);
	return o >= 1 && o <= 8 ? o : 1;
}

static int
media_jpeg_read(j_decompress_ptr d, const char *name, struct media_info *mi,
    jvirt_barray_ptr **coefs, struct error *err)
{
	if (jpeg_read_header(d, TRUE) != JPEG_HEADER_OK)
		return error_set(err, EXIT_USAGE, "%s: corrupt JPEG: no image",
		    name);
	if (media_check_pixels(name, "the JPEG", d->image_width,
	    d->image_height, err) != 0)
		return -1;
	if (mi != NULL) {
		mi->orientation = media_jpeg_orientation(d);
		/* Orientations 5-8 turn the image a quarter. */
		mi->width = (int)(mi->orientation >= 5 ? d->image_height :
		    d->image_width);
		mi->height = (int)(mi->orientation >= 5 ? d->image_width :
		    d->image_height);
	}
	*coefs = jpeg_read_coefficients(d);
	return 0;
}

/* What one probe or clean changes under its setjmp, in memory the error
 * path reads from the caller's frame. */
struct media_jpegjob {
	struct jpeg_decompress_struct	 d;
	struct jpeg_compress_struct	 c;
	struct media_jerr		 je;
	jvirt_barray_ptr		*coefs;
	FILE				*out;	/* the writer's stream */
	char				*buf;	/* its bytes */
	size_t				 n;
};

static int
media_jpeg_probe_run(struct media_jpegjob *j, const unsigned char *data,
    size_t len, const char *name, struct media_info *mi, struct error *err)
{
	if (setjmp(j->je.jump))
		return error_set(err, EXIT_USAGE, "%s: corrupt JPEG: %s", name,
		    j->je.msg);
	jpeg_mem_src(&j->d, data, (unsigned long)len);
	jpeg_save_markers(&j->d, JPEG_APP0 + 1, 0xffff);
	if (media_jpeg_read(&j->d, name, mi, &j->coefs, err) != 0)
		return -1;
	jpeg_finish_decompress(&j->d);
	return 0;
}

int
media_jpeg_probe(const unsigned char *data, size_t len, const char *name,
    struct media_info *mi, struct error *err)
{
	struct media_jpegjob j;
	int rc;

	media_jpeg_errors(&j.je);
	j.d.err = &j.je.mgr;
	jpeg_create_decompress(&j.d);
	rc = media_jpeg_probe_run(&j, data, len, name, mi, err);
	jpeg_destroy_decompress(&j.d);
	return rc;
}

/* An EXIF block with the orientation alone ("Exif\0\0" first). */
static void
media_jpeg_exif_orientation(j_compress_ptr c, int orientation)
{
	ExifData *ed;
	ExifEntry *e;
	unsigned char *buf = NULL;
	unsigned int n = 0;

	if ((ed = exif_data_new()) == NULL)
		return;
	exif_data_unset_option(ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
	exif_data_set_byte_order(ed, EXIF_BYTE_ORDER_INTEL);
	if ((e = exif_entry_new()) != NULL) {
		exif_content_add_entry(ed->ifd[EXIF_IFD_0], e);
		exif_entry_initialize(e, EXIF_TAG_ORIENTATION);
		exif_set_short(e->data, EXIF_BYTE_ORDER_INTEL,
		    (ExifShort)orientation);
		exif_entry_unref(e);
		exif_data_save_data(ed, &buf, &n);
	}
	exif_data_unref(ed);
	if (buf != NULL && n > 0 && n <= 65533)
		jpeg_write_marker(c, JPEG_APP0 + 1, buf, n);
	free(buf);
}

static void
media_jpeg_write(j_decompress_ptr d, j_compress_ptr c, jvirt_barray_ptr *coefs,
    const struct media_info *mi)
{
	JOCTET *icc = NULL;
	unsigned int icclen = 0;

	jpeg_copy_critical_parameters(d, c);
	c->optimize_coding = TRUE;
	jpeg_write_coefficients(c, coefs);
	if (jpeg_read_icc_profile(d, &icc, &icclen)) {
		jpeg_write_icc_profile(c, icc, icclen);
		free(icc);
	}
	if (mi->orientation != 1)
		media_jpeg_exif_orientation(c, mi->orientation);
	jpeg_finish_compress(c);
}

static int
media_jpeg_clean_run(struct media_jpegjob *j, const unsigned char *data,
    size_t len, const char *name, const struct media_info *mi,
    struct error *err)
{
	if (setjmp(j->je.jump))
		return error_set(err, EXIT_USAGE, "%s: corrupt JPEG: %s", name,
		    j->je.msg);
	jpeg_mem_src(&j->d, data, (unsigned long)len);
	jpeg_save_markers(&j->d, JPEG_APP0 + 2, 0xffff);	/* ICC */
	if (media_jpeg_read(&j->d, name, NULL, &j->coefs, err) != 0)
		return -1;
	jpeg_stdio_dest(&j->c, j->out);
	media_jpeg_write(&j->d, &j->c, j->coefs, mi);
	jpeg_finish_decompress(&j->d);
	return 0;
}

int
media_jpeg_clean(const unsigned char *data, size_t len, const char *name,
    const struct media_info *mi, unsigned char **out, size_t *outlen,
    struct error *err)
{
	struct media_jpegjob j;
	int rc;

	media_jpeg_errors(&j.je);
	j.d.err = &j.je.mgr;
	j.c.err = &j.je.mgr;
	j.buf = NULL;
	j.n = 0;
	j.out = xmemstream(&j.buf, &j.n);
	jpeg_create_decompress(&j.d);
	jpeg_create_compress(&j.c);
	rc = media_jpeg_clean_run(&j, data, len, name, mi, err);
	jpeg_destroy_compress(&j.c);
	jpeg_destroy_decompress(&j.d);
	fclose(j.out);
	if (rc != 0) {
		free(j.buf);
		return -1;
	}
	*out = (unsigned char *)j.buf;
	*outlen = j.n;
	return 0;
}
