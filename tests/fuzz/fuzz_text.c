/*
 * fuzz_text — libFuzzer harness for text_measure and the extractors over
 * arbitrary bytes: invalid UTF-8 must come back as -1, valid text as
 * lengths that agree with each other and spans inside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core/text.h"

#define MAX_SPANS 32

static int
valid_utf8(const char *s, size_t len)
{
	utf8proc_int32_t c;
	utf8proc_ssize_t n;
	size_t off = 0;

	while (off < len) {
		n = utf8proc_iterate((const utf8proc_uint8_t *)s + off,
		    (utf8proc_ssize_t)(len - off), &c);
		if (n <= 0)
			return 0;
		off += (size_t)n;
	}
	return 1;
}

static void
check_spans(const char *s, size_t len, int n, const struct text_span *v)
{
	int i;

	for (i = 0; i < n && i < MAX_SPANS; i++) {
		if (v[i].start >= v[i].end || v[i].end > len)
			abort();
		if (i > 0 && v[i].start < v[i - 1].end)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct text_span spans[MAX_SPANS];
	struct text_measure m;
	char *s = malloc(size + 1);
	size_t len;
	int p, valid, n, chars, graphemes;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	len = strlen(s);
	valid = valid_utf8(s, len);
	chars = text_codepoint_count(s);
	graphemes = text_grapheme_count(s);
	if ((chars == -1) == valid || (graphemes == -1) == valid)
		abort();
	for (p = 0; p < PLATFORM_COUNT; p++) {
		if ((text_measure(s, p, NULL, &m) == -1) == valid)
			abort();
		if (!valid)
			continue;
		if (m.length < 0 || m.links < 0 || m.hashtags < 0 ||
		    m.bytes != (int)len)
			abort();
		if (p == PLATFORM_BLUESKY && m.length != graphemes)
			abort();
		if ((p == PLATFORM_THREADS || p == PLATFORM_LINKEDIN ||
		    p == PLATFORM_REDDIT) && m.length != chars)
			abort();
	}
	if (valid) {
		n = text_extract_urls(s, spans, MAX_SPANS);
		check_spans(s, len, n, spans);
		n = text_extract_hashtags(s, spans, MAX_SPANS);
		check_spans(s, len, n, spans);
		/* Each platform's links: the count caps use, in order. */
		for (p = 0; p < PLATFORM_COUNT; p++) {
			n = text_extract_links(s, p, spans, MAX_SPANS);
			check_spans(s, len, n, spans);
			if (text_measure(s, p, NULL, &m) != 0 ||
			    (p != PLATFORM_X && m.links != n))
				abort();
		}
		if (graphemes > chars || text_weighted_length(s) < 0)
			abort();
	}
	free(s);
	return 0;
}
