/*
 * media — see media.h. This file reads the file, tells the type from its
 * first bytes (each library's own signature check where it has one) and
 * hands the bytes to that format's reader in media_<format>.c.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/media.h"
#include "core/media_int.h"

static const char *const media_names[] = {
	[MEDIA_NONE] = "", [MEDIA_JPEG] = "jpeg", [MEDIA_PNG] = "png",
	[MEDIA_GIF] = "gif", [MEDIA_WEBP] = "webp",
};
static const char *const media_mimes[] = {
	[MEDIA_NONE] = "", [MEDIA_JPEG] = "image/jpeg",
	[MEDIA_PNG] = "image/png", [MEDIA_GIF] = "image/gif",
	[MEDIA_WEBP] = "image/webp",
};

const char *
media_type_name(enum media_type t)
{
	return (unsigned)t <= MEDIA_WEBP ? media_names[t] : "";
}

int
media_check_pixels(const char *name, const char *what, unsigned long w,
    unsigned long h, struct error *err)
{
	if (w == 0 || h == 0)
		return error_set(err, EXIT_USAGE, "%s: %s has no pixels (%lux%lu)",
		    name, what, w, h);
	if (w > MEDIA_MAX_PIXELS / h)
		return error_set(err, EXIT_USAGE,
		    "%s: %s is %lux%lu pixels; at most %u million are read",
		    name, what, w, h, MEDIA_MAX_PIXELS / 1000000);
	return 0;
}

static enum media_type
media_sniff(const unsigned char *d, size_t len)
{
	if (len >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
		return MEDIA_JPEG;
	if (len >= 8 && png_sig_cmp(d, 0, 8) == 0)
		return MEDIA_PNG;
	if (len >= 6 && (memcmp(d, "GIF87a", 6) == 0 ||
	    memcmp(d, "GIF89a", 6) == 0))
		return MEDIA_GIF;
	if (len >= 12 && memcmp(d, "RIFF", 4) == 0 &&
	    memcmp(d + 8, "WEBP", 4) == 0)
		return MEDIA_WEBP;
	return MEDIA_NONE;
}

int
media_probe_mem(const void *data, size_t len, const char *name,
    struct media_info *mi, struct error *err)
{
	static int (*const probe[])(const unsigned char *, size_t,
	    const char *, struct media_info *, struct error *) = {
		[MEDIA_JPEG] = media_jpeg_probe, [MEDIA_PNG] = media_png_probe,
		[MEDIA_GIF] = media_gif_probe, [MEDIA_WEBP] = media_webp_probe,
	};

	memset(mi, 0, sizeof *mi);
	mi->bytes = len;
	mi->orientation = 1;
	mi->frames = 1;
	if (len > MEDIA_MAX_BYTES)
		return error_set(err, EXIT_USAGE,
		    "%s: %zu bytes; at most %u MiB are read", name, len,
		    MEDIA_MAX_BYTES >> 20);
	mi->type = media_sniff(data, len);
	if (mi->type == MEDIA_NONE)
		return error_set(err, EXIT_USAGE,
		    "%s: not a JPEG, PNG, GIF or WebP image (by its content)",
		    name);
	mi->mime = media_mimes[mi->type];
	return probe[mi->type](data, len, name, mi, err);
}

/* The whole file, refused before reading when larger than any image
 * fronts sends. */
static int
media_read(const char *path, unsigned char **out, size_t *len,
    struct error *err)
{
	struct stat st;
	char *buf;

	if (stat(path, &st) != 0)
		return error_set(err, EXIT_USAGE, "%s: %s", path,
		    strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error_set(err, EXIT_USAGE, "%s: not a regular file",
		    path);
	if ((unsigned long long)st.st_size > MEDIA_MAX_BYTES)
		return error_set(err, EXIT_USAGE,
		    "%s: %lld bytes; at most %u MiB are read", path,
		    (long long)st.st_size, MEDIA_MAX_BYTES >> 20);
	if (file_read(path, &buf, len, err) != 0)
		return -1;
	*out = (unsigned char *)buf;
	return 0;
}

static int	media_run(const char *, const bool *, struct media_info *,
		    unsigned char **, size_t *, struct error *);

int
media_probe(const char *path, struct media_info *mi, struct error *err)
{
	unsigned char *out;
	size_t outlen;

	return media_run(path, NULL, mi, &out, &outlen, err);
}

int
media_clean(const void *data, size_t len, const struct media_info *mi,
    bool keep_metadata, const char *name, unsigned char **out,
    size_t *outlen, struct error *err)
{
	*out = NULL;
	*outlen = 0;
	if (keep_metadata) {
		*out = xmalloc(len ? len : 1);
		memcpy(*out, data, len);
		*outlen = len;
		return 0;
	}
	switch (mi->type) {
	case MEDIA_JPEG:
		return media_jpeg_clean(data, len, name, mi, out, outlen, err);
	case MEDIA_PNG:
		return media_png_clean(data, len, name, out, outlen, err);
	case MEDIA_GIF:
		return media_gif_clean(data, len, name, out, outlen, err);
	case MEDIA_WEBP:
		return media_webp_clean(data, len, name, out, outlen, err);
	default:
		return error_set(err, EXIT_USAGE, "%s: not a known image", name);
	}
}

/* Reads the file at path and probes it; with keep (not NULL) cleans it
 * too, keeping its metadata when *keep. */
static int
media_run(const char *path, const bool *keep, struct media_info *mi,
    unsigned char **out, size_t *outlen, struct error *err)
{
	unsigned char *d = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	*outlen = 0;
	memset(mi, 0, sizeof *mi);
	if (media_read(path, &d, &len, err) != 0)
		return -1;
	rc = media_probe_mem(d, len, path, mi, err);
	if (rc == 0 && keep != NULL)
		rc = media_clean(d, len, mi, *keep, path, out, outlen, err);
	free(d);
	return rc;
}

int
media_load(const char *path, bool keep_metadata, struct media_info *mi,
    unsigned char **out, size_t *outlen, struct error *err)
{
	return media_run(path, &keep_metadata, mi, out, outlen, err);
}
