/*
 * fixture_media — small images built in memory by the same libraries
 * fronts reads them with, each carrying the metadata media_clean() must
 * remove: a JPEG with an EXIF block (camera make and model, a GPS
 * position, an orientation), an XMP packet and a comment; a PNG with
 * tEXt, eXIf and tIME; a GIF with a comment and an XMP application
 * block beside its loop block; a WebP with EXIF and XMP chunks.
 * `build/tests/test_media --write DIR` writes them as files.
 */
#ifndef FRONTS_FIXTURE_MEDIA_H
#define FRONTS_FIXTURE_MEDIA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <jpeglib.h>
#include <libexif/exif-data.h>
#include <png.h>
#include <webp/encode.h>
#include <webp/mux.h>

#define FIX_XMP "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><exif:GPSLatitude>52,31N</exif:GPSLatitude></x:xmpmeta>"
#define FIX_GPS_LAT 52u

static __attribute__((unused)) void
fix_exif_add(ExifData *ed, ExifIfd ifd, ExifTag tag, ExifFormat fmt,
    unsigned long n, const void *data, unsigned size)
{
	ExifEntry *e = exif_entry_new();

	e->tag = tag;
	e->format = fmt;
	e->components = n;
	e->size = size;
	e->data = malloc(size);
	memcpy(e->data, data, size);
	exif_content_add_entry(ed->ifd[ifd], e);
	exif_entry_unref(e);
}

/* EXIF with make, model, orientation and a GPS position ("Exif\0\0"
 * first, as an APP1 marker holds it). */
static __attribute__((unused)) unsigned char *
fix_exif(int orientation, unsigned int *len)
{
	ExifData *ed = exif_data_new();
	ExifByteOrder o = EXIF_BYTE_ORDER_MOTOROLA;
	unsigned char sh[2], rat[24], *buf = NULL;
	ExifRational r[3] = { { FIX_GPS_LAT, 1 }, { 31, 1 }, { 0, 1 } };
	int i;

	exif_data_unset_option(ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
	exif_data_set_byte_order(ed, o);
	fix_exif_add(ed, EXIF_IFD_0, EXIF_TAG_MAKE, EXIF_FORMAT_ASCII, 7,
	    "Canikon", 7);
	fix_exif_add(ed, EXIF_IFD_0, EXIF_TAG_MODEL, EXIF_FORMAT_ASCII, 6,
	    "X-1000", 6);
	exif_set_short(sh, o, (ExifShort)orientation);
	fix_exif_add(ed, EXIF_IFD_0, EXIF_TAG_ORIENTATION, EXIF_FORMAT_SHORT,
	    1, sh, 2);
	fix_exif_add(ed, EXIF_IFD_GPS, (ExifTag)EXIF_TAG_GPS_LATITUDE_REF,
	    EXIF_FORMAT_ASCII, 2, "N", 2);
	for (i = 0; i < 3; i++)
		exif_set_rational(rat + 8 * i, o, r[i]);
	fix_exif_add(ed, EXIF_IFD_GPS, (ExifTag)EXIF_TAG_GPS_LATITUDE,
	    EXIF_FORMAT_RATIONAL, 3, rat, 24);
	exif_data_save_data(ed, &buf, len);
	exif_data_unref(ed);
	return buf;
}

/* A w×h JPEG (a gradient) with EXIF, XMP and a comment. */
static __attribute__((unused)) unsigned char *
fix_jpeg(int w, int h, int orientation, size_t *len)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr jerr;
	unsigned char *out = NULL, *row, *exif;
	unsigned long n = 0;
	unsigned int elen;
	int x, y;

	c.err = jpeg_std_error(&jerr);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &out, &n);
	c.image_width = (JDIMENSION)w;
	c.image_height = (JDIMENSION)h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_start_compress(&c, TRUE);
	exif = fix_exif(orientation, &elen);
	jpeg_write_marker(&c, JPEG_APP0 + 1, exif, elen);
	free(exif);
	jpeg_write_marker(&c, JPEG_APP0 + 1, (const JOCTET *)FIX_XMP,
	    sizeof FIX_XMP - 1);
	jpeg_write_marker(&c, JPEG_COM, (const JOCTET *)"shot at home", 12);
	row = malloc((size_t)w * 3);
	for (y = 0; y < h; y++) {
		for (x = 0; x < w * 3; x++)
			row[x] = (unsigned char)(x * 7 + y * 13);
		jpeg_write_scanlines(&c, &row, 1);
	}
	free(row);
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	*len = n;
	return out;
}

static __attribute__((unused)) void
fix_png_write(png_structp png, png_bytep buf, size_t n)
{
	fwrite(buf, 1, n, png_get_io_ptr(png));
}

