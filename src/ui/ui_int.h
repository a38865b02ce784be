/*
 * ui_int — what the TUI's files share (ui.h is the public entry point).
 * One struct ui is the process-wide UI singleton (ui.c); the screen is a
 * function of it (draw.c). Each pane is a small object with a draw and a
 * key handler that returns result flags (pane_*.c); the model and the plan
 * shown have their own state files, and the status line, the dialog (a
 * part of struct ui, never a loop of its own) and the readline command
 * line have their own files.
 *
 * Only the UI thread touches curses and this struct, except the fields
 * under a job's own lock (struct ui_job): background work (planner
 * waiter, synthesis, publishing) reports there and the UI thread picks the
 * result up on its next tick. The planner is seen only through
 * planner_snapshot().
 */
#ifndef FRONTS_UI_UI_INT_H
#define FRONTS_UI_UI_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <curses.h>

#include "core/plan.h"
#include "runs/conform.h"
#include "runs/planner.h"
#include "core/project.h"
#include "core/search.h"
#include "sandbox/gate.h"
#include "ui/layout.h"
#include "ui/theme.h"
#include "ui/ui.h"

struct ui;

/*
 * What a pane's key handler did, as flags for the event loop to act on
 * (the pane changes only itself): PANE_IGNORED lets the key fall through
 * to the global bindings.
 */
enum pane_result {
	PANE_IGNORED	= 0,
	PANE_HANDLED	= 1 << 0,	/* the key was the pane's */
	PANE_REDRAW	= 1 << 1,	/* its content changed */
	PANE_MESSAGE	= 1 << 2,	/* out->msg goes on the status line */
	PANE_ACT	= 1 << 3,	/* the loop calls the pane's act hook */
};

struct pane_out {
	int	role;			/* THEME_* */
	char	msg[256];
};

struct pane {
	enum pane_id	 id;
	const char	*title;
	const char	*hint;		/* keys shown in the frame when focused */
	bool		 selectable;	/* rows have a cursor (else: scroll) */
	int		 top;		/* first visible row */
	int		 sel;		/* selected row */
	int		 nrows;		/* rows at the last draw */
	int		 page;		/* visible rows at the last draw */
	bool		 expanded;	/* Search: the PV unfolds */
	void		(*draw)(struct ui *, struct pane *, WINDOW *, int h,
			    int w);
	/* Pane-specific keys: enum pane_result flags. */
	unsigned	(*key)(const struct ui *, struct pane *, int ch,
			    struct pane_out *out);
	void		*data;		/* a view's own state */
	void		(*close)(struct pane *);	/* frees data */
	/* What a key asked of the whole UI (PANE_ACT), such as planning
	 * again: a key handler sees the UI read-only. */
	void		(*act)(struct ui *, struct pane *);
};

/* A background job: a thread, its progress line and its outcome. */
struct ui_job {
	pthread_mutex_t	 lock;
	pthread_t	 thread;
	bool		 running;	/* thread started, not yet joined */
	bool		 done;		/* set by the thread as it ends */
	char		 progress[256];
	int		 rc;
	struct error	 err;
};

enum ui_post_state { UI_POST_NEW, UI_POST_SENDING, UI_POST_SENT,
	UI_POST_FAILED, UI_POST_UNKNOWN, UI_POST_DRYRUN, UI_POST_SKIPPED };

struct ui_post {
	enum ui_post_state	 state;
	char			 note[256];	/* sent id, failure reason… */
};

/*
 * dialog.c: the modal box, a part of struct ui. What a question is about
 * is captured when it opens: background work keeps running under it (a
 * synthesis can load a new model, the planner can hand over a new plan),
 * so a `y` runs its action only if the model, or the plan and post it
 * showed, are still the ones on screen; otherwise the dialog closes with
 * a status message saying what changed and that nothing was done.
 */
enum dialog_subject { DIALOG_NONE, DIALOG_MODEL, DIALOG_POST };
struct dialog_bind {
	enum dialog_subject	 subject;
	char			 sha[65];	/* "" if no model */
	unsigned		 plan_gen;
	int			 post;		/* in the plan */
	bool			 have_post;	/* post < nposts */
};

enum modal_kind { MODAL_NONE, MODAL_HELP, MODAL_QUIT, MODAL_APPROVE,
	MODAL_PUBLISH };

/* The footer of a question only y answers yes. */
#define DIALOG_YES_NO	"y: yes   any other key: no"

/* What a kind of dialog does with its answer; ctx is the opener's. */
struct modal_ops {
	enum modal_kind		 kind;
	enum dialog_subject	 subject;
	const char		*footer;
	const char		*refused;	/* stale: "nothing <refused>" */
	void			(*yes)(struct ui *, void *ctx);
	void			(*no)(struct ui *, void *ctx);
	void			(*free)(void *ctx);
};

struct modal {
	const struct modal_ops	*ops;		/* NULL: no dialog open */
	const char		*title;
	char			*body;		/* owned */
	void			*ctx;
	struct dialog_bind	 bind;
	int			 top;		/* first body line shown */
	int			 nlines;	/* body lines at the last draw */
	int			 inner;		/* of them visible */
};

