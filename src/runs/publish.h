/*
 * publish — the publish flow shared by `fronts publish` and the TUI: what
 * each planned post would send, whether it may be sent now, and sending
 * one post as intent → request → outcome in the ledger.
 *
 * Nothing here asks the operator anything: callers show publish_describe()
 * and call publish_send() only after the operator pressed `y` for that
 * post. publish_send() re-reads the ledger and re-checks the post with the
 * legality engine against the project's history and every post the ledger
 * says was sent, right before the intent record, so nothing a caller holds
 * can be stale.
 *
 * A draft whose body is a thread is sent part by part, each part its own
 * ledger entry (intent, request, outcome) replying to the part before;
 * its images are read, checked and cleaned (core/media.h) before the
 * part's intent. A thread stopped between parts (a refusal, a crash)
 * continues at the first part not sent, replying to the last one that
 * was; part 1 is never sent again.
 */
#ifndef FRONTS_PUBLISH_H
#define FRONTS_PUBLISH_H

#include <stdbool.h>
#include <time.h>

#include "core/ledger.h"
#include "core/lock.h"
#include "core/plan.h"
#include "core/project.h"
#include "core/text.h"
#include "core/util.h"
#include "net/channel.h"

enum publish_status {
	PUBLISH_READY,		/* may be sent now */
	PUBLISH_FUTURE,		/* planned for later (offered with --now) */
	PUBLISH_SENT,		/* the ledger says it went out */
	PUBLISH_UNRESOLVED,	/* the ledger holds an unsettled attempt */
	PUBLISH_REFUSED		/* illegal now, or cannot be built */
};

struct publish_item {
	const struct plan_post	*post;
	const struct front	*front;
	char			 entry[LEDGER_ID_LEN];
	struct text_measure	 measure;
	enum publish_status	 status;
	char			 why[512];	/* for SENT, UNRESOLVED, REFUSED */
	int			 nparts;	/* of the body the front gets */
	int			 next_part;	/* 0-based: the first not sent */
};

struct publish {
	const struct project	*project;
	const struct plan	*plan;
	char			 plan_id[65];
	struct ledger		 ledger;
	long			 timeout_ms;	/* per request; 0: http's default */
	/* The project lock publish_send() holds from its ledger check through
	 * the recorded outcome: who it says holds it, and whether a second
	 * publisher waits for it (lock_waiting told first) or is refused. */
	const char		*lock_command;	/* NULL: "fronts publish" */
	bool			 lock_wait;
	project_lock_wait_fn	 lock_waiting;
	void			*lock_arg;
};

int	publish_open(struct publish *, const struct project *,
	    const struct plan *, long timeout_ms, struct error *err);
void	publish_close(struct publish *);

/* Where post i stands at time now. future: offer posts planned later. */
void	publish_assess(struct publish *, int i, time_t now, bool future,
	    struct publish_item *out);
/* Is post i a thread begun and not finished (part 1 sent, a later part
 * not attempted or failed), which a later run goes on with? */
bool	publish_resumable(const struct publish *, int i);
/* When the rest of post i, a thread begun, can no longer go: the end of
 * its slot's window (run_end) or, when sooner, the moment after its
 * draft's not_after. */
time_t	publish_thread_closes(const struct publish *, int i, time_t run_end);
/* Post i, a thread begun whose window closed at closed (from
 * publish_thread_closes): msg says which parts will not be sent and why;
 * live, the first of them is recorded as skipped with that reason, so no
 * run offers the rest again and `fronts ledger` shows it. */
int	publish_thread_close(struct publish *, int i, time_t closed,
	    bool live, time_t now, char *msg, size_t len, struct error *err);
/* The exact request(s) post i sends, secrets as ***. */
char	*publish_describe(struct publish *, int i, time_t now,
	    struct error *err);
/* publish_send's answer when the request went out but its outcome could
 * not be written: the ledger still holds the intent, which reads as
 * unknown, so the post may be live and is never offered again until the
 * operator settles it. */
#define PUBLISH_UNRECORDED	1

/* Sends post i now: takes the project lock (lock.h), re-reads the ledger,
 * re-checks legality, appends the
 * intent (synced), sends once, appends the outcome (synced), and notes the
 * attempt in the trajectory file, then releases the lock. -1 with err when
 * it refused before the intent (nothing was sent; another holder of the
 * lock is such a refusal, EXIT_ERROR); 0 with *out otherwise (sent, failed or
 * unknown); PUBLISH_UNRECORDED with *out (what the platform answered) and
 * err (why the ledger write failed). *out is the caller's to free
 * whenever the answer is not -1. */
int	publish_send(struct publish *, int i, time_t now, bool future,
	    struct channel_result *out, struct error *err);

#endif
