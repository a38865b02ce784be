/* Unit tests for what the legality engine says of threads, images, alt
 * text, variants and windows: per part, per image, per window, on every
 * platform, and the pins a window refuses. */
#include "testutil.h"
#include "fixture_project.h"
#include "core/legal.h"

static enum legal_verdict
static_verdict(struct project *p, int d, int f)
{
	struct action a = { ACTION_POST, (uint16_t)f, (uint32_t)d };
	struct legal *lg = legal_new(p, NULL, 0, NULL);
	enum legal_verdict v;

	assert_non_null(lg);
	v = legal_static(lg, &a);
	legal_free(lg);
	return v;
}

static struct project *
platforms(int ndrafts)
{
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 24,
	    PLATFORM_COUNT, ndrafts);
	int f;

	for (f = 0; f < PLATFORM_COUNT; f++)
		p->fronts[f].platform = (enum platform)f;
	return p;
}

/* A thread goes where replies are a thread, and only there. */
static void
test_thread_per_platform(void **state)
{
	struct project *p = platforms(1);
	char why[256];

	fx_part(&p->drafts[0].body, "second part");
	assert_int_equal(static_verdict(p, 0, PLATFORM_X), LEGAL_OK);
	assert_int_equal(static_verdict(p, 0, PLATFORM_BLUESKY), LEGAL_OK);
	assert_int_equal(static_verdict(p, 0, PLATFORM_MASTODON), LEGAL_OK);
	assert_int_equal(static_verdict(p, 0, PLATFORM_THREADS), LEGAL_OK);
	assert_int_equal(static_verdict(p, 0, PLATFORM_LINKEDIN),
	    LEGAL_NO_THREAD);
	assert_int_equal(static_verdict(p, 0, PLATFORM_REDDIT),
	    LEGAL_NO_THREAD);
	assert_int_equal(legal_body(&p->fronts[PLATFORM_LINKEDIN],
	    &p->drafts[0].body, why, sizeof why), LEGAL_NO_THREAD);
	assert_non_null(strstr(why, "LinkedIn post takes no thread"));
	/* A one-part variant serves LinkedIn. */
	fx_variant(p, 0, "linkedin", "the short version");
	assert_int_equal(static_verdict(p, 0, PLATFORM_LINKEDIN), LEGAL_OK);
	assert_int_equal(static_verdict(p, 0, PLATFORM_REDDIT),
	    LEGAL_NO_THREAD);
	fx_free(p);
}

/* Every part is measured against the front's limit, not just the first;
 * the verdict names the part. */
static void
test_every_part_counted(void **state)
{
	struct project *p = platforms(1);
	char long_text[400], why[256];

	memset(long_text, 'a', 300);
	long_text[300] = '\0';
	fx_part(&p->drafts[0].body, "fine");
	fx_part(&p->drafts[0].body, long_text);	/* 300: over X's 280 */
	assert_int_equal(static_verdict(p, 0, PLATFORM_X), LEGAL_TOO_LONG);
	assert_int_equal(static_verdict(p, 0, PLATFORM_BLUESKY), LEGAL_OK);
	assert_int_equal(legal_body(&p->fronts[PLATFORM_X],
	    &p->drafts[0].body, why, sizeof why), LEGAL_TOO_LONG);
	assert_string_equal(why, "part 3: length 300/280 weighted");
	/* A variant by front id wins over one by platform. */
	fx_variant(p, 0, "x", "too long? no");
	fx_variant(p, 0, "f0", "short");
	assert_int_equal(project_draft_variant(p, 0, 0), 1);
	assert_int_equal(static_verdict(p, 0, PLATFORM_X), LEGAL_OK);
	fx_free(p);
}

/* Images per post: Bluesky's lexicon allows 4, Threads 20, a Reddit
 * title none. */
