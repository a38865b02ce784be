/*
 * termsafe — the one place that decides how untrusted text is shown on a
 * terminal. Text from the model, a language model, the project's files or
 * a server may hold escape sequences (clear the screen, set the window
 * title, write the clipboard through OSC 52) or bidirectional controls
 * that make a line read differently from its bytes ("Trojan Source",
 * CVE-2021-42574). Everything such text passes through termsafe_next()
 * before it is printed or drawn; the rest of this API is built on it.
 *
 * Shown visibly: C0 controls other than newline and tab (`\x1b`; a
 * carriage return as `\r`, since it lets a line overwrite itself), DEL
 * (`\x7f`), C1 controls as code points (`<U+009B>`), the bidirectional
 * embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069
 * (`<U+202E>`), and each byte that is not part of valid UTF-8 (`\xff`).
 * Everything else, multibyte characters included, is kept as it is.
 */
#ifndef FRONTS_TERMSAFE_H
#define FRONTS_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Room for the longest visible form ("<U+202E>", "\u202e") and a NUL. */
#define TERMSAFE_MAX 12

/* Flags for termsafe_next(). */
#define TERMSAFE_NEWLINE 0x1	/* show '\n' too (one-row places) */
#define TERMSAFE_JSON	 0x2	/* inside JSON strings: `\u001b` forms,
				   U+FFFD for an invalid byte */

/*
 * How the character at s (n > 0 bytes available) is shown: writes its
 * visible form, NUL-terminated, to out and returns how many bytes of s it
 * stands for (at least 1). *kept (if not NULL) says whether out is those
 * bytes unchanged.
 */
size_t	termsafe_next(const char *s, size_t n, int flags,
	    char out[TERMSAFE_MAX], bool *kept);
/* Whether s (n bytes) would be shown unchanged. */
bool	termsafe_clean(const char *s, size_t n);
/* s made safe, in a fresh allocation (caller frees). */
char	*termsafe_dup(const char *s);
char	*termsafe_ndup(const char *s, size_t n, int flags);
/* s made safe into dst (NUL-terminated, never a visible form cut in
 * half); returns the length the whole result needs, as strlcpy does. */
size_t	termsafe_copy(char *dst, size_t size, const char *s);
/* The same on one line: a newline shown as `\n` too. */
size_t	termsafe_copy_line(char *dst, size_t size, const char *s);
/* What text the model controls (an exception's message, whatever its
 * worker writes) follows when fronts shows it: no line of fronts' own
 * starts with it, and the text after it is kept to one line. */
#define MODEL_TEXT_PREFIX	"model| "
void	termsafe_fputs(const char *s, FILE *f);
void	termsafe_fwrite(const char *s, size_t n, FILE *f);
/* Formats, then prints the result made safe: for lines that quote
 * untrusted strings. The format itself must hold no control either. */
int	termsafe_fprintf(FILE *f, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* A JSON text (cJSON's output) and a newline, with every control and bidi
 * character in its strings as a `\uXXXX` escape: the same JSON value,
 * safe to show (a byte that is not UTF-8, which JSON cannot hold, becomes
 * U+FFFD). */
void	termsafe_json_puts(const char *json, FILE *f);
/* The same without the newline: for text that embeds JSON (a request
 * with its body), whose escapes must keep the body what is sent. */
void	termsafe_json_fputs(const char *json, FILE *f);

#endif
