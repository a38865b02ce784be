/*
 * legal_media — what each platform can carry beyond one text: a thread
 * of replies, images per post, their types and sizes, and alt text. The
 * numbers are the platforms' own (README "Threads, images and variants"
 * names each source); a Mastodon instance's announced limits replace its
 * defaults, and a front's limits may require alt text.
 *
 * Byte limits a platform states in "MB" are taken as decimal megabytes,
 * the smaller reading: an image a few bytes under a mebibyte limit is
 * refused here rather than by the platform at publish time.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/legal.h"
#include "core/timeutil.h"

#define TYPES(...)	(0u __VA_ARGS__)
#define T(x)		| (1u << (x))
#define ALL_TYPES	TYPES(T(IMAGE_JPEG) T(IMAGE_PNG) T(IMAGE_GIF) T(IMAGE_WEBP))

struct legal_caps {
	const char	*no_thread;	/* why not; NULL: threads are fine */
	const char	*no_images;	/* why not; NULL: images are fine */
	int		 max_images;	/* per post */
	unsigned	 types;		/* bit per enum image_type */
	long		 max_bytes;	/* 0: none */
	long		 max_gif_bytes;	/* 0: max_bytes */
	long		 max_pixels;	/* 0: none */
	int		 max_alt;	/* characters; 0: none */
	bool		 gif_alone;	/* an animated GIF is the only image */
	int		 max_frames;	/* of an animated GIF; 0: none */
};

static const struct legal_caps caps[PLATFORM_COUNT] = {
	[PLATFORM_X] = { NULL, NULL, 4, ALL_TYPES, 5000000, 15000000, 0,
	    1000, true },
	[PLATFORM_LINKEDIN] = { "a LinkedIn post takes no thread of replies",
	    NULL, 20, TYPES(T(IMAGE_JPEG) T(IMAGE_PNG) T(IMAGE_GIF)), 0, 0,
	    36152320, 4086, false, 250 },
	[PLATFORM_BLUESKY] = { NULL, NULL, 4, ALL_TYPES, 1000000, 0, 0, 0,
	    false },
	[PLATFORM_MASTODON] = { NULL, NULL, 4, ALL_TYPES, 16777216, 0,
	    33177600, 1500, false },
	[PLATFORM_THREADS] = { NULL, NULL, 20, TYPES(T(IMAGE_JPEG)
	    T(IMAGE_PNG)), 8000000, 0, 0, 0, false },
	[PLATFORM_REDDIT] = { "a Reddit post takes no thread of replies",
	    "fronts posts a Reddit title, which carries no image", 0, 0, 0, 0,
	    0, 0, false },
};

/*
 * What the platform allows is not all: fronts publishes to X and LinkedIn
 * through Composio's tools, and sends only what those tools are known to
 * carry (README "Threads, images, variants and windows" and "Images"
 * name the sources). X images go through TWITTER_UPLOAD_MEDIA, whose
 * callers send it JPEG, PNG and WebP (an animated GIF goes through
 * another, chunked tool fronts does not use), and no Composio tool sets
 * an image's alt text on X.
 * LinkedIn images go in LINKEDIN_CREATE_LINKED_IN_POST's `images`, as
 * files of Composio's file store, and no field of that tool carries alt
 * text. What it cannot send is illegal with that reason (the plan
 * puts the draft where it can go whole, or a variant serves the front)
 * rather than refused at the keypress.
 */
struct legal_sender {
	const char	*no_images;	/* why none; NULL: images go */
	unsigned	 types;		/* 0: every type the platform takes */
	const char	*via;		/* the tool the images go through */
	const char	*no_alt;	/* why alt text does not go; NULL: it does */
};

static const struct legal_sender senders[PLATFORM_COUNT] = {
	[PLATFORM_X] = { NULL, TYPES(T(IMAGE_JPEG) T(IMAGE_PNG) T(IMAGE_WEBP)),
	    "Composio's TWITTER_UPLOAD_MEDIA", "no Composio tool carries an "
	    "image's alt text to X" },
	[PLATFORM_LINKEDIN] = { NULL, 0,
	    "Composio's LINKEDIN_CREATE_LINKED_IN_POST", "no field of "
	    "Composio's LINKEDIN_CREATE_LINKED_IN_POST carries an image's alt "
	    "text to LinkedIn" },
};