static void
test_images_per_post(void **state)
{
	struct project *p = platforms(1);
	struct part *pt = &p->drafts[0].body.parts[0];
	char why[256];
	int i;

	for (i = 0; i < 5; i++)
		fx_image(pt, "media/a.png", "a", IMAGE_PNG, 1000, 10, 10);
	assert_int_equal(static_verdict(p, 0, PLATFORM_BLUESKY),
	    LEGAL_TOO_MANY_IMAGES);
	assert_int_equal(static_verdict(p, 0, PLATFORM_MASTODON),
	    LEGAL_TOO_MANY_IMAGES);
	assert_int_equal(static_verdict(p, 0, PLATFORM_THREADS), LEGAL_OK);
	assert_int_equal(static_verdict(p, 0, PLATFORM_REDDIT),
	    LEGAL_NO_IMAGES);
	/* X takes 4, sent through Composio; LinkedIn 20 (MultiImage),
	 * sent in its post tool's `images`. */
	assert_int_equal(legal_body(&p->fronts[PLATFORM_X],
	    &p->drafts[0].body, why, sizeof why), LEGAL_TOO_MANY_IMAGES);
	assert_string_equal(why, "5 images; x takes 4 per post");
	assert_int_equal(legal_max_images(&p->fronts[PLATFORM_X]), 4);
	assert_int_equal(static_verdict(p, 0, PLATFORM_LINKEDIN), LEGAL_OK);
	assert_int_equal(legal_max_images(&p->fronts[PLATFORM_LINKEDIN]), 20);
	assert_int_equal(legal_body(&p->fronts[PLATFORM_BLUESKY],
	    &p->drafts[0].body, why, sizeof why), LEGAL_TOO_MANY_IMAGES);
	assert_string_equal(why, "5 images; bluesky takes 4 per post");
	/* An instance that allows 8 lifts Mastodon's 4. */
	p->fronts[PLATFORM_MASTODON].limits.instance_max_media = 8;
	assert_int_equal(static_verdict(p, 0, PLATFORM_MASTODON), LEGAL_OK);
	assert_int_equal(legal_max_images(&p->fronts[PLATFORM_REDDIT]), 0);
	for (i = 5; i < 21; i++)
		fx_image(pt, "media/a.png", "a", IMAGE_PNG, 1000, 10, 10);
	assert_int_equal(legal_body(&p->fronts[PLATFORM_LINKEDIN],
	    &p->drafts[0].body, why, sizeof why), LEGAL_TOO_MANY_IMAGES);
	assert_string_equal(why, "21 images; linkedin takes 20 per post");
	fx_free(p);
}

/* Type and bytes against each platform; a GIF has its own limit on X. */
static void
test_image_type_and_size(void **state)
{
	struct project *p = platforms(1);
	struct front *f = p->fronts;
	struct media m;
	char why[256];

	memset(&m, 0, sizeof m);
	m.path = "media/a.webp";
	m.facts = (struct image_facts){ true, NULL, IMAGE_WEBP, 900000, 100,
	    100, 1 };
	assert_int_equal(legal_image(&f[PLATFORM_BLUESKY], &m, why, sizeof why),
	    LEGAL_OK);
	assert_int_equal(legal_image(&f[PLATFORM_THREADS], &m, why, sizeof why),
	    LEGAL_IMAGE_TYPE);
	assert_string_equal(why, "media/a.webp: threads does not take WebP "
	    "images");
	assert_int_equal(legal_image(&f[PLATFORM_LINKEDIN], &m, NULL, 0),
	    LEGAL_IMAGE_TYPE);
	/* Bluesky's blob limit is 1,000,000 bytes: one more is refused. */
	m.facts.bytes = 1000001;
	assert_int_equal(legal_image(&f[PLATFORM_BLUESKY], &m, why, sizeof why),
	    LEGAL_IMAGE_SIZE);
	assert_string_equal(why, "media/a.webp: 1000001 bytes, over bluesky's "
	    "1000000");
	m.facts.bytes = 1000000;
	assert_int_equal(legal_image(&f[PLATFORM_BLUESKY], &m, NULL, 0),
	    LEGAL_OK);
	/* X: 5 MB for an image. A GIF (15 MB on X) goes through a tool
	 * fronts does not use: refused as a type fronts cannot send. */
	m.facts.bytes = 6000000;
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, NULL, 0),
	    LEGAL_IMAGE_SIZE);
	m.facts.bytes = 5000000;
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, NULL, 0), LEGAL_OK);
	m.facts.type = IMAGE_GIF;
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, why, sizeof why),
	    LEGAL_IMAGE_TYPE);
	assert_string_equal(why, "media/a.webp: fronts sends x images through "
	    "Composio's TWITTER_UPLOAD_MEDIA, which takes no GIF");
	m.facts.bytes = 6000000;
	/* Mastodon: 16 MiB and 33,177,600 pixels by default; an instance's
	 * own image_size_limit replaces them. */
	m.facts.type = IMAGE_PNG;
	assert_int_equal(legal_image(&f[PLATFORM_MASTODON], &m, NULL, 0),
	    LEGAL_OK);
	m.facts.width = 8000;
	m.facts.height = 5000;
	assert_int_equal(legal_image(&f[PLATFORM_MASTODON], &m, why,
	    sizeof why), LEGAL_IMAGE_SIZE);
	assert_non_null(strstr(why, "8000×5000 pixels"));
	m.facts.width = m.facts.height = 100;
	f[PLATFORM_MASTODON].limits.instance_image_bytes = 2000000;
	assert_int_equal(legal_image(&f[PLATFORM_MASTODON], &m, NULL, 0),
	    LEGAL_IMAGE_SIZE);
	/* An instance that takes only JPEG refuses the PNG. */
	f[PLATFORM_MASTODON].limits.instance_image_bytes = 0;
	f[PLATFORM_MASTODON].limits.instance_image_types = 1u << IMAGE_JPEG;
	assert_int_equal(legal_image(&f[PLATFORM_MASTODON], &m, NULL, 0),
	    LEGAL_IMAGE_TYPE);
	/* A file that could not be read is refused everywhere, with why. */
	m.facts.problem = "not an image (JPEG, PNG, GIF or WebP)";
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, why, sizeof why),
	    LEGAL_IMAGE_BAD);
	assert_string_equal(why, "media/a.webp: not an image (JPEG, PNG, GIF "
	    "or WebP)");
	m.facts.problem = NULL;
	m.facts.probed = false;
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, NULL, 0),
	    LEGAL_IMAGE_BAD);
	fx_free(p);
}