struct pubjob;
struct runmode;

struct ui {
	char			*dir;
	struct project		*proj;
	bool			 live;
	/* screen */
	struct theme		 theme;
	attr_t			 attr[THEME_COUNT];
	int			 ncolors;	/* 0: attributes only */
	struct layout		 layout;
	WINDOW			*win[PANE_COUNT];
	WINDOW			*status;
	struct pane		 panes[PANE_COUNT];
	struct pane		 view;		/* shown when view_open */
	bool			 view_open;
	WINDOW			*view_win;
	int			 focus;
	bool			 zoom;
	bool			 show_alt;	/* i: images' alt text shown */
	bool			 dirty;
	bool			 quit;
	char			 msg[512];
	int			 msg_role;
	struct modal		 modal;		/* the open dialog, if any */
	/* model */
	char			*model_path;
	char			*model_src;
	size_t			 model_len;
	char			 model_sha[65];
	bool			 gate_ran;
	struct gate_result	 gate;
	char			 gate_error[512];
	bool			 approved;
	struct conform		 conform;	/* its checks, by sha256 */
	bool			 plan_pending;	/* plan once they pass */
	/* planner */
	struct search_params	 params;
	struct planner		*planner;
	struct ui_job		 plan_job;	/* waits for the planner's end */
	struct plan		 job_plan;	/* filled by plan_job */
	struct search_snapshot	*snap;
	bool			 have_snap;
	/* the plan shown and published (edits go here) */
	struct plan		 plan;
	bool			 have_plan;
	bool			 plan_unsaved;	/* planned or edited here, not
						 * yet written (:write) */
	unsigned		 plan_gen;	/* bumped by ui_set_plan */
	struct ui_post		*posts;
	/* synthesis and publishing */
	struct ui_job		 synth_job;
	/* The synthesis thread's own project (loaded on the UI thread) and
	 * the flag that stops it when the TUI quits. */
	struct project		*synth_proj;
	atomic_bool		 synth_cancel;
	char			 synth_seen[256];	/* progress last drawn */
	bool			 synth_builtin;	/* :synth builtin */
	struct ui_job		 pub_job;	/* preparing or sending */
	struct pubjob		*pub_prep;	/* being prepared, or NULL */
	int			 pub_post;	/* index being published */
	unsigned		 pub_gen;	/* of the plan it belongs to */
	struct ui_post		 pub_result;
	struct ui_accuracy	*accuracy;	/* view_accuracy.c */
	/* run mode (runmode.c) */
	struct runmode		*run;		/* NULL: off */
	const char		*notify;	/* --notify CMD, or NULL */
};

