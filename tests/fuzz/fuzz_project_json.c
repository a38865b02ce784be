/*
 * fuzz_project_json — libFuzzer harness for the fronts.json loader: the
 * input is fronts.json, the other files are small and valid.
 */
#include "fuzz_project_common.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_setup();
	return 0;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	fuzz_put("fronts.json", data, len);
	fuzz_load();
	return 0;
}