/* LinkedIn's Images API: JPEG, PNG and GIF (not WebP), under
 * 36,152,320 pixels, a GIF of at most 250 frames; no byte limit of its
 * own. Sent through Composio's post tool, which carries no alt text: a
 * front that requires alt text takes no images there. */
static void
test_linkedin_images(void **state)
{
	struct project *p = platforms(1);
	struct front *f = &p->fronts[PLATFORM_LINKEDIN];
	struct media m;
	char why[256];

	memset(&m, 0, sizeof m);
	m.path = "a.gif";
	m.alt = "a harbour";
	m.facts = (struct image_facts){ true, NULL, IMAGE_GIF, 40000000, 6000,
	    6025, 250 };
	assert_int_equal(legal_image(f, &m, why, sizeof why), LEGAL_OK);
	m.facts.frames = 251;
	assert_int_equal(legal_image(f, &m, why, sizeof why),
	    LEGAL_IMAGE_SIZE);
	assert_string_equal(why, "a.gif: 251 frames, over linkedin's 250");
	m.facts.frames = 1;
	m.facts.height = 6026;		/* 36,156,000 pixels */
	assert_int_equal(legal_image(f, &m, why, sizeof why),
	    LEGAL_IMAGE_SIZE);
	assert_non_null(strstr(why, "over linkedin's 36152320"));
	m.facts.height = 100;
	m.facts.type = IMAGE_WEBP;
	assert_int_equal(legal_image(f, &m, why, sizeof why),
	    LEGAL_IMAGE_TYPE);
	m.facts.type = IMAGE_JPEG;
	f->limits.alt_required = 1;
	assert_int_equal(legal_image(f, &m, why, sizeof why),
	    LEGAL_ALT_MISSING);
	assert_non_null(strstr(why, "no field of Composio's "
	    "LINKEDIN_CREATE_LINKED_IN_POST carries an image's alt text"));
	fx_free(p);
}

/* Alt text: required only where the front's limits say so; never
 * longer than the platform takes (X 1000, Mastodon 1500 or the
 * instance's description_limit). */
static void
test_alt_text(void **state)
{
	struct project *p = platforms(1);
	struct front *f = p->fronts;
	struct media m;
	char alt[2100], why[256];

	memset(&m, 0, sizeof m);
	m.path = "a.jpg";
	m.facts = (struct image_facts){ true, NULL, IMAGE_JPEG, 1000, 10, 10,
	    1 };
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, NULL, 0), LEGAL_OK);
	f[PLATFORM_X].limits.alt_required = 1;
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, why, sizeof why),
	    LEGAL_ALT_MISSING);
	assert_non_null(strstr(why, "limits.alt_required"));
	/* On X it is missing even when written: no Composio tool carries
	 * alt text there. Bluesky carries it. */
	m.alt = "a harbour";
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, why, sizeof why),
	    LEGAL_ALT_MISSING);
	assert_non_null(strstr(why, "no Composio tool carries an image's alt "
	    "text to X"));
	f[PLATFORM_BLUESKY].limits.alt_required = 1;
	assert_int_equal(legal_image(&f[PLATFORM_BLUESKY], &m, NULL, 0),
	    LEGAL_OK);
	f[PLATFORM_X].limits.alt_required = 0;
	m.alt = NULL;
	/* 1000 characters of two bytes each are 1000, not 2000. */
	memset(alt, 0, sizeof alt);
	for (int i = 0; i < 1000; i++)
		memcpy(alt + 2 * i, "é", 2);
	m.alt = alt;
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, NULL, 0), LEGAL_OK);
	memcpy(alt + 2000, "x", 1);
	assert_int_equal(legal_image(&f[PLATFORM_X], &m, why, sizeof why),
	    LEGAL_ALT_TOO_LONG);
	assert_string_equal(why, "a.jpg: alt text of 1001 characters, over "
	    "x's 1000");
	assert_int_equal(legal_image(&f[PLATFORM_MASTODON], &m, NULL, 0),
	    LEGAL_OK);
	f[PLATFORM_MASTODON].limits.instance_alt_length = 500;
	assert_int_equal(legal_image(&f[PLATFORM_MASTODON], &m, NULL, 0),
	    LEGAL_ALT_TOO_LONG);
	assert_int_equal(legal_max_alt(&f[PLATFORM_BLUESKY]), 0);
	fx_free(p);
}

