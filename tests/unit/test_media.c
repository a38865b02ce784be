/* Unit tests for media: the type from the bytes, width and height (a
 * JPEG's orientation applied), corrupt files refused with their name, and
 * the metadata media_clean() removes from each format while the pixels
 * stay as they were. `test_media --write DIR` writes the fixtures. */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture_media.h"
#include "core/media.h"

static bool
has(const unsigned char *d, size_t n, const char *s)
{
	return memmem(d, n, s, strlen(s)) != NULL;
}

/* The RGB pixels of a JPEG, decoded. */
static unsigned char *
jpeg_pixels(const unsigned char *d, size_t n, size_t *len)
{
	struct jpeg_decompress_struct c;
	struct jpeg_error_mgr jerr;
	unsigned char *px, *row;
	size_t stride;

	c.err = jpeg_std_error(&jerr);
	jpeg_create_decompress(&c);
	jpeg_mem_src(&c, d, (unsigned long)n);
	jpeg_read_header(&c, TRUE);
	c.out_color_space = JCS_RGB;
	jpeg_start_decompress(&c);
	stride = (size_t)c.output_width * 3;
	*len = stride * c.output_height;
	px = malloc(*len);
	while (c.output_scanline < c.output_height) {
		row = px + stride * c.output_scanline;
		jpeg_read_scanlines(&c, &row, 1);
	}
	jpeg_finish_decompress(&c);
	jpeg_destroy_decompress(&c);
	return px;
}

/* The EXIF block of a JPEG's first APP1 "Exif" marker; NULL: none. */
static ExifData *
jpeg_exif(const unsigned char *d, size_t n)
{
	struct jpeg_decompress_struct c;
	struct jpeg_error_mgr jerr;
	jpeg_saved_marker_ptr m;
	ExifData *ed = NULL;

	c.err = jpeg_std_error(&jerr);
	jpeg_create_decompress(&c);
	jpeg_mem_src(&c, d, (unsigned long)n);
	jpeg_save_markers(&c, JPEG_APP0 + 1, 0xffff);
	jpeg_read_header(&c, TRUE);
	for (m = c.marker_list; m != NULL && ed == NULL; m = m->next)
		if (m->data_length > 6 && memcmp(m->data, "Exif\0\0", 6) == 0)
			ed = exif_data_new_from_data(m->data, m->data_length);
	jpeg_destroy_decompress(&c);
	return ed;
}

static void
test_jpeg_probe(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *j;
	size_t n;

	j = fix_jpeg(24, 16, 1, &n);
	assert_int_equal(media_probe_mem(j, n, "a.jpg", &mi, &err), 0);
	assert_int_equal(mi.type, MEDIA_JPEG);
	assert_string_equal(mi.mime, "image/jpeg");
	assert_string_equal(media_type_name(mi.type), "jpeg");
	assert_int_equal(mi.bytes, n);
	assert_int_equal(mi.width, 24);
	assert_int_equal(mi.height, 16);
	assert_int_equal(mi.orientation, 1);
	assert_int_equal(mi.frames, 1);
	free(j);
}

/* Orientation 6 (turned a quarter): shown 16 wide, 24 high. */
static void
test_jpeg_orientation(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *j, *out;
	size_t n, on;
	ExifData *ed;
	ExifEntry *e;

	j = fix_jpeg(24, 16, 6, &n);
	assert_int_equal(media_probe_mem(j, n, "a.jpg", &mi, &err), 0);
	assert_int_equal(mi.orientation, 6);
	assert_int_equal(mi.width, 16);
	assert_int_equal(mi.height, 24);
	assert_int_equal(media_clean(j, n, &mi, false, "a.jpg", &out, &on,
	    &err), 0);
	ed = jpeg_exif(out, on);
	assert_non_null(ed);
	e = exif_data_get_entry(ed, EXIF_TAG_ORIENTATION);
	assert_non_null(e);
	assert_int_equal(exif_get_short(e->data, exif_data_get_byte_order(ed)),
	    6);
	assert_null(exif_data_get_entry(ed, EXIF_TAG_MAKE));
	assert_int_equal(ed->ifd[EXIF_IFD_GPS]->count, 0);
	exif_data_unref(ed);
	free(out);
	free(j);
}

/* The case: a photo with a GPS position comes out without it,
 * without camera, XMP or comment, and with the same pixels. */
