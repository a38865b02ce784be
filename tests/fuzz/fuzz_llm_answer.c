/*
 * fuzz_llm_answer — libFuzzer harness for what comes back from a language
 * model API (untrusted network input): the Anthropic and OpenAI answer
 * parsers and the readers of their streams, the error-body readers behind
 * retry decisions, and the code extraction that runs on the answer's text.
 */
#include <stdlib.h>
#include <string.h>

#include "net/http.h"
#include "net/provider_int.h"
#include "runs/synth.h"

static void
fuzz_answer(int (*parse)(const char *, struct llm_answer *, struct error *),
    const char *body)
{
	struct llm_answer a;
	struct error err = { 0 };
	char *why = NULL, *code;

	memset(&a, 0, sizeof a);
	if (parse(body, &a, &err) == 0 && a.text != NULL) {
		code = synth_extract(a.text, &why);
		free(code);
		free(why);
	}
	llm_answer_free(&a);
}

/* A stream turned back into an answer body, which is then parsed. */
static void
fuzz_stream(int (*unstream)(const char *, char **, struct error *),
    int (*parse)(const char *, struct llm_answer *, struct error *),
    const char *sse)
{
	struct error err = { 0 };
	char *body = NULL;

	if (unstream(sse, &body, &err) == 0) {
		fuzz_answer(parse, body);
		cJSON_free(body);
	}
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	char *body = malloc(len + 1), *msg, *why = NULL, *code;

	memcpy(body, data, len);
	body[len] = '\0';
	fuzz_answer(anthropic_parse, body);
	fuzz_answer(openai_parse, body);
	fuzz_stream(anthropic_unstream, anthropic_parse, body);
	fuzz_stream(openai_unstream, openai_parse, body);
	(void)http_quota_exhausted(body);
	msg = http_api_message(body);
	free(msg);
	code = synth_extract(body, &why);
	free(code);
	free(why);
	free(body);
	return 0;
}