static const char *type_names[IMAGE_NTYPES] = { "unknown", "JPEG", "PNG",
    "GIF", "WebP" };

/* The caps of f: its platform's, narrowed by what its instance says. */
static struct legal_caps
front_caps(const struct front *f)
{
	struct legal_caps c = caps[f->platform];
	const struct limits *l = &f->limits;

	if (l->instance_max_media > 0)
		c.max_images = l->instance_max_media;
	if (l->instance_image_bytes > 0)
		c.max_bytes = l->instance_image_bytes;
	if (l->instance_image_pixels > 0)
		c.max_pixels = l->instance_image_pixels;
	if (l->instance_alt_length > 0)
		c.max_alt = l->instance_alt_length;
	if (l->instance_image_types != 0)
		c.types = l->instance_image_types;
	return c;
}

int
legal_max_images(const struct front *f)
{
	struct legal_caps c = front_caps(f);

	return c.no_images != NULL || senders[f->platform].no_images != NULL ?
	    0 : c.max_images;
}

bool
legal_threads(const struct front *f)
{
	return caps[f->platform].no_thread == NULL;
}

int
legal_max_alt(const struct front *f)
{
	return front_caps(f).max_alt;
}

void
legal_window_text(const struct draft *d, char *buf, size_t len)
{
	char a[40] = "", b[40] = "";

	if (d->has_not_before)
		time_format_local(d->not_before, a, sizeof a);
	if (d->has_not_after)
		time_format_local(d->not_after, b, sizeof b);
	snprintf(buf, len, "%s%s%s%s%s", a[0] != '\0' ? "not_before " : "", a,
	    a[0] != '\0' && b[0] != '\0' ? ", " : "",
	    b[0] != '\0' ? "not_after " : "", b);
}

bool
legal_in_window(const struct draft *d, time_t t)
{
	return (!d->has_not_before || t >= d->not_before) &&
	    (!d->has_not_after || t <= d->not_after);
}

