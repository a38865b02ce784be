/*
 * model — what every implementation of struct model_ops shares: the
 * wording of a model's error, the same whichever side of the sandbox
 * boundary it was raised on.
 */
#include <stdio.h>

#include "core/model.h"

void
model_error_format(const struct model_error *e, char *buf, size_t size)
{
	char where[96];

	if (e->line > 0)
		snprintf(where, sizeof where, "%s line %d, in %s",
		    MODEL_FILENAME, e->line, e->function);
	else
		snprintf(where, sizeof where, "in %s", e->function);
	snprintf(buf, size, "%s%s%s (%s)", e->type[0] ? e->type : "Error",
	    e->message[0] ? ": " : "", e->message, where);
}