static void
test_jpeg_gps_removed(void **state)
{
	struct media_info mi, mo;
	struct error err = { 0 };
	unsigned char *j, *out, *p1, *p2;
	size_t n, on, l1, l2;
	ExifData *ed;

	j = fix_jpeg(32, 24, 1, &n);
	ed = jpeg_exif(j, n);
	assert_non_null(ed);
	assert_int_equal(ed->ifd[EXIF_IFD_GPS]->count, 2);
	exif_data_unref(ed);
	assert_true(has(j, n, "Canikon") && has(j, n, "xmpmeta") &&
	    has(j, n, "shot at home"));
	assert_int_equal(media_probe_mem(j, n, "gps.jpg", &mi, &err), 0);
	assert_int_equal(media_clean(j, n, &mi, false, "gps.jpg", &out, &on,
	    &err), 0);
	assert_null(jpeg_exif(out, on));
	assert_false(has(out, on, "Exif"));
	assert_false(has(out, on, "Canikon"));
	assert_false(has(out, on, "X-1000"));
	assert_false(has(out, on, "xmpmeta"));
	assert_false(has(out, on, "shot at home"));
	assert_int_equal(media_probe_mem(out, on, "clean.jpg", &mo, &err), 0);
	assert_int_equal(mo.width, 32);
	assert_int_equal(mo.height, 24);
	p1 = jpeg_pixels(j, n, &l1);
	p2 = jpeg_pixels(out, on, &l2);
	assert_int_equal(l1, l2);
	assert_memory_equal(p1, p2, l1);
	free(p1);
	free(p2);
	free(out);
	free(j);
}

static void
test_keep_metadata(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *j, *out;
	size_t n, on;

	j = fix_jpeg(8, 8, 1, &n);
	assert_int_equal(media_probe_mem(j, n, "a.jpg", &mi, &err), 0);
	assert_int_equal(media_clean(j, n, &mi, true, "a.jpg", &out, &on,
	    &err), 0);
	assert_int_equal(on, n);
	assert_memory_equal(out, j, n);
	free(out);
	free(j);
}

/* The name says JPEG, the bytes PNG: PNG. Text is no image. */
static void
test_type_from_bytes(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *p;
	size_t n;

	p = fix_png(5, 3, &n);
	assert_int_equal(media_probe_mem(p, n, "photo.jpg", &mi, &err), 0);
	assert_int_equal(mi.type, MEDIA_PNG);
	assert_string_equal(mi.mime, "image/png");
	assert_int_equal(mi.width, 5);
	assert_int_equal(mi.height, 3);
	free(p);
	assert_int_equal(media_probe_mem("hello, world\n", 13, "notes.png", &mi,
	    &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "notes.png"));
	assert_non_null(strstr(err.msg, "not a JPEG, PNG, GIF or WebP"));
	assert_int_equal(media_probe_mem("", 0, "empty.gif", &mi, &err), -1);
}

static void
expect_corrupt(const unsigned char *d, size_t n, const char *name,
    const char *what)
{
	struct media_info mi;
	struct error err = { 0 };

	if (media_probe_mem(d, n, name, &mi, &err) != -1)
		fail_msg("%s was accepted", name);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, name));
	assert_non_null(strstr(err.msg, what));
}

/* Truncated or damaged: refused with the file's name. */
static void
test_corrupt(void **state)
{
	unsigned char *d;
	size_t n;

	d = fix_jpeg(64, 64, 1, &n);
	expect_corrupt(d, n - n / 3, "cut.jpg", "corrupt JPEG");
	free(d);
	d = fix_png(16, 16, &n);
	expect_corrupt(d, n - 20, "cut.png", "corrupt PNG");
	d[n - 30] ^= 0x55;	/* inside IDAT: its CRC no longer matches */
	expect_corrupt(d, n, "crc.png", "corrupt PNG");
	free(d);
	d = fix_gif(&n);
	expect_corrupt(d, n - 8, "cut.gif", "corrupt GIF");
	free(d);
	d = fix_webp(8, 8, &n);
	expect_corrupt(d, n / 2, "cut.webp", "corrupt WebP");
	free(d);
}

static void
png_read_back(const unsigned char *d, size_t n, int *ntext, bool *exif,
    bool *tm)
{
	FILE *f = fmemopen((void *)d, n, "rb");
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL,
	    NULL, NULL);
	png_infop info = png_create_info_struct(png);
	png_textp t;
	png_timep tp;
	png_uint_32 el;
	png_bytep eb;

	png_init_io(png, f);
	png_read_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
	*ntext = png_get_text(png, info, &t, NULL);
	*exif = png_get_eXIf_1(png, info, &el, &eb) != 0;
	*tm = png_get_tIME(png, info, &tp) != 0;
	png_destroy_read_struct(&png, &info, NULL);
	fclose(f);
}

static void
test_png_clean(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *p, *out;
	size_t n, on;
	int ntext;
	bool exif, tm;

	p = fix_png(7, 5, &n);
	png_read_back(p, n, &ntext, &exif, &tm);
	assert_true(ntext == 1 && exif && tm);
	assert_int_equal(media_probe_mem(p, n, "a.png", &mi, &err), 0);
	assert_int_equal(media_clean(p, n, &mi, false, "a.png", &out, &on,
	    &err), 0);
	png_read_back(out, on, &ntext, &exif, &tm);
	assert_int_equal(ntext, 0);
	assert_false(exif);
	assert_false(tm);
	assert_false(has(out, on, "Canikon"));
	assert_false(has(out, on, "52.5,13.4"));
	assert_int_equal(media_probe_mem(out, on, "b.png", &mi, &err), 0);
	assert_int_equal(mi.width, 7);
	assert_int_equal(mi.height, 5);
	free(out);
	free(p);
}

