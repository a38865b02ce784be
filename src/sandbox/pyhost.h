/*
 * pyhost — the process's one embedded CPython interpreter (a process-wide
 * singleton), configured in isolated mode: no site, no user site, no
 * PYTHON* environment, no current directory on the path.
 */
#ifndef FRONTS_PYHOST_H
#define FRONTS_PYHOST_H

#include "core/util.h"

/* Initialises the interpreter once; later calls return 0 at once. */
int	pyhost_init(struct error *err);
void	pyhost_fini(void);

#endif
