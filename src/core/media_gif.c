/*
 * media_gif — GIF through giflib. Probing decodes every frame's rows;
 * cleaning writes the frames again without comment blocks and without
 * application blocks (where XMP lives) other than the looping ones
 * (NETSCAPE2.0, ANIMEXTS1.0), so an animation still loops.
 */
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "core/media_int.h"

struct media_gifio {
	const unsigned char	*data;
	size_t			 len, off;
};

static int
media_gif_read(GifFileType *g, GifByteType *buf, int n)
{
	struct media_gifio *io = g->UserData;
	size_t want = n < 0 ? 0 : (size_t)n;

	if (want > io->len - io->off)
		want = io->len - io->off;
	memcpy(buf, io->data + io->off, want);
	io->off += want;
	return (int)want;
}

static int
media_gif_fail(GifFileType *g, const char *name, struct error *err)
{
	int code = g != NULL ? g->Error : 0;
	const char *why = GifErrorString(code);

	if (g != NULL)
		DGifCloseFile(g, NULL);
	return error_set(err, EXIT_USAGE, "%s: corrupt GIF: %s", name,
	    why != NULL ? why : "unreadable");
}

static int
media_gif_skip_ext(GifFileType *g)
{
	GifByteType *ext;
	int code;

	if (DGifGetExtension(g, &code, &ext) != GIF_OK)
		return -1;
	while (ext != NULL)
		if (DGifGetExtensionNext(g, &ext) != GIF_OK)
			return -1;
	return 0;
}

/* Decodes one frame's rows; *pixels adds its size. */
static int
media_gif_frame(GifFileType *g, const char *name, unsigned long *pixels,
    struct error *err)
{
	GifPixelType *row;
	unsigned long w, h;
	int y, rc = 0;

	if (DGifGetImageDesc(g) != GIF_OK)
		return -1;
	w = (unsigned long)g->Image.Width;
	h = (unsigned long)g->Image.Height;
	if (media_check_pixels(name, "a GIF frame", w, h, err) != 0)
		return -2;
	*pixels += w * h;
	if (*pixels > MEDIA_MAX_PIXELS)
		return error_set(err, EXIT_USAGE, "%s: the GIF's frames hold "
		    "over %u million pixels", name, MEDIA_MAX_PIXELS / 1000000) - 1;
	row = xmalloc(w);
	for (y = 0; y < (int)h && rc == 0; y++)
		if (DGifGetLine(g, row, (int)w) != GIF_OK)
			rc = -1;
	free(row);
	return rc;
}

int
media_gif_probe(const unsigned char *data, size_t len, const char *name,
    struct media_info *mi, struct error *err)
{
	struct media_gifio io = { .data = data, .len = len };
	GifFileType *g;
	GifRecordType rt;
	unsigned long pixels = 0;
	int e, rc;

	if ((g = DGifOpen(&io, media_gif_read, &e)) == NULL)
		return error_set(err, EXIT_USAGE, "%s: corrupt GIF: %s", name,
		    GifErrorString(e));
	mi->width = g->SWidth;
	mi->height = g->SHeight;
	mi->frames = 0;
	if (media_check_pixels(name, "the GIF", (unsigned long)g->SWidth,
	    (unsigned long)g->SHeight, err) != 0) {
		DGifCloseFile(g, NULL);
		return -1;
	}
	do {
		if (DGifGetRecordType(g, &rt) != GIF_OK)
			return media_gif_fail(g, name, err);
		rc = 0;
		if (rt == IMAGE_DESC_RECORD_TYPE) {
			rc = media_gif_frame(g, name, &pixels, err);
			mi->frames++;
		} else if (rt == EXTENSION_RECORD_TYPE)
			rc = media_gif_skip_ext(g);
		if (rc == -2) {
			DGifCloseFile(g, NULL);
			return -1;
		}
		if (rc != 0)
			return media_gif_fail(g, name, err);
	} while (rt != TERMINATE_RECORD_TYPE);
	DGifCloseFile(g, NULL);
	if (mi->frames == 0)
		return error_set(err, EXIT_USAGE, "%s: corrupt GIF: no image",
		    name);
	return 0;
}

/* Whether the application block at b (and its sub-blocks after it) stays:
 * only the ones that make an animation loop. */