static void
test_gif_clean(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *g, *out;
	size_t n, on;

	g = fix_gif(&n);
	assert_true(has(g, n, "shot at home") && has(g, n, "XMP DataXMP"));
	assert_int_equal(media_probe_mem(g, n, "a.gif", &mi, &err), 0);
	assert_int_equal(mi.type, MEDIA_GIF);
	assert_int_equal(mi.frames, 2);
	assert_int_equal(mi.width, 4);
	assert_int_equal(media_clean(g, n, &mi, false, "a.gif", &out, &on,
	    &err), 0);
	assert_false(has(out, on, "shot at home"));
	assert_false(has(out, on, "XMP DataXMP"));
	assert_false(has(out, on, "GPS 52"));
	assert_true(has(out, on, "NETSCAPE2.0"));
	assert_int_equal(media_probe_mem(out, on, "b.gif", &mi, &err), 0);
	assert_int_equal(mi.frames, 2);
	free(out);
	free(g);
}

static void
test_webp_clean(void **state)
{
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *w, *out;
	size_t n, on;
	WebPData wd, chunk;
	WebPMux *mux;

	w = fix_webp(9, 6, &n);
	assert_int_equal(media_probe_mem(w, n, "a.webp", &mi, &err), 0);
	assert_int_equal(mi.type, MEDIA_WEBP);
	assert_string_equal(mi.mime, "image/webp");
	assert_int_equal(mi.width, 9);
	assert_int_equal(mi.height, 6);
	assert_true(has(w, n, "Canikon"));
	assert_int_equal(media_clean(w, n, &mi, false, "a.webp", &out, &on,
	    &err), 0);
	wd.bytes = out;
	wd.size = on;
	mux = WebPMuxCreate(&wd, 0);
	assert_non_null(mux);
	assert_int_equal(WebPMuxGetChunk(mux, "EXIF", &chunk),
	    WEBP_MUX_NOT_FOUND);
	assert_int_equal(WebPMuxGetChunk(mux, "XMP ", &chunk),
	    WEBP_MUX_NOT_FOUND);
	WebPMuxDelete(mux);
	assert_false(has(out, on, "Canikon"));
	assert_int_equal(media_probe_mem(out, on, "b.webp", &mi, &err), 0);
	free(out);
	free(w);
}

/* From a file: media_load() reads, checks and cleans; a missing file,
 * a directory and a file over the ceiling are refused by path. */
static void
test_files(void **state)
{
	char dir[] = "/tmp/test_media.XXXXXX", path[64];
	struct media_info mi;
	struct error err = { 0 };
	unsigned char *j, *out;
	size_t n, on;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/gps.jpg", dir);
	j = fix_jpeg(16, 16, 1, &n);
	f = fopen(path, "wb");
	fwrite(j, 1, n, f);
	fclose(f);
	assert_int_equal(media_load(path, false, &mi, &out, &on, &err), 0);
	assert_int_equal(mi.type, MEDIA_JPEG);
	assert_false(has(out, on, "Canikon"));
	free(out);
	assert_int_equal(truncate(path, (off_t)MEDIA_MAX_BYTES + 1), 0);
	assert_int_equal(media_probe(path, &mi, &err), -1);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "at most 100 MiB"));
	unlink(path);
	assert_int_equal(media_probe(path, &mi, &err), -1);
	assert_non_null(strstr(err.msg, path));
	assert_int_equal(media_probe(dir, &mi, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	rmdir(dir);
	free(j);
}

static void
write_file(const char *dir, const char *name, unsigned char *d,
    const size_t *np)
{
	size_t n = *np;
	char *p = NULL;
	FILE *f;

	if (asprintf(&p, "%s/%s", dir, name) < 0 || (f = fopen(p, "wb")) == NULL)
		exit(1);
	fwrite(d, 1, n, f);
	fclose(f);
	free(p);
	free(d);
}

static int
write_fixtures(const char *dir)
{
	size_t n;

	write_file(dir, "gps.jpg", fix_jpeg(32, 24, 1, &n), &n);
	write_file(dir, "meta.png", fix_png(12, 8, &n), &n);
	write_file(dir, "meta.gif", fix_gif(&n), &n);
	write_file(dir, "meta.webp", fix_webp(10, 6, &n), &n);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jpeg_probe),
		cmocka_unit_test(test_jpeg_orientation),
		cmocka_unit_test(test_jpeg_gps_removed),
		cmocka_unit_test(test_keep_metadata),
		cmocka_unit_test(test_type_from_bytes),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_png_clean),
		cmocka_unit_test(test_gif_clean),
		cmocka_unit_test(test_webp_clean),
		cmocka_unit_test(test_files),
	};

	if (argc == 3 && strcmp(argv[1], "--write") == 0)
		return write_fixtures(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
