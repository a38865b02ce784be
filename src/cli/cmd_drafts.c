/*
 * cmd_drafts — `fronts drafts`: what every front a draft may go to gets of
 * it (the variant for it, or the default), part by part and image by
 * image, each with the legality engine's verdict: lengths counted the way
 * that platform counts, against that front's limit; threads, images and
 * alt text as that platform takes them; the draft's window. Exits 3 when a
 * draft fits none of its fronts: it can never be posted.
 *
 * `fronts drafts import FILE.csv --map …` appends drafts from a
 * spreadsheet (drafts_csv.h); --dry-run says what it would add.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "cli/cli.h"
#include "core/drafts_csv.h"
#include "core/legal.h"
#include "core/project.h"
#include "core/text.h"
#include "core/termsafe.h"

#define PREVIEW_COLUMNS 60

struct drafts_tally {
	int	over_some;	/* drafts illegal on at least one front */
	int	over_all;	/* drafts illegal on every front */
	const char *first_over_all;
	int	id_width;	/* for aligning the human output */
};

/* The start of a draft on one line, about PREVIEW_COLUMNS wide (wide
 * CJK characters count two), cut at a code point boundary. */
static void
preview(const char *text, char *buf, size_t len)
{
	const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)text;
	utf8proc_int32_t cp;
	utf8proc_ssize_t n;
	size_t o = 0;
	int cols = 0;

	while (*s != '\0' && cols < PREVIEW_COLUMNS) {
		n = utf8proc_iterate(s, -1, &cp);
		if (n <= 0 || o + (size_t)n + 4 >= len)
			break;
		cols += cp < 0x20 ? 1 : utf8proc_charwidth(cp);
		if (cp < 0x20 || cp == 0x7f)
			buf[o++] = ' ';
		else {
			memcpy(buf + o, s, (size_t)n);
			o += (size_t)n;
		}
		s += n;
	}
	if (*s != '\0' && o + 4 < len) {
		memcpy(buf + o, "\u2026", 3);
		o += 3;
	}
	buf[o] = '\0';
}

static int
measure(const struct front *f, const struct draft *d, const char *text,
    struct text_measure *m, struct error *err)
{
	if (legal_text(f, text, m) == LEGAL_BAD_TEXT)
		return error_set(err, EXIT_ERROR, "draft %s: text is not valid "
		    "UTF-8", d->id);
	return 0;
}

/* Caps that a front sets on links and hashtags, as a note for humans. */
static void
cap_note(const struct limits *l, const struct text_measure *m, char *buf,
    size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (legal_over_links(l, m))
		o += snprintf(buf + o, len - o, "  %d links > %d", m->links,
		    l->max_links);
	if (o < len && legal_over_hashtags(l, m))
		snprintf(buf + o, len - o, "  %d hashtags > %d", m->hashtags,
		    l->max_hashtags);
}

/* One part's line: the front's id on the first, "part N" after it. */
static void
print_part(const struct front *f, int part, const struct text_measure *m)
{
	char note[128], len[48], who[32];

	cap_note(&f->limits, m, note, sizeof note);
	snprintf(len, sizeof len, "%d / %d %s", m->length, m->limit,
	    text_unit_name(m->unit));
	if (part == 0)
		snprintf(who, sizeof who, "%s", f->id);
	else
		snprintf(who, sizeof who, "  part %d", part + 1);
	if (m->ok)
		termsafe_fprintf(stdout, "    %-12s %-24s ok%s\n", who, len, note);
	else if (m->length > m->limit)
		termsafe_fprintf(stdout, "    %-12s %-24s OVER by %d%s\n", who,
		    len, m->length - m->limit, note);
	else
		termsafe_fprintf(stdout, "    %-12s %-24s OVER: %d / %d bytes%s\n",
		    who, len, m->bytes, m->byte_limit, note);
}

