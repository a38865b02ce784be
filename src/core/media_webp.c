/*
 * media_webp — WebP through libwebp: the container checked whole by
 * libwebpdemux, every frame decoded (scaled down: only whether it decodes
 * matters here), and cleaning through libwebpmux, which deletes the EXIF
 * and XMP chunks and writes the container again.
 */
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/mux.h>

#include "core/media_int.h"

/* Decodes one frame's bitstream at a few pixels across. */
static int
media_webp_decode(const WebPData *frag)
{
	WebPDecoderConfig cfg;
	int rc;

	if (!WebPInitDecoderConfig(&cfg) ||
	    WebPGetFeatures(frag->bytes, frag->size, &cfg.input) != VP8_STATUS_OK)
		return -1;
	cfg.options.use_scaling = 1;
	cfg.options.scaled_width = cfg.input.width < 16 ? cfg.input.width : 16;
	cfg.options.scaled_height = cfg.input.height < 16 ?
	    cfg.input.height : 16;
	cfg.output.colorspace = MODE_RGBA;
	rc = WebPDecode(frag->bytes, frag->size, &cfg) == VP8_STATUS_OK ? 0 : -1;
	WebPFreeDecBuffer(&cfg.output);
	return rc;
}

static int
media_webp_frames(WebPDemuxer *dm, const char *name, struct media_info *mi,
    struct error *err)
{
	WebPIterator it;
	int rc = 0;

	if (!WebPDemuxGetFrame(dm, 1, &it))
		return error_set(err, EXIT_USAGE, "%s: corrupt WebP: no image",
		    name);
	mi->frames = 0;
	do {
		mi->frames++;
		if (media_webp_decode(&it.fragment) != 0)
			rc = error_set(err, EXIT_USAGE,
			    "%s: corrupt WebP: frame %d does not decode", name,
			    mi->frames);
	} while (rc == 0 && WebPDemuxNextFrame(&it));
	WebPDemuxReleaseIterator(&it);
	return rc;
}

int
media_webp_probe(const unsigned char *data, size_t len, const char *name,
    struct media_info *mi, struct error *err)
{
	WebPData wd = { data, len };
	WebPDemuxer *dm;
	int rc;

	if ((dm = WebPDemux(&wd)) == NULL)
		return error_set(err, EXIT_USAGE,
		    "%s: corrupt WebP: the container does not parse", name);
	mi->width = (int)WebPDemuxGetI(dm, WEBP_FF_CANVAS_WIDTH);
	mi->height = (int)WebPDemuxGetI(dm, WEBP_FF_CANVAS_HEIGHT);
	rc = media_check_pixels(name, "the WebP", (unsigned long)mi->width,
	    (unsigned long)mi->height, err);
	if (rc == 0)
		rc = media_webp_frames(dm, name, mi, err);
	WebPDemuxDelete(dm);
	return rc;
}

int
media_webp_clean(const unsigned char *data, size_t len, const char *name,
    unsigned char **out, size_t *outlen, struct error *err)
{
	WebPData wd = { data, len }, res = { NULL, 0 };
	WebPMux *mux;
	WebPMuxError me;

	if ((mux = WebPMuxCreate(&wd, 0)) == NULL)
		return error_set(err, EXIT_USAGE,
		    "%s: corrupt WebP: the container does not parse", name);
	me = WebPMuxDeleteChunk(mux, "EXIF");
	if (me == WEBP_MUX_OK || me == WEBP_MUX_NOT_FOUND)
		me = WebPMuxDeleteChunk(mux, "XMP ");
	if (me == WEBP_MUX_OK || me == WEBP_MUX_NOT_FOUND)
		me = WebPMuxAssemble(mux, &res);
	WebPMuxDelete(mux);
	if (me != WEBP_MUX_OK) {
		WebPDataClear(&res);
		return error_set(err, EXIT_USAGE,
		    "%s: the WebP could not be written again (mux error %d)",
		    name, (int)me);
	}
	*out = xmalloc(res.size ? res.size : 1);
	memcpy(*out, res.bytes, res.size);
	*outlen = res.size;
	WebPDataClear(&res);
	return 0;
}
