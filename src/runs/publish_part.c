/*
 * publish_part — the parts of a planned post (see publish_int.h): a
 * thread is sent as one channel call per part, each its own ledger
 * entry, every part after the first a reply to the part before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/media.h"
#include "core/timeutil.h"
#include "runs/publish_int.h"

const struct body *
publish_body(const struct publish *pub, int i)
{
	const struct plan_post *post = &pub->plan->posts[i];

	return project_draft_body(pub->project, post->draft, post->front);
}

const char *
publish_part_text(const struct publish *pub, int i, int k)
{
	return plan_post_part(pub->project, &pub->plan->posts[i], k);
}

void
publish_part_entry(const struct publish *pub, int i, int k,
    char out[LEDGER_ID_LEN])
{
	const struct project *p = pub->project;
	const struct plan_post *post = &pub->plan->posts[i];

	ledger_part_id(pub->plan_id, post->slot, p->fronts[post->front].id,
	    p->drafts[post->draft].id, k + 1, publish_part_text(pub, i, k),
	    out);
}

int
publish_parts_sent(const struct publish *pub, int i, int *stuck)
{
	const struct ledger_entry *e;
	char id[LEDGER_ID_LEN];
	int k, n = publish_body(pub, i)->nparts, sent = 0;

	*stuck = -1;
	for (k = 0; k < n; k++) {
		publish_part_entry(pub, i, k, id);
		e = ledger_find(&pub->ledger, id);
		if (e != NULL && (e->state == LEDGER_PENDING ||
		    e->state == LEDGER_UNKNOWN)) {
			*stuck = k;
			break;
		}
		if (e == NULL || e->state != LEDGER_SENT)
			break;
		sent++;
	}
	return sent;
}

void
publish_images_free(struct publish_images *imgs)
{
	int k;

	for (k = 0; k < imgs->n; k++)
		free(imgs->bytes[k]);
	memset(imgs, 0, sizeof *imgs);
}

/* Reads, checks and cleans every image of part k, by its path under the
 * project; the front's keep_metadata keeps EXIF and XMP. */
static int
publish_images_load(const struct publish *pub, int i, int k,
    struct publish_images *imgs, struct error *err)
{
	const struct part *pt = &publish_body(pub, i)->parts[k];
	const struct front *f = &pub->project->fronts[pub->plan->posts[i].front];
	struct media_info mi;
	size_t len;
	char *path;
	int m, rc;

	memset(imgs, 0, sizeof *imgs);
	if (pt->nmedia > CHANNEL_MAX_IMAGES)
		return error_set(err, EXIT_REFUSED, "part %d has %d images; "
		    "fronts uploads at most %d per post", k + 1, pt->nmedia,
		    CHANNEL_MAX_IMAGES);
	for (m = 0; m < pt->nmedia; m++) {
		path = path_join(pub->project->dir, pt->media[m].path);
		rc = media_load(path, f->keep_metadata, &mi, &imgs->bytes[m],
		    &len, err);
		free(path);
		if (rc != 0) {
			publish_images_free(imgs);
			return -1;
		}
		imgs->im[m] = (struct channel_image){ imgs->bytes[m], len,
		    mi.mime, pt->media[m].alt, mi.width, mi.height };
		imgs->n++;
	}
	return 0;
}

int
publish_part_open(struct publish *pub, int i, int k,
    const struct channel_reply *reply, time_t now,
    struct publish_images *imgs, struct channel_call *c, struct error *err)
{
	const struct plan_post *post = &pub->plan->posts[i];
	struct channel_post cp;
	char entry[LEDGER_ID_LEN];
	int rc;

	if (publish_images_load(pub, i, k, imgs, err) != 0)
		return -1;
	publish_part_entry(pub, i, k, entry);
	cp.text = publish_part_text(pub, i, k);
	cp.images = imgs->im;
	cp.nimages = imgs->n;
	cp.reply = reply;
	rc = channel_open_post(&pub->project->fronts[post->front], &cp, entry,
	    post->at, now, pub->timeout_ms, c, err);
	if (rc != 0)
		publish_images_free(imgs);
	return rc;
}