/* "image media/a.png (PNG 1200×800, 84211 bytes), alt: …: ok". */
static void
print_image(const struct front *f, const struct media *m)
{
	static const char *types[IMAGE_NTYPES] = { "?", "JPEG", "PNG", "GIF",
	    "WebP" };
	const struct image_facts *x = &m->facts;
	enum legal_verdict v;
	char why[256], facts[80], alt[256];

	v = legal_image(f, m, why, sizeof why);
	if (m->alt != NULL)
		preview(m->alt, alt, sizeof alt);
	if (x->probed && x->problem == NULL)
		snprintf(facts, sizeof facts, " (%s %d×%d, %ld bytes)",
		    types[(unsigned)x->type < IMAGE_NTYPES ? x->type : 0],
		    x->width, x->height, x->bytes);
	else
		facts[0] = '\0';
	termsafe_fprintf(stdout, "        image %s%s, %s%s%s: %s%s%s\n", m->path,
	    facts, m->alt != NULL ? "alt \"" : "no alt text",
	    m->alt != NULL ? alt : "", m->alt != NULL ? "\"" : "",
	    v == LEGAL_OK ? "ok" : "ILLEGAL: ", v == LEGAL_OK ? "" : why, "");
}

static cJSON *
image_json(const struct front *f, const struct media *m)
{
	cJSON *o = cJSON_CreateObject();
	enum legal_verdict v;
	char why[256];

	v = legal_image(f, m, why, sizeof why);
	cJSON_AddStringToObject(o, "path", m->path);
	if (m->alt != NULL)
		cJSON_AddStringToObject(o, "alt", m->alt);
	else
		cJSON_AddNullToObject(o, "alt");
	if (m->facts.probed && m->facts.problem == NULL) {
		cJSON_AddNumberToObject(o, "bytes", (double)m->facts.bytes);
		cJSON_AddNumberToObject(o, "width", m->facts.width);
		cJSON_AddNumberToObject(o, "height", m->facts.height);
	}
	cJSON_AddStringToObject(o, "verdict", legal_verdict_name(v));
	if (v != LEGAL_OK)
		cJSON_AddStringToObject(o, "why", why);
	return o;
}

static void
measure_json(cJSON *e, const struct front *f, const struct text_measure *m)
{
	cJSON_AddNumberToObject(e, "length", m->length);
	cJSON_AddNumberToObject(e, "limit", m->limit);
	cJSON_AddStringToObject(e, "unit", text_unit_name(m->unit));
	cJSON_AddBoolToObject(e, "ok", m->ok);
	cJSON_AddNumberToObject(e, "links", m->links);
	cJSON_AddNumberToObject(e, "hashtags", m->hashtags);
	cJSON_AddBoolToObject(e, "caps_ok",
	    legal_caps(&f->limits, m) == LEGAL_OK);
}

/* Every part and image of what front f gets of draft d: printed, or
 * into e (the first part's measure at the top, as ever). */
static int
front_report(const struct project *p, int d, int f, cJSON *e,
    enum legal_verdict *verdict, struct error *err)
{
	const struct front *fr = &p->fronts[f];
	const struct body *b = project_draft_body(p, d, f);
	int vi = project_draft_variant(p, d, f), i, j;
	struct text_measure m;
	cJSON *parts = NULL, *pe, *ims;
	char why[256];

	*verdict = legal_body(fr, b, why, sizeof why);
	if (e != NULL) {
		cJSON_AddStringToObject(e, "verdict", legal_verdict_name(*verdict));
		cJSON_AddStringToObject(e, "why", why);
		if (vi >= 0)
			cJSON_AddStringToObject(e, "variant",
			    p->drafts[d].variants[vi].key);
		else
			cJSON_AddNullToObject(e, "variant");
		parts = cJSON_AddArrayToObject(e, "parts");
	}
	for (i = 0; i < b->nparts; i++) {
		if (measure(fr, &p->drafts[d], b->parts[i].text, &m, err) != 0)
			return -1;
		if (e == NULL) {
			print_part(fr, i, &m);
			if (i == 0 && vi >= 0)
				termsafe_fprintf(stdout, "      (variant \"%s\")\n",
				    p->drafts[d].variants[vi].key);
			for (j = 0; j < b->parts[i].nmedia; j++)
				print_image(fr, &b->parts[i].media[j]);
			continue;
		}
		if (i == 0)
			measure_json(e, fr, &m);
		pe = cJSON_CreateObject();
		measure_json(pe, fr, &m);
		ims = cJSON_AddArrayToObject(pe, "images");
		for (j = 0; j < b->parts[i].nmedia; j++)
			cJSON_AddItemToArray(ims, image_json(fr,
			    &b->parts[i].media[j]));
		cJSON_AddItemToArray(parts, pe);
	}
	if (e == NULL && *verdict != LEGAL_OK && *verdict != LEGAL_TOO_LONG &&
	    *verdict != LEGAL_TOO_MANY_LINKS &&
	    *verdict != LEGAL_TOO_MANY_HASHTAGS)
		termsafe_fprintf(stdout, "      ILLEGAL here (%s): %s\n",
		    legal_verdict_name(*verdict), why);
	return 0;
}

