/*
 * media — the images a post carries, read rather than trusted: the type
 * comes from the file's bytes (never its name), width and height from the
 * image itself, and the whole file is decoded once so a corrupt one is
 * refused, with its path, before any request. Each format is read by its
 * maintained library (libjpeg-turbo, libpng, giflib, libwebp; libexif
 * for a JPEG's orientation); nothing here parses image bytes by hand.
 *
 * media_clean() produces the bytes to upload: location and camera
 * metadata removed (EXIF, XMP, comments and text chunks), the pixels
 * untouched (a JPEG is rewritten from its DCT coefficients, losslessly).
 */
#ifndef FRONTS_MEDIA_H
#define FRONTS_MEDIA_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

enum media_type {
	MEDIA_NONE,
	MEDIA_JPEG,
	MEDIA_PNG,
	MEDIA_GIF,
	MEDIA_WEBP
};

/* No platform takes a file or an image this large; refusing them first
 * bounds what reading one may cost. */
#define MEDIA_MAX_BYTES		(100u * 1024 * 1024)
#define MEDIA_MAX_PIXELS	(100u * 1000 * 1000)

struct media_info {
	enum media_type	 type;
	const char	*mime;		/* "image/jpeg", …; static */
	size_t		 bytes;		/* of the file */
	int		 width;		/* as shown: a JPEG's EXIF */
	int		 height;	/* orientation applied */
	int		 orientation;	/* JPEG EXIF orientation 1-8; 1 */
	int		 frames;	/* > 1: animated (GIF, WebP) */
};

/* Reads, identifies and fully decodes the image at path. */
int	media_probe(const char *path, struct media_info *, struct error *err);
/* The same over bytes in memory; name is for messages. */
int	media_probe_mem(const void *data, size_t len, const char *name,
	    struct media_info *, struct error *err);
/* The bytes to upload of an image media_probe_mem() accepted: metadata
 * removed, or the bytes unchanged when keep_metadata. *out is the
 * caller's to free. */
int	media_clean(const void *data, size_t len, const struct media_info *,
	    bool keep_metadata, const char *name, unsigned char **out,
	    size_t *outlen, struct error *err);
/* media_probe() then media_clean() of the file at path. */
int	media_load(const char *path, bool keep_metadata,
	    struct media_info *, unsigned char **out, size_t *outlen,
	    struct error *err);
/* "jpeg", "png", "gif", "webp"; "" for MEDIA_NONE. */
const char *media_type_name(enum media_type);

#endif
