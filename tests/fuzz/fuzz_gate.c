/*
 * fuzz_gate — libFuzzer harness: arbitrary bytes through the AST gate.
 * Whatever the input (invalid UTF-8, NULs, deep nesting, huge literals),
 * gate_check_source must return a verdict list or an error, never crash,
 * and a refusal must carry at least one verdict.
 */
#include <stdint.h>
#include <stdlib.h>

#include "sandbox/gate.h"

/* CPython keeps caches and interned objects alive on purpose. */
const char *
__lsan_default_suppressions(void)
{
	return "leak:libpython3\n";
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gate_result r;
	struct error err = { 0 };

	if (gate_check_source((const char *)data, size, &r, &err) != 0)
		abort();	/* the gate itself must always run */
	if (!r.accepted && r.nverdicts == 0)
		abort();
	if (r.accepted && r.nverdicts != 0)
		abort();
	gate_result_free(&r);
	return 0;
}