/* The draft's window, in the project's zone, into o or printed. */
static void
window_report(const struct draft *d, cJSON *o)
{
	char w[100];

	if (!d->has_not_before && !d->has_not_after)
		return;
	if (o != NULL) {
		project_draft_window_json(cJSON_AddObjectToObject(o, "window"), d);
		return;
	}
	legal_window_text(d, w, sizeof w);
	printf("    window       %s\n", w);
}

/* Judges one draft on each of its fronts; prints or adds to json. */
static int
draft_report(const struct project *p, const struct draft *d, cJSON *json,
    struct drafts_tally *t, struct error *err)
{
	enum legal_verdict v;
	cJSON *o = NULL, *fa = NULL, *e = NULL;
	char pv[256];
	int f, nfronts = 0, nok = 0;

	if (json != NULL) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", d->id);
		cJSON_AddNumberToObject(o, "parts", d->body.nparts);
		window_report(d, o);
		fa = cJSON_AddArrayToObject(o, "fronts");
		cJSON_AddItemToArray(json, o);
	} else {
		preview(d->text, pv, sizeof pv);
		termsafe_fprintf(stdout, "%-*s  %s\n", t->id_width, d->id, pv);
		window_report(d, NULL);
	}
	for (f = 0; f < p->nfronts; f++) {
		if (!project_draft_allows(p, (int)(d - p->drafts), f))
			continue;
		if (fa != NULL) {
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "front", p->fronts[f].id);
			cJSON_AddItemToArray(fa, e);
		}
		if (front_report(p, (int)(d - p->drafts), f, e, &v, err) != 0)
			return -1;
		nfronts++;
		nok += v == LEGAL_OK;
	}
	if (nok < nfronts)
		t->over_some++;
	if (nfronts > 0 && nok == 0) {
		t->over_all++;
		if (t->first_over_all == NULL)
			t->first_over_all = d->id;
	}
	return 0;
}

static void
import_report(const char *file, const struct drafts_import *im, bool dry_run)
{
	int i;

	printf("%s%d draft%s from %s added to drafts.jsonl; %d already there, "
	    "%d rows without text\n", dry_run ? "dry run, nothing written: " :
	    "", im->added, im->added == 1 ? "" : "s", file, im->nexisting,
	    im->nskipped);
	for (i = 0; i < im->nexisting; i++)
		termsafe_fprintf(stdout, "  kept out: %s\n", im->existing[i]);
	for (i = 0; i < im->nskipped; i++)
		termsafe_fprintf(stdout, "  skipped: %s\n", im->skipped[i]);
}

/* `fronts drafts import FILE.csv --map text=COL[,…] [--dry-run]`. */
static int
drafts_import(struct cli *cli, struct args *a)
{
	struct drafts_csv_map map;
	struct drafts_import im;
	struct error err = { 0 };
	struct project *p = NULL;
	const char *file = args_arg(a, 0), *spec = args_string(a, "map");
	bool dry_run = args_has(a, "dry-run");
	char *data = NULL;
	size_t len;
	int rc = -1;

	/* The map cuts the spec, argv's own bytes, and points into it. */
	if (spec != NULL && drafts_csv_map_parse((char *)spec, &map) != 0)
		return cli_usage_error("drafts", "--map takes text=COL"
		    "[,id=COL][,topics=COL][,fronts=COL]"
		    "[,not_before=COL][,not_after=COL]");
	if (args_count(a) != 1 || spec == NULL)
		return cli_usage_error("drafts", "expected `import FILE.csv "
		    "--map text=COL[,…]`");
	if (project_load(cli->dir, &p, &err) != 0 ||
	    file_read(file, &data, &len, &err) != 0 ||
	    drafts_csv_read(p, file, data, len, &map, &im, &err) != 0)
		goto out;
	rc = 0;
	if (!dry_run && im.added > 0)
		rc = drafts_append(cli->dir, &im, &err);
	if (rc == 0)
		import_report(file, &im, dry_run);
	drafts_import_free(&im);
out:
	free(data);
	project_free(p);
	return rc == 0 ? EXIT_OK : cli_report("drafts", &err);
}