/* draw.c */
void	ui_message(struct ui *, int role, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Draws s (n bytes) at (y, x) clipped to maxw cells; returns cells used. */
int	ui_put(struct ui *, WINDOW *, int y, int x, int maxw, const char *s,
	    size_t n, int role);
int	ui_putf(struct ui *, WINDOW *, int y, int x, int maxw, int role,
	    const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Fills a row of w with the role's background from x on. */
void	ui_fill(struct ui *, WINDOW *, int y, int x, int width, int role);
void	ui_redraw(struct ui *);
/* Recomputes the layout and windows (after a resize, focus or zoom). */
void	ui_relayout(struct ui *);
/* Keeps p->top/p->sel inside the rows after a draw. */
void	ui_pane_clamp(struct pane *);

/* term.c */
void	ui_term_start(struct ui *);
void	ui_term_end(struct ui *);
/* Whether curses is on (off in unit tests: no windows, no drawing). */
bool	ui_term_on(void);
int	ui_set_theme(struct ui *, const char *name, struct error *err);

/* keys.c: one key from the event loop (fn: a curses key code). */
void	ui_key(struct ui *, int ch, bool fn);

/*
 * views.c: a full-screen view over the four panes. To add one, say
 * `:history`:
 *  1. src/ui/view_history.c defines
 *	int view_history_open(struct ui *, struct pane *v);
 *     which fills v's title, hint, draw and key (the key handler returns
 *     enum pane_result flags and changes only v) and, if the view holds
 *     state, v->data and v->close; it returns 0, or -1 after ui_message()
 *     says why it cannot open (v->close, if set, is still called).
 *  2. Declare it in this header, after ui_view_close().
 *  3. Add { "history", "", NULL, view_history_open } to cmdline.c's
 *     table and a line to the help text in dialog.c.
 * Esc and q close the view; scroll keys, `:`, `?` and ^L work inside it.
 */
int	ui_view_open(struct ui *, int (*open)(struct ui *, struct pane *));
void	ui_view_close(struct ui *);
int	view_accuracy_open(struct ui *, struct pane *v);

/* view_accuracy.c: the shown model's backtest, from the synthesis report
 * that validated its bytes, or measured in a worker once approved. */
void	ui_accuracy_model(struct ui *);	/* after the model or approval changed */
bool	ui_accuracy_poll(struct ui *);
/* The conformance checks are wanted (a plan waits for them). */
void	ui_accuracy_want(struct ui *);
void	ui_accuracy_free(struct ui *);
/* The Model pane's line about it, and its theme role. */
const char *ui_accuracy_line(struct ui *, char *buf, size_t len, int *role);
/* view_history.c: `:history`, history.jsonl per front. */
int	view_history_open(struct ui *, struct pane *v);
/* view_calendar.c: `:calendar`, the plan day by front with a cursor; its
 * edits write pins.jsonl and plan again around them. */
int	view_calendar_open(struct ui *, struct pane *v);

/* model_state.c */
/* Loads (or reloads) the model file, gates it and checks its approval. */
void	ui_load_model(struct ui *, const char *path);
void	ui_model_clear(struct ui *);
/* a: asks to approve the model shown (a dialog bound to its sha). */
void	ui_approve(struct ui *);

/* plan_state.c */
void	ui_plan_start(struct ui *);
void	ui_plan_stop(struct ui *);
/* Polls the planner's snapshot and result; true if anything moved. */
bool	ui_plan_poll(struct ui *);
void	ui_set_plan(struct ui *, struct plan *);	/* takes the plan */

/* work.c and pubjob.c: background jobs other than the planner. */
bool	ui_jobs_poll(struct ui *);
void	ui_jobs_shutdown(struct ui *);
/* `fronts synth` in the background (builtin: --provider builtin). */
void	ui_synth_start(struct ui *, bool builtin);
bool	pubjob_poll(struct ui *);
void	pubjob_shutdown(struct ui *);
/* Opens the publish dialog for post `post` of the current plan: y marks
 * it (dry run, job NULL) or hands job to a thread (live); takes both. */
void	pubjob_ask(struct ui *, int post, struct pubjob *, char *body);

/* runmode.c: R or `:run` — each post offered when its slot comes. */
int	runmode_start(struct ui *);
void	runmode_stop(struct ui *);
/* Opens the dialog of a post that came due; true if anything moved. */
bool	runmode_poll(struct ui *);
/* The status line's run text ("RUN: next d4 on x …"), or NULL when off. */
const char *runmode_line(const struct ui *);

/* pane_*.c */
void	pane_rules_init(struct pane *);
void	pane_model_init(struct pane *);
void	pane_search_init(struct pane *);
void	pane_candidates_init(struct pane *);
void	pane_candidates_edit(struct ui *);
void	pane_candidates_publish(struct ui *);

/* statusline.c */
void	statusline_draw(struct ui *, WINDOW *, int w);

/* dialog.c */
void	dialog_bind(const struct ui *, enum dialog_subject, int post,
	    struct dialog_bind *);
/* NULL when now still holds what shown captured; else what changed. */
const char *dialog_bind_changed(const struct dialog_bind *shown,
	    const struct dialog_bind *now);
/* Opens a dialog (closing any open one) bound to ops->subject and, for a
 * post, to post `post` of the current plan; takes body and ctx. */
void	dialog_open(struct ui *, const struct modal_ops *, int post,
	    const char *title, char *body, void *ctx);
/* Closes the open dialog, if any, without an answer. */
void	dialog_close(struct ui *);
enum modal_kind dialog_kind(const struct ui *);
void	dialog_draw(struct ui *);
/* A key while a dialog is open: scrolls it or answers it. */
void	dialog_key(struct ui *, int ch, bool fn);
void	dialog_help(struct ui *);

/* cmdline.c: readline outside curses mode. */
void	cmdline_init(void);
void	cmdline_end(void);
/* Reads a line with prompt, prefilled with initial (may be NULL);
 * returns NULL on EOF/cancel (caller frees). */
char	*cmdline_read(struct ui *, const char *prompt, const char *initial,
	    bool history);
/* cmdline_read for a post's text on front f: the prompt shows the
 * line's length as f's platform counts it, live ("edit> (x 149/280) ").
 * *move (may be NULL) says how the line ended: CMDLINE_NEXT (Enter,
 * PgDn) or CMDLINE_PREV (PgUp), for editing a thread part by part. */
#define CMDLINE_PREV	(-1)
#define CMDLINE_NEXT	1
char	*cmdline_read_counted(struct ui *, const char *prompt,
	    const char *initial, const struct front *f, int *move);
/* `:` — reads and runs one command. */
void	cmdline_command(struct ui *);
/* Runs one command line (without the ':'); used by tests of the parser
 * too. Returns 0 or -1 with a message set. */
int	cmdline_run(struct ui *, const char *line);

/* job.c */
void	ui_job_init(struct ui_job *);
int	ui_job_start(struct ui_job *, void *(*fn)(void *), void *arg);
/* Joins a finished job; true if it was done (and is now joined). */
bool	ui_job_reap(struct ui_job *);
void	ui_job_progress(struct ui_job *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	ui_job_finish(struct ui_job *, int rc, const struct error *err);

#endif
