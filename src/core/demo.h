/*
 * demo — the bundled demo project (fixtures/demo, embedded by demo_data.S) and
 * scaffolding a new project directory from it.
 */
#ifndef FRONTS_DEMO_H
#define FRONTS_DEMO_H

#include <stddef.h>

#include "core/util.h"

/* Writes every demo file into dir (created if missing). Refuses
 * when any of them already exists there, and never overwrites one: a file
 * that appears meanwhile stops the scaffold, and what was written is
 * removed again. */
int	demo_scaffold(const char *dir, struct error *err);

#endif
