/*
 * ledger — the publish ledger, .fronts/ledger.jsonl: an append-only record
 * of every live publish attempt, written so that a crash at any moment
 * leaves enough behind never to post twice.
 *
 * Every attempt appends an `intent` record (synced) before any request
 * leaves the machine, and one outcome record (synced) after: `sent`,
 * `failed` or `unknown`. The operator settles an `unknown` with a `settle`
 * record. An intent with no outcome (a crash in between) reads as unknown.
 * No key or token is ever part of a record; the post's text is kept only
 * as its sha256.
 *
 * Each line is one JSON object and nothing else, ending in the record's
 * checksum, "sum": 16 hex digits of the sha256 of the line without it
 * (the `,"sum":"…"` before the closing brace). A line with text after its
 * JSON, a checksum that does not match, or none after a line that had
 * one is damage, reported by file and line; lines written before records
 * carried checksums (none before them had one) are read as they are.
 *
 * An entry is one post of one plan (plan id, slot, front, draft, text);
 * its id is derived from those, so re-running the same plan finds the same
 * entries, and the idempotency key a platform sees is the same for every
 * attempt at that post.
 *
 * A thread is one entry per part: its intent says "part" (1-based) of
 * "parts"; part 1's entry id is the one a single post of that draft
 * would have, part k's is derived with "DRAFT#k" in the draft's place.
 * An outcome may carry the post's "cid" (Bluesky's content hash, which a
 * reply names with its uri), so a later run can reply to a part sent by
 * an earlier one.
 *
 * `fronts run` also writes `skipped` records: a post it will never send,
 * with the reason ("late": its window closed unsent; "operator": the
 * operator skipped it for good). A skipped entry takes no intent.
 */
#ifndef FRONTS_LEDGER_H
#define FRONTS_LEDGER_H

#include <stdbool.h>
#include <time.h>

#include "core/util.h"

#define LEDGER_ID_LEN	18	/* "e" + 16 hex digits + NUL */
#define LEDGER_SUM_LEN	16	/* hex digits of a line's checksum */

enum ledger_state {
	LEDGER_PENDING,		/* intent written, no outcome: reads as unknown */
	LEDGER_SENT,
	LEDGER_FAILED,
	LEDGER_UNKNOWN,
	LEDGER_SKIPPED		/* never sent: `fronts run` passed it by */
};

struct ledger_entry {
	char		 id[LEDGER_ID_LEN];
	char		*plan;		/* plan id */
	int		 slot;
	char		*front;		/* front id */
	char		*draft;		/* draft id */
	char		 text_sha256[65];
	char		*channel;	/* "composio/TOOL", "mastodon", "bluesky" */
	char		*key;		/* idempotency key / record key sent */
	time_t		 at;		/* planned time */
	time_t		 attempted;	/* time of the latest intent */
	int		 attempts;	/* intent records so far */
	enum ledger_state state;
	bool		 settled;	/* the state came from the operator */
	char		*post_id;	/* sent: the platform's id, if known */
	char		*cid;		/* sent on Bluesky: the record's cid */
	char		*url;		/* sent: the post's URL, if known */
	int		 part;		/* of a thread, 1-based; 0: a post */
	int		 nparts;	/* of a thread; 0: a post */
	char		*reason;	/* failed / unknown: why */
	bool		 edited;	/* the text sent was edited from the draft's */
	int		 line;		/* line of the entry's latest record */
};

struct ledger {
	char			*path;		/* DIR/.fronts/ledger.jsonl */
	char			*dir;		/* the project's */
	struct ledger_entry	*entries;	/* in order of first intent */
	int			 nentries;
	char			**problems;	/* "path:line: message" */
	int			 nproblems;
	int			 nlines;	/* lines read or appended */
	bool			 sealed;	/* a line with a checksum was read */
	int			 nunsealed;	/* older lines read without one */
};

/* What the caller knows before a request. */
struct ledger_intent {
	const char	*plan;
	int		 slot;
	const char	*front;
	const char	*draft;
	const char	*text;		/* hashed, never stored */
	const char	*channel;
	const char	*key;		/* NULL: derived from the entry id */
	time_t		 at;
	time_t		 now;
	bool		 edited;	/* the text is not the draft's */
	int		 part, nparts;	/* a thread's part k (1-based) of n;
					   0, 0: a post on its own */
};

/* A post the ledger says went out, for the legality engine's history. */
struct ledger_sent {
	const char	*front;		/* borrowed from the entry */
	const char	*draft;
	time_t		 at;		/* when it was sent (time of its intent) */
};

/* Reads DIR/.fronts/ledger.jsonl (missing: empty). Malformed lines do not
 * fail the read; they are listed in problems, by file and line, and the
 * caller refuses to write after them. -1 only on an I/O error. */
int	ledger_open(const char *project_dir, struct ledger *out,
	    struct error *err);
void	ledger_free(struct ledger *);

/* The entry id of a post: "e" + 16 hex digits of a sha256 over the plan id,
 * slot, front, draft and the text's sha256. */
void	ledger_entry_id(const char *plan, int slot, const char *front,
	    const char *draft, const char *text, char out[LEDGER_ID_LEN]);
/* The entry id of part (1-based) of a thread; part 0 or 1: the draft's
 * own, as ledger_entry_id(). */
void	ledger_part_id(const char *plan, int slot, const char *front,
	    const char *draft, int part, const char *text,
	    char out[LEDGER_ID_LEN]);
struct ledger_entry *ledger_find(const struct ledger *, const char *id);

/* Appends an intent (synced) and returns its entry in *out. Refuses while
 * the ledger has problems, or when the entry is sent or unresolved. */
int	ledger_intent(struct ledger *, const struct ledger_intent *,
	    struct ledger_entry **out, struct error *err);
/* Appends the outcome of the entry's latest attempt (synced). state is
 * LEDGER_SENT (post_id/url may be NULL), LEDGER_FAILED or LEDGER_UNKNOWN
 * (with reason). */
int	ledger_outcome(struct ledger *, struct ledger_entry *,
	    enum ledger_state state, const char *post_id, const char *url,
	    const char *reason, time_t now, struct error *err);
/* The same with the post's cid (NULL: none). */
int	ledger_outcome_cid(struct ledger *, struct ledger_entry *,
	    enum ledger_state state, const char *post_id, const char *cid,
	    const char *url, const char *reason, time_t now,
	    struct error *err);
/* The operator's word on an unresolved entry: sent (with url) or failed. */
int	ledger_settle(struct ledger *, struct ledger_entry *, bool sent,
	    const char *url, time_t now, struct error *err);

/* Records that post in (its text, channel and key unused) will never be
 * sent: a `skipped` record with reason (synced). Refuses an entry that has
 * an attempt already. */
int	ledger_skip(struct ledger *, const struct ledger_intent *in,
	    const char *reason, struct error *err);

/* Entries whose state is pending or unknown. */
int	ledger_unresolved(const struct ledger *);
/* Every sent entry (settled ones included), and with unresolved also every
 * entry whose outcome is unknown; a thread counts once, by its part 1; *out is the caller's to free, its strings
 * are borrowed from the ledger. Returns the count. */
int	ledger_sent_posts(const struct ledger *, bool unresolved,
	    struct ledger_sent **out);

const char *ledger_state_name(enum ledger_state);	/* "unknown" for pending */

#endif
