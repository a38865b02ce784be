/*
 * fuzz_project_jsonl — libFuzzer harness for the JSON-lines loaders: the
 * first byte picks history.jsonl (0 modulo 4), pins.jsonl (2 modulo 4) or
 * drafts.jsonl (odd), the rest is that file; fronts.json and the other
 * files are small and valid.
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
	static const char draft[] = "{\"id\":\"d1\",\"text\":\"hi\"}\n";

	if (len == 0)
		return 0;
	fuzz_put("pins.jsonl", "", 0);
	if (data[0] % 4 == 2) {
		fuzz_put("history.jsonl", "", 0);
		fuzz_put("drafts.jsonl", draft, sizeof draft - 1);
		fuzz_put("pins.jsonl", data + 1, len - 1);
	} else if (data[0] % 2 == 0) {
		fuzz_put("history.jsonl", data + 1, len - 1);
		fuzz_put("drafts.jsonl", draft, sizeof draft - 1);
	} else {
		fuzz_put("history.jsonl", "", 0);
		fuzz_put("drafts.jsonl", data + 1, len - 1);
	}
	fuzz_load();
	return 0;
}
