/*
 * job — a background job of the TUI: a thread, its progress line and its
 * outcome under the job's lock; the UI thread starts it, polls it on its
 * tick and joins it once it says it is done.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/ui_int.h"

void
ui_job_init(struct ui_job *j)
{
	memset(j, 0, sizeof *j);
	pthread_mutex_init(&j->lock, NULL);
}

int
ui_job_start(struct ui_job *j, void *(*fn)(void *), void *arg)
{
	pthread_mutex_lock(&j->lock);
	j->done = false;
	j->rc = 0;
	memset(&j->err, 0, sizeof j->err);
	j->progress[0] = '\0';
	pthread_mutex_unlock(&j->lock);
	if (pthread_create(&j->thread, NULL, fn, arg) != 0)
		return -1;
	j->running = true;
	return 0;
}

bool
ui_job_reap(struct ui_job *j)
{
	bool done;

	if (!j->running)
		return false;
	pthread_mutex_lock(&j->lock);
	done = j->done;
	pthread_mutex_unlock(&j->lock);
	if (!done)
		return false;
	pthread_join(j->thread, NULL);
	j->running = false;
	return true;
}

void
ui_job_progress(struct ui_job *j, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&j->lock);
	va_start(ap, fmt);
	vsnprintf(j->progress, sizeof j->progress, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&j->lock);
}

void
ui_job_finish(struct ui_job *j, int rc, const struct error *err)
{
	pthread_mutex_lock(&j->lock);
	j->rc = rc;
	if (err != NULL)
		j->err = *err;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
}