/* The window: not_before and not_after are inclusive slots; outside
 * them a post is LEGAL_WINDOW (a moment's verdict, not a never). */
static void
test_window(void **state)
{
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 6, 1,
	    2);
	struct action a = { ACTION_POST, 0, 0 }, w = { ACTION_WAIT, 0, 0 };
	struct legal *lg;
	struct legal_path *lp;
	int k, ok[6];

	p->drafts[0].has_not_before = p->drafts[0].has_not_after = true;
	assert_int_equal(time_parse_iso("2026-12-01T09:30:00Z",
	    &p->drafts[0].not_before), 0);
	assert_int_equal(time_parse_iso("2026-12-01T11:00:00Z",
	    &p->drafts[0].not_after), 0);
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	assert_int_equal(legal_static(lg, &a), LEGAL_OK);
	for (k = 0; k < 6; k++) {
		ok[k] = legal_check(lg, lp, &a);
		legal_apply(lg, lp, &w);
	}
	/* 08:00, 09:00 before; 10:00, 11:00 inside; 12:00, 13:00 after. */
	assert_int_equal(ok[0], LEGAL_WINDOW);
	assert_int_equal(ok[1], LEGAL_WINDOW);
	assert_int_equal(ok[2], LEGAL_OK);
	assert_int_equal(ok[3], LEGAL_OK);
	assert_int_equal(ok[4], LEGAL_WINDOW);
	assert_int_equal(ok[5], LEGAL_WINDOW);
	assert_false(legal_never(LEGAL_WINDOW));
	assert_string_equal(legal_verdict_name(LEGAL_WINDOW), "window");
	/* No enumeration offers it outside. */
	{
		struct action out[8];
		int n, i;

		legal_path_reset(lg, lp);
		n = legal_enumerate(lg, lp, out);
		for (i = 0; i < n; i++)
			assert_false(out[i].kind == ACTION_POST &&
			    out[i].draft == 0);
	}
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* A pin outside its draft's window is refused with that reason; an
 * untimed pin whose window misses the horizon too. */
static void
test_window_pins(void **state)
{
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 6, 1,
	    2);
	struct error err = { 0 };

	p->drafts[0].has_not_before = true;
	assert_int_equal(time_parse_iso("2026-12-01T10:00:00Z",
	    &p->drafts[0].not_before), 0);
	fx_pin(p, 0, 0, "2026-12-01T09:00:00Z");
	assert_int_equal(legal_pins_check(p, NULL, 0, &err), -1);
	assert_int_equal(err.code, EXIT_REFUSED);
	assert_non_null(strstr(err.msg, "outside the draft's window "
	    "(not_before "));
	free(p->pins[0].at_text);
	free(p->pins);
	p->pins = NULL;
	p->npins = 0;
	fx_pin(p, 0, 0, "2026-12-01T10:00:00Z");
	assert_int_equal(legal_pins_check(p, NULL, 0, &err), 0);
	/* Untimed, with a window after the horizon's last slot (13:00). */
	assert_int_equal(time_parse_iso("2026-12-02T10:00:00Z",
	    &p->drafts[0].not_before), 0);
	free(p->pins[0].at_text);
	p->pins[0].at_text = NULL;
	p->pins[0].has_at = false;
	assert_int_equal(legal_pins_check(p, NULL, 0, &err), -1);
	assert_non_null(strstr(err.msg, "no slot of the plan's horizon"));
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_per_platform),
		cmocka_unit_test(test_every_part_counted),
		cmocka_unit_test(test_images_per_post),
		cmocka_unit_test(test_image_type_and_size),
		cmocka_unit_test(test_linkedin_images),
		cmocka_unit_test(test_alt_text),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_window_pins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