static bool
media_gif_keep(const ExtensionBlock *b)
{
	if (b->Function == COMMENT_EXT_FUNC_CODE)
		return false;
	if (b->Function != APPLICATION_EXT_FUNC_CODE)
		return true;
	return b->ByteCount == 11 && (memcmp(b->Bytes, "NETSCAPE2.0", 11) == 0 ||
	    memcmp(b->Bytes, "ANIMEXTS1.0", 11) == 0);
}

static int
media_gif_write(GifFileType *g, const GifByteType *buf, int n)
{
	FILE *f = g->UserData;

	return (int)fwrite(buf, 1, (size_t)n, f);
}

/* A frame's extension blocks that stay. giflib keeps a block's
 * sub-blocks as blocks of function 0 after it; one with nothing open
 * before it (an extension of function code 0) goes. */
static int
media_gif_put_blocks(GifFileType *w, const SavedImage *s)
{
	bool open = false;
	int i, rc = GIF_OK;

	for (i = 0; i < s->ExtensionBlockCount && rc == GIF_OK; i++) {
		const ExtensionBlock *b = &s->ExtensionBlocks[i];

		if (b->Function != CONTINUE_EXT_FUNC_CODE) {
			if (open && EGifPutExtensionTrailer(w) != GIF_OK)
				return -1;
			if ((open = media_gif_keep(b)))
				rc = EGifPutExtensionLeader(w, b->Function);
		}
		if (open && rc == GIF_OK)
			rc = EGifPutExtensionBlock(w, b->ByteCount, b->Bytes);
	}
	if (rc == GIF_OK && open)
		rc = EGifPutExtensionTrailer(w);
	return rc == GIF_OK ? 0 : -1;
}

/* The read file again, metadata left out (the blocks after the last
 * frame too: nothing there changes how it plays); frames are written
 * non-interlaced, their pixels as they were. */
static int
media_gif_put(GifFileType *in, GifFileType *w)
{
	const SavedImage *s;
	const GifImageDesc *d;
	int i, y;

	EGifSetGifVersion(w, true);
	if (EGifPutScreenDesc(w, in->SWidth, in->SHeight,
	    in->SColorResolution, in->SBackGroundColor, in->SColorMap) !=
	    GIF_OK)
		return -1;
	for (i = 0; i < in->ImageCount; i++) {
		s = &in->SavedImages[i];
		d = &s->ImageDesc;
		/* giflib 5.2 drops, without freeing, the last frame's
		 * local colour map when this frame has none. */
		if (d->ColorMap == NULL && w->Image.ColorMap != NULL) {
			GifFreeMapObject(w->Image.ColorMap);
			w->Image.ColorMap = NULL;
		}
		if (media_gif_put_blocks(w, s) != 0 ||
		    EGifPutImageDesc(w, d->Left, d->Top, d->Width, d->Height,
		    false, d->ColorMap) != GIF_OK)
			return -1;
		for (y = 0; y < d->Height; y++)
			if (EGifPutLine(w, s->RasterBits + (size_t)y * d->Width,
			    d->Width) != GIF_OK)
				return -1;
	}
	return 0;
}

int
media_gif_clean(const unsigned char *data, size_t len, const char *name,
    unsigned char **out, size_t *outlen, struct error *err)
{
	struct media_gifio io = { .data = data, .len = len };
	GifFileType *in, *w;
	FILE *f;
	char *buf = NULL;
	size_t n = 0;
	int e, rc = -1;

	if ((in = DGifOpen(&io, media_gif_read, &e)) == NULL)
		return error_set(err, EXIT_USAGE, "%s: corrupt GIF: %s", name,
		    GifErrorString(e));
	if (DGifSlurp(in) != GIF_OK)
		return media_gif_fail(in, name, err);
	f = xmemstream(&buf, &n);
	if ((w = EGifOpen(f, media_gif_write, &e)) != NULL) {
		rc = media_gif_put(in, w);
		if (EGifCloseFile(w, NULL) != GIF_OK)
			rc = -1;
	}
	DGifCloseFile(in, NULL);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return error_set(err, EXIT_ERROR, "%s: the GIF could not be "
		    "written again", name);
	}
	*out = (unsigned char *)buf;
	*outlen = n;
	return 0;
}
