/*
 * pyhl — a small Python tokenizer for colouring, not parsing: it only has
 * to agree with Python on where strings, comments, numbers and names are.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "ui/pyhl.h"

/* *state: 0, or the quote character of an open triple-quoted string. */

static const char *pyhl_keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	"while", "with", "yield", "match", "case", NULL
};

static const char *pyhl_builtins[] = {
	"abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter",
	"float", "frozenset", "int", "isinstance", "len", "list", "map", "max",
	"min", "pow", "range", "reversed", "round", "set", "sorted", "str",
	"sum", "tuple", "zip", "print", "self", "dataclass", "field",
	"replace", "Random", "sqrt", "log", "exp", "floor", "ceil", "inf",
	"deque", "defaultdict", "Counter", "heappush", "heappop", "mean",
	"open", "exec", "eval", "compile", "__import__", "getattr", "setattr",
	"globals", "locals", "vars", NULL
};

static bool
pyhl_in(const char **list, const char *s, size_t n)
{
	for (; *list != NULL; list++)
		if (strlen(*list) == n && memcmp(*list, s, n) == 0)
			return true;
	return false;
}

static bool
pyhl_ident(int c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

static int
pyhl_push(struct pyhl_span *sp, int ns, int max, size_t a, size_t b,
    enum pyhl_kind k)
{
	if (b <= a)
		return ns;
	if (ns > 0 && sp[ns - 1].kind == k && sp[ns - 1].end == a) {
		sp[ns - 1].end = b;
		return ns;
	}
	if (ns >= max)
		return ns;
	sp[ns] = (struct pyhl_span){ a, b, k };
	return ns + 1;
}

/* End of a string whose body starts at i; q the quote, triple or not.
 * Sets *open when a triple-quoted string runs past the line. */
static size_t
pyhl_string_end(const char *s, size_t n, size_t i, char q, bool triple,
    bool *open)
{
	*open = false;
	while (i < n) {
		if (s[i] == '\\') {
			i += 2;
			continue;
		}
		if (s[i] == q) {
			if (!triple)
				return i + 1;
			if (i + 2 < n && s[i + 1] == q && s[i + 2] == q)
				return i + 3;
		}
		i++;
	}
	*open = triple;
	return n;
}

/* Length of a string prefix (r, b, f, rb, …) before a quote at s[i], or 0. */
static size_t
pyhl_prefix(const char *s, size_t n, size_t i)
{
	size_t k = 0;

	while (k < 2 && i + k < n && strchr("rRbBfFuU", s[i + k]) != NULL)
		k++;
	if (k > 0 && i + k < n && (s[i + k] == '\'' || s[i + k] == '"'))
		return k;
	return 0;
}

int
pyhl_line(const char *s, size_t n, int *state, struct pyhl_span *sp, int max)
{
	size_t i = 0, j, k;
	int ns = 0;
	bool open, triple;
	char q;

	if (*state != 0) {
		j = pyhl_string_end(s, n, 0, (char)*state, true, &open);
		ns = pyhl_push(sp, ns, max, 0, j, PYHL_STRING);
		if (open)
			return ns;
		*state = 0;
		i = j;
	}
	while (i < n) {
		k = pyhl_prefix(s, n, i);
		if (s[i] == '#') {
			ns = pyhl_push(sp, ns, max, i, n, PYHL_COMMENT);
			break;
		} else if (s[i] == '\'' || s[i] == '"' || k > 0) {
			q = s[i + k];
			triple = i + k + 2 < n && s[i + k + 1] == q &&
			    s[i + k + 2] == q;
			j = pyhl_string_end(s, n, i + k + (triple ? 3 : 1), q,
			    triple, &open);
			ns = pyhl_push(sp, ns, max, i, j, PYHL_STRING);
			if (open)
				*state = q;
			i = j;
		} else if (isdigit((unsigned char)s[i]) || (s[i] == '.' &&
		    i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
			for (j = i; j < n && (isalnum((unsigned char)s[j]) ||
			    s[j] == '.' || s[j] == '_'); j++)
				;
			ns = pyhl_push(sp, ns, max, i, j, PYHL_NUMBER);
			i = j;
		} else if (pyhl_ident((unsigned char)s[i])) {
			for (j = i; j < n && pyhl_ident((unsigned char)s[j]); j++)
				;
			ns = pyhl_push(sp, ns, max, i, j,
			    pyhl_in(pyhl_keywords, s + i, j - i) ? PYHL_KEYWORD :
			    pyhl_in(pyhl_builtins, s + i, j - i) ? PYHL_BUILTIN :
			    PYHL_PLAIN);
			i = j;
		} else {
			ns = pyhl_push(sp, ns, max, i, i + 1, PYHL_PLAIN);
			i++;
		}
	}
	return ns;
}
