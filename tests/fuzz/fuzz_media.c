/*
 * fuzz_media — libFuzzer harness for the images a draft names: any bytes
 * go through media_probe_mem(); what it accepts goes through
 * media_clean(), whose output must be accepted again as the same type
 * and size (cleaning never damages an image). What it refuses must be
 * refused with the file's name.
 */
#include <stdlib.h>
#include <string.h>

#include "core/media.h"

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct media_info mi, mo;
	struct error err = { 0 };
	unsigned char *out;
	size_t outlen;

	if (media_probe_mem(data, len, "fuzz.img", &mi, &err) != 0) {
		if (strstr(err.msg, "fuzz.img") == NULL)
			abort();
		return 0;
	}
	if (mi.width <= 0 || mi.height <= 0 || mi.mime == NULL)
		abort();
	if (media_clean(data, len, &mi, false, "fuzz.img", &out, &outlen,
	    &err) != 0)
		return 0;
	if (media_probe_mem(out, outlen, "clean.img", &mo, &err) != 0 ||
	    mo.type != mi.type || mo.width != mi.width ||
	    mo.height != mi.height)
		abort();
	free(out);
	return 0;
}
