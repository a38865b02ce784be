/*
 * cmd_drafts — `fronts drafts`: every draft's length on every front it may
 * go to, counted the way that platform counts, against that front's limit.
 * Exits 3 when a draft fits none of its fronts: it can never be posted.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "cli/cli.h"
#include "core/legal.h"
#include "core/project.h"
#include "core/text.h"
#include "core/termsafe.h"

#define PREVIEW_COLUMNS 60

struct drafts_tally {
	int	over_some;	/* drafts over the limit on at least one front */
	int	over_all;	/* drafts over the limit on every front */
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
measure(const struct project *p, const struct draft *d, int f,
    struct text_measure *m, struct error *err)
{
	if (legal_text(&p->fronts[f], d->text, m) == LEGAL_BAD_TEXT)
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

static void
print_front(const struct project *p, int f, const struct text_measure *m)
{
	char note[128], len[48];

	cap_note(&p->fronts[f].limits, m, note, sizeof note);
	snprintf(len, sizeof len, "%d / %d %s", m->length, m->limit,
	    text_unit_name(m->unit));
	if (m->ok)
		printf("    %-12s %-24s ok%s\n", p->fronts[f].id, len, note);
	else if (m->length > m->limit)
		printf("    %-12s %-24s OVER by %d%s\n", p->fronts[f].id, len,
		    m->length - m->limit, note);
	else
		printf("    %-12s %-24s OVER: %d / %d bytes%s\n",
		    p->fronts[f].id, len, m->bytes, m->byte_limit, note);
}

/* Measures one draft on each of its fronts; prints or adds to json. */
static int
draft_report(const struct project *p, const struct draft *d, cJSON *json,
    struct drafts_tally *t, struct error *err)
{
	struct text_measure m;
	cJSON *o = NULL, *fa = NULL, *e;
	char pv[256];
	int f, nfronts = 0, nok = 0;

	if (json != NULL) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", d->id);
		fa = cJSON_AddArrayToObject(o, "fronts");
		cJSON_AddItemToArray(json, o);
	} else {
		preview(d->text, pv, sizeof pv);
		termsafe_fprintf(stdout, "%-*s  %s\n", t->id_width, d->id, pv);
	}
	for (f = 0; f < p->nfronts; f++) {
		if (!project_draft_allows(p, (int)(d - p->drafts), f))
			continue;
		if (measure(p, d, f, &m, err) != 0)
			return -1;
		nfronts++;
		nok += m.ok;
		if (fa == NULL) {
			print_front(p, f, &m);
			continue;
		}
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "front", p->fronts[f].id);
		cJSON_AddNumberToObject(e, "length", m.length);
		cJSON_AddNumberToObject(e, "limit", m.limit);
		cJSON_AddStringToObject(e, "unit", text_unit_name(m.unit));
		cJSON_AddBoolToObject(e, "ok", m.ok);
		cJSON_AddNumberToObject(e, "links", m.links);
		cJSON_AddNumberToObject(e, "hashtags", m.hashtags);
		cJSON_AddBoolToObject(e, "caps_ok",
		    legal_caps(&p->fronts[f].limits, &m) == LEGAL_OK);
		cJSON_AddItemToArray(fa, e);
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

static int
drafts_usage(const char *opt)
{
	return cli_usage_error("drafts", "unknown option %s", opt);
}

static int
cmd_drafts_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct drafts_tally t = { 0, 0, NULL, 0 };
	struct error err = { 0 };
	struct project *p;
	cJSON *root = NULL, *arr = NULL;
	bool json = false;
	char *out;
	int c, i, rc = EXIT_OK;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+C:", opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'C')
			cli->dir = optarg;
		else
			return drafts_usage(argv[optind - 1]);
	}
	if (optind < argc)
		return cli_usage_error("drafts", "unexpected argument %s",
		    argv[optind]);
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
		printf("\n%d drafts; %d over the limit on some front, %d on every "
		    "front they may go to\n", p->ndrafts, t.over_some, t.over_all);
	if (t.over_all > 0) {
		fprintf(stderr, "fronts drafts: %d draft%s (%s%s) over the limit "
		    "on every front %s may go to\n", t.over_all,
		    t.over_all == 1 ? "" : "s", t.first_over_all,
		    t.over_all > 1 ? ", …" : "", t.over_all == 1 ? "it" : "they");
		rc = EXIT_REFUSED;
	}
out:
	cJSON_Delete(root);
	project_free(p);
	return rc;
}

const struct cmd_entry cmd_drafts_entry = {
	.name = "drafts",
	.summary = "each draft's length per front against its limit",
	.usage = "[-C DIR] [--json]",
	.exec = cmd_drafts_exec,
};