/* Characters (code points) of valid UTF-8. */
static int
utf8_chars(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static enum legal_verdict
say(enum legal_verdict v, char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum legal_verdict
say(enum legal_verdict v, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return v;
}

static enum legal_verdict
image_size(const struct legal_caps *c, const struct media *m,
    const char *pl, char *why, size_t len)
{
	const struct image_facts *x = &m->facts;
	long max = x->type == IMAGE_GIF && c->max_gif_bytes > 0 ?
	    c->max_gif_bytes : c->max_bytes;

	if (max > 0 && x->bytes > max)
		return say(LEGAL_IMAGE_SIZE, why, len, "%s: %ld bytes, over "
		    "%s's %ld", m->path, x->bytes, pl, max);
	if (c->max_pixels > 0 &&
	    (long long)x->width * x->height > c->max_pixels)
		return say(LEGAL_IMAGE_SIZE, why, len, "%s: %d×%d pixels, over "
		    "%s's %ld", m->path, x->width, x->height, pl, c->max_pixels);
	if (c->max_frames > 0 && x->frames > c->max_frames)
		return say(LEGAL_IMAGE_SIZE, why, len, "%s: %d frames, over "
		    "%s's %d", m->path, x->frames, pl, c->max_frames);
	return LEGAL_OK;
}

/* What fronts's channel to the front cannot send of an image. */
static enum legal_verdict
image_sender(const struct front *f, const struct media *m, char *why,
    size_t len)
{
	const struct legal_sender *s = &senders[f->platform];
	enum image_type t = m->facts.type;

	if (s->no_images != NULL)
		return say(LEGAL_NO_IMAGES, why, len, "%s", s->no_images);
	if (s->types != 0 && (s->types & (1u << t)) == 0)
		return say(LEGAL_IMAGE_TYPE, why, len, "%s: fronts sends %s "
		    "images through %s, which takes no %s", m->path,
		    platform_name(f->platform), s->via, type_names[t]);
	if (s->no_alt != NULL && f->limits.alt_required)
		return say(LEGAL_ALT_MISSING, why, len, "%s: the front's "
		    "limits.alt_required asks for alt text, and %s", m->path,
		    s->no_alt);
	return LEGAL_OK;
}

enum legal_verdict
legal_image(const struct front *f, const struct media *m, char *why,
    size_t len)
{
	struct legal_caps c = front_caps(f);
	const struct image_facts *x = &m->facts;
	const char *pl = platform_name(f->platform);
	enum legal_verdict v;

	if (c.no_images != NULL)
		return say(LEGAL_NO_IMAGES, why, len, "%s", c.no_images);
	if (!x->probed || x->problem != NULL)
		return say(LEGAL_IMAGE_BAD, why, len, "%s: %s", m->path,
		    x->problem != NULL ? x->problem : "not read");
	if ((unsigned)x->type >= IMAGE_NTYPES ||
	    (c.types & (1u << x->type)) == 0)
		return say(LEGAL_IMAGE_TYPE, why, len, "%s: %s does not take %s "
		    "images", m->path, pl,
		    type_names[(unsigned)x->type < IMAGE_NTYPES ? x->type : 0]);
	if ((v = image_sender(f, m, why, len)) != LEGAL_OK)
		return v;
	if ((v = image_size(&c, m, pl, why, len)) != LEGAL_OK)
		return v;
	if (m->alt == NULL && f->limits.alt_required)
		return say(LEGAL_ALT_MISSING, why, len, "%s: no alt text, and "
		    "the front's limits.alt_required asks for it", m->path);
	if (m->alt != NULL && c.max_alt > 0 && utf8_chars(m->alt) > c.max_alt)
		return say(LEGAL_ALT_TOO_LONG, why, len, "%s: alt text of %d "
		    "characters, over %s's %d", m->path, utf8_chars(m->alt), pl,
		    c.max_alt);
	return say(LEGAL_OK, why, len, "%s", "");
}

/* The images of one part: how many, then each. */
static enum legal_verdict
part_images(const struct front *f, const struct part *pt, char *why,
    size_t len)
{
	struct legal_caps c = front_caps(f);
	enum legal_verdict v;
	int i;

	if (pt->nmedia == 0)
		return LEGAL_OK;
	if (c.no_images != NULL)
		return say(LEGAL_NO_IMAGES, why, len, "%s", c.no_images);
	if (senders[f->platform].no_images != NULL)
		return say(LEGAL_NO_IMAGES, why, len, "%s",
		    senders[f->platform].no_images);
	if (pt->nmedia > c.max_images)
		return say(LEGAL_TOO_MANY_IMAGES, why, len, "%d images; %s takes "
		    "%d per post", pt->nmedia, platform_name(f->platform),
		    c.max_images);
	for (i = 0; i < pt->nmedia; i++) {
		if ((v = legal_image(f, &pt->media[i], why, len)) != LEGAL_OK)
			return v;
		if (c.gif_alone && pt->nmedia > 1 &&
		    pt->media[i].facts.frames > 1)
			return say(LEGAL_TOO_MANY_IMAGES, why, len, "%s: an "
			    "animated GIF goes alone on %s", pt->media[i].path,
			    platform_name(f->platform));
	}
	return LEGAL_OK;
}

static enum legal_verdict
part_verdict(const struct front *f, const struct part *pt, char *why,
    size_t len)
{
	struct text_measure m;
	enum legal_verdict v = legal_text(f, pt->text, &m);

	switch (v) {
	case LEGAL_OK:
		return part_images(f, pt, why, len);
	case LEGAL_TOO_LONG:
		return say(v, why, len, "length %d/%d %s", m.length, m.limit,
		    text_unit_name(m.unit));
	case LEGAL_BAD_TEXT:
		return say(v, why, len, "not valid UTF-8");
	default:
		return say(v, why, len, "%d links, %d hashtags: over the front's "
		    "limits", m.links, m.hashtags);
	}
}

enum legal_verdict
legal_body(const struct front *f, const struct body *b, char *why,
    size_t len)
{
	enum legal_verdict v;
	char one[200];
	int i;

	if (b->nparts > 1 && !legal_threads(f))
		return say(LEGAL_NO_THREAD, why, len, "%d parts: %s",
		    b->nparts, caps[f->platform].no_thread);
	for (i = 0; i < b->nparts; i++)
		if ((v = part_verdict(f, &b->parts[i], one, sizeof one)) !=
		    LEGAL_OK)
			return b->nparts > 1 ? say(v, why, len, "part %d: %s",
			    i + 1, one) : say(v, why, len, "%s", one);
	return say(LEGAL_OK, why, len, "%s", "");
}