static int
cmd_drafts_exec(struct cli *cli, struct args *a)
{
	struct drafts_tally t = { 0, 0, NULL, 0 };
	struct error err = { 0 };
	struct project *p;
	cJSON *root = NULL, *arr = NULL;
	bool json = args_has(a, "json");
	char *out;
	int i, rc = EXIT_OK;

	if (project_load(cli->dir, &p, &err) != 0)
		return cli_report("drafts", &err);
	for (i = 0; i < p->nwarnings; i++)
		termsafe_fprintf(stderr, "fronts drafts: warning: %s\n",
		    p->warnings[i]);
	for (i = 0; i < p->ndrafts; i++)
		if ((int)strlen(p->drafts[i].id) > t.id_width &&
		    strlen(p->drafts[i].id) <= 16)
			t.id_width = (int)strlen(p->drafts[i].id);
	if (json) {
		root = cJSON_CreateObject();
		arr = cJSON_AddArrayToObject(root, "drafts");
	}
	for (i = 0; i < p->ndrafts; i++)
		if (draft_report(p, &p->drafts[i], arr, &t, &err) != 0) {
			rc = cli_report("drafts", &err);
			goto out;
		}
	if (json) {
		out = cJSON_PrintUnformatted(root);
		termsafe_json_puts(out, stdout);
		free(out);
	} else
		printf("\n%d drafts; %d illegal on some front, %d on every "
		    "front they may go to\n", p->ndrafts, t.over_some, t.over_all);
	if (t.over_all > 0) {
		fprintf(stderr, "fronts drafts: %d draft%s (%s%s) illegal on "
		    "every front %s may go to\n", t.over_all,
		    t.over_all == 1 ? "" : "s", t.first_over_all,
		    t.over_all > 1 ? ", …" : "", t.over_all == 1 ? "it" : "they");
		rc = EXIT_REFUSED;
	}
out:
	cJSON_Delete(root);
	project_free(p);
	return rc;
}

static const struct cmd_entry cmd_drafts_import_entry = {
	.name = "import",
	.options = (const struct args_option[]){
		{ .name = "map", .kind = ARGS_STRING,
		  .metavar = "text=COL,…",
		  .help = "the CSV's columns of each draft field" },
		{ .name = "dry-run", .kind = ARGS_FLAG,
		  .help = "report what would be added; write nothing" },
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = drafts_import,
};

const struct cmd_entry cmd_drafts_entry = {
	.name = "drafts",
	.summary = "each draft's parts, images and lengths per front, with "
	    "their verdicts",
	.usage = "[-C DIR] [--json]\n"
	    "       fronts drafts import FILE.csv --map text=COL[,id=COL]"
	    "[,topics=COL][,fronts=COL][,not_before=COL][,not_after=COL] "
	    "[-C DIR] [--dry-run]",
	.options = (const struct args_option[]){
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.exec = cmd_drafts_exec,
	.subcommands = (const struct cmd_entry *const[]){
		&cmd_drafts_import_entry, NULL
	},
	.details =
	    "drafts.jsonl, one draft per line:\n"
	    "  id, text (the first post), topics, fronts (default: all)\n"
	    "  thread      the posts after the first: each a text or\n"
	    "              {\"text\", \"media\"}\n"
	    "  media       images of the first post: [{\"path\", \"alt\"}], the path\n"
	    "              relative to the project directory and inside it\n"
	    "  variants    {\"FRONT-ID or PLATFORM\": \"text\" or {\"text\", \"thread\",\n"
	    "              \"media\"}}: what that front gets instead (whole; a\n"
	    "              front id wins over its platform)\n"
	    "  not_before, not_after   ISO-8601 with offset: posted only inside\n"
	    "\n"
	    "drafts import: each CSV row becomes a draft; topics and fronts\n"
	    "cells list items separated by , or ;. A bad row refuses the file\n"
	    "by line and column; ids already in drafts.jsonl are reported and\n"
	    "left out; a row without an id gets csv-HASH of its text.\n",
};
