/*
 * demo — the bundled demo project (fixtures/demo, embedded by demo_data.S) and
 * scaffolding a new project directory from it, or an empty one
 * (fixtures/empty: one example front, no history, drafts or model, and a
 * README.txt saying what goes where).
 */
#ifndef FRONTS_DEMO_H
#define FRONTS_DEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

/* Writes every demo file (empty: every file of the empty project) into dir (created if missing). Refuses
 * when any of them already exists there, and never overwrites one: a file
 * that appears meanwhile stops the scaffold, and what was written is
 * removed again. */
int	demo_scaffold(const char *dir, bool empty, struct error *err);

#endif