/* The reply part k of a dry run names: ids not known before the parts
 * before it are sent, shown as what they will be. */
static void
publish_dry_reply(int k, char buf[4][48], struct channel_reply *r)
{
	snprintf(buf[0], 48, "<id of part 1>");
	snprintf(buf[1], 48, "<cid of part 1>");
	snprintf(buf[2], 48, "<id of part %d>", k);
	snprintf(buf[3], 48, "<cid of part %d>", k);
	*r = (struct channel_reply){ buf[0], buf[1], buf[2], buf[3] };
}

char *
publish_parts_describe(struct publish *pub, int i, int from, time_t now,
    struct error *err)
{
	int k, n = publish_body(pub, i)->nparts;
	struct channel_reply r;
	struct publish_images imgs;
	struct channel_call c;
	char buf[4][48], *d, *out;
	size_t len;
	FILE *f = xmemstream(&out, &len);

	for (k = from; k < n; k++) {
		publish_dry_reply(k, buf, &r);
		if (publish_part_open(pub, i, k, k > 0 ? &r : NULL, now, &imgs,
		    &c, err) != 0) {
			fclose(f);
			free(out);
			return NULL;
		}
		d = channel_describe(&c);
		if (n > 1)
			fprintf(f, "%s-- part %d of %d%s\n", k > from ? "\n" : "",
			    k + 1, n, k > 0 ? ", a reply to the part before" :
			    "");
		fputs(d, f);
		free(d);
		channel_close(&c);
		publish_images_free(&imgs);
	}
	fclose(f);
	return out;
}

const struct ledger_entry *
publish_rest_skipped(const struct publish *pub, int i, int sent)
{
	const struct ledger_entry *e;
	char id[LEDGER_ID_LEN];

	if (sent <= 0 || sent >= publish_body(pub, i)->nparts)
		return NULL;
	publish_part_entry(pub, i, sent, id);
	e = ledger_find(&pub->ledger, id);
	return e != NULL && e->state == LEDGER_SKIPPED ? e : NULL;
}

time_t
publish_thread_closes(const struct publish *pub, int i, time_t run_end)
{
	const struct draft *d = &pub->project->drafts[pub->plan->posts[i].draft];

	return d->has_not_after && d->not_after < run_end ? d->not_after + 1 :
	    run_end;
}

int
publish_thread_close(struct publish *pub, int i, time_t closed, bool live,
    time_t now, char *msg, size_t len, struct error *err)
{
	const struct plan_post *post = &pub->plan->posts[i];
	const struct draft *d = &pub->project->drafts[post->draft];
	struct ledger_intent in;
	int stuck, n = publish_body(pub, i)->nparts;
	int sent = publish_parts_sent(pub, i, &stuck);
	bool draft = d->has_not_after && closed == d->not_after + 1;
	char at[40];

	/* The draft's not_after is the last moment inside (inclusive). */
	time_format_local(draft ? d->not_after : closed, at, sizeof at);
	snprintf(msg, len, "%s on %s: part%s %d%s%.0d of %d of the thread will "
	    "not be sent: %s closed at %s", d->id,
	    pub->project->fronts[post->front].id, sent + 1 < n ? "s" : "",
	    sent + 1, sent + 1 < n ? "-" : "", sent + 1 < n ? n : 0, n, draft ?
	    "the draft's window (not_after)" : "its window", at);
	if (!live)
		return 0;
	memset(&in, 0, sizeof in);
	in.plan = pub->plan_id;
	in.slot = post->slot;
	in.front = pub->project->fronts[post->front].id;
	in.draft = d->id;
	in.text = publish_part_text(pub, i, sent);
	in.at = post->at;
	in.now = now;
	in.part = sent + 1;
	in.nparts = n;
	return ledger_skip(&pub->ledger, &in, msg, err);
}