static __attribute__((unused)) void
fix_png_flush(png_structp png)
{
	(void)png;
}

/* A w×h RGBA PNG with tEXt, eXIf and tIME. */
static __attribute__((unused)) unsigned char *
fix_png(int w, int h, size_t *len)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING,
	    NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	png_text t = { PNG_TEXT_COMPRESSION_NONE, "Location", "52.5,13.4",
	    9, 0, NULL, NULL };
	png_time tm = { 2026, 12, 1, 8, 0, 0 };
	unsigned char *exif, *row;
	unsigned int elen;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int x, y;

	png_set_write_fn(png, f, fix_png_write, fix_png_flush);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
	    PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_text(png, info, &t, 1);
	png_set_tIME(png, info, &tm);
	exif = fix_exif(1, &elen);
	/* eXIf holds the TIFF data, without "Exif\0\0". */
	png_set_eXIf_1(png, info, elen - 6, exif + 6);
	free(exif);
	png_write_info(png, info);
	row = malloc((size_t)w * 4);
	for (y = 0; y < h; y++) {
		for (x = 0; x < w * 4; x++)
			row[x] = (unsigned char)(x * 5 + y * 11);
		png_write_row(png, row);
	}
	free(row);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	fclose(f);
	*len = n;
	return (unsigned char *)buf;
}

static __attribute__((unused)) int
fix_gif_write(GifFileType *g, const GifByteType *buf, int n)
{
	return (int)fwrite(buf, 1, (size_t)n, g->UserData);
}

static __attribute__((unused)) void
fix_gif_ext(GifFileType *g, int fn, const char *head, int hlen,
    const void *body, int blen)
{
	EGifPutExtensionLeader(g, fn);
	EGifPutExtensionBlock(g, hlen, head);
	if (body != NULL)
		EGifPutExtensionBlock(g, blen, body);
	EGifPutExtensionTrailer(g);
}

/* A 4×4 two-frame GIF with a loop block, a comment and an XMP block. */
static __attribute__((unused)) unsigned char *
fix_gif(size_t *len)
{
	GifColorType pal[2] = { { 0, 0, 0 }, { 255, 255, 255 } };
	ColorMapObject *map = GifMakeMapObject(2, pal);
	unsigned char loop[3] = { 1, 0, 0 }, px[4];
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	GifFileType *g = EGifOpen(f, fix_gif_write, NULL);
	int i, k, y;

	EGifSetGifVersion(g, true);
	EGifPutScreenDesc(g, 4, 4, 1, 0, map);
	fix_gif_ext(g, APPLICATION_EXT_FUNC_CODE, "NETSCAPE2.0", 11, loop, 3);
	fix_gif_ext(g, COMMENT_EXT_FUNC_CODE, "shot at home", 12, NULL, 0);
	fix_gif_ext(g, APPLICATION_EXT_FUNC_CODE, "XMP DataXMP", 11,
	    "GPS 52 N", 8);
	for (k = 0; k < 2; k++) {
		EGifPutImageDesc(g, 0, 0, 4, 4, false, NULL);
		for (y = 0; y < 4; y++) {
			for (i = 0; i < 4; i++)
				px[i] = (unsigned char)((i + y + k) & 1);
			EGifPutLine(g, px, 4);
		}
	}
	EGifCloseFile(g, NULL);
	GifFreeMapObject(map);
	fclose(f);
	*len = n;
	return (unsigned char *)buf;
}

/* A w×h lossless WebP with EXIF and XMP chunks. */
static __attribute__((unused)) unsigned char *
fix_webp(int w, int h, size_t *len)
{
	unsigned char *px = malloc((size_t)w * h * 4), *enc, *exif, *out;
	size_t n;
	unsigned int elen;
	WebPData img, ex, xmp = { (const uint8_t *)FIX_XMP, sizeof FIX_XMP - 1 },
	    res = { NULL, 0 };
	WebPMux *mux;
	int i;

	for (i = 0; i < w * h * 4; i++)
		px[i] = (unsigned char)(i * 3);
	n = WebPEncodeLosslessRGBA(px, w, h, w * 4, &enc);
	free(px);
	img.bytes = enc;
	img.size = n;
	mux = WebPMuxCreate(&img, 1);
	exif = fix_exif(1, &elen);
	ex.bytes = exif + 6;
	ex.size = elen - 6;
	WebPMuxSetChunk(mux, "EXIF", &ex, 1);
	WebPMuxSetChunk(mux, "XMP ", &xmp, 1);
	WebPMuxAssemble(mux, &res);
	WebPMuxDelete(mux);
	WebPFree(enc);
	free(exif);
	out = malloc(res.size);
	memcpy(out, res.bytes, res.size);
	*len = res.size;
	WebPDataClear(&res);
	return out;
}

#endif
