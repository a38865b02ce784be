/*
 * media_int — what the per-format readers (media_*.c) share with
 * media.c and nobody else needs.
 */
#ifndef FRONTS_MEDIA_INT_H
#define FRONTS_MEDIA_INT_H

#include "core/media.h"

/* Each reader decodes the whole image (so corrupt data is refused) and
 * fills width, height, orientation and frames; -1 with err naming name. */
int	media_jpeg_probe(const unsigned char *, size_t, const char *name,
	    struct media_info *, struct error *err);
int	media_png_probe(const unsigned char *, size_t, const char *name,
	    struct media_info *, struct error *err);
int	media_gif_probe(const unsigned char *, size_t, const char *name,
	    struct media_info *, struct error *err);
int	media_webp_probe(const unsigned char *, size_t, const char *name,
	    struct media_info *, struct error *err);

/* The cleaners: the image without its metadata, in a fresh buffer. */
int	media_jpeg_clean(const unsigned char *, size_t, const char *name,
	    const struct media_info *, unsigned char **out, size_t *outlen,
	    struct error *err);
int	media_png_clean(const unsigned char *, size_t, const char *name,
	    unsigned char **out, size_t *outlen, struct error *err);
int	media_gif_clean(const unsigned char *, size_t, const char *name,
	    unsigned char **out, size_t *outlen, struct error *err);
int	media_webp_clean(const unsigned char *, size_t, const char *name,
	    unsigned char **out, size_t *outlen, struct error *err);

/* Refuses an image whose pixels (times frames) exceed MEDIA_MAX_PIXELS. */
int	media_check_pixels(const char *name, const char *what,
	    unsigned long w, unsigned long h, struct error *err);

#endif
