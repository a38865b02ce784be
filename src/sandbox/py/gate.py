# gate — the AST gate's rules, run inside fronts' embedded interpreter.
#
# This file is compiled into the fronts binary (src/sandbox/pysrc.S) and
# executed from there; it is never read from disk at run time. check()
# parses a world model's source with Python's own parser and returns one
# verdict (line, col, rule, message) per construct it refuses. Nothing of
# the model executes here.
#
# Why each rule exists is in SECURITY.md. In short: the model's namespace
# holds no module, so every known escape needs one of reflection by name
# (getattr, vars, format strings), an attribute starting with "_"
# (__class__, __globals__, __subclasses__), frame/code/generator
# introspection, or an import. All of those are refused here.

import ast
import re
import unicodedata

MAX_SOURCE = 1 << 20

# Names the model may not mention at all: reflection, code execution, I/O.
FORBIDDEN_NAMES = {
    "open": "opens files",
    "exec": "executes code from a string",
    "eval": "evaluates code from a string",
    "compile": "compiles code from a string",
    "__import__": "imports modules",
    "globals": "exposes a namespace dict",
    "locals": "exposes a namespace dict",
    "vars": "exposes an object's attribute dict",
    "getattr": "looks attributes up by string name",
    "setattr": "sets attributes by string name",
    "delattr": "deletes attributes by string name",
    "hasattr": "probes attributes by string name",
    "dir": "lists attributes by string name",
    "type": "creates classes (3 arguments) and reaches metaclasses; "
            "use isinstance()",
    "breakpoint": "starts a debugger",
    "input": "reads the terminal",
    "print": "writes to the terminal; a model has no output but its "
             "return values",
    "help": "starts the help system (imports modules)",
    "memoryview": "views raw memory",
    "exit": "ends the process",
    "quit": "ends the process",
    "copyright": "is not available",
    "credits": "is not available",
    "license": "reads files",
}

# Attribute names that reach frames, code objects, tracebacks, function
# globals or the class hierarchy without a leading underscore.
INTROSPECTION_PREFIXES = ("gi_", "cr_", "ag_", "f_", "tb_", "co_", "func_",
                          "im_")
INTROSPECTION_NAMES = {
    "mro", "cell_contents", "last_traceback", "last_type", "last_value",
    "with_traceback", "frame", "frames", "code", "tb", "trace",
    "modules", "builtins", "globals", "locals", "subclasses", "bases",
    "getframe", "settrace", "setprofile", "system", "popen", "spawn",
    "environ", "load_module", "exec_module", "find_spec", "loader",
    "import_module", "fromlist", "sys", "os",
}
FORMAT_ATTRIBUTES = {"format", "format_map", "vformat"}

# Dunder methods a model may define; the others are called by the
# interpreter or the host at times no guarded model call is running
# (__del__, __getattr__, __repr__, __float__, …), or change how classes
# are built (__init_subclass__, __set_name__, __class_getitem__).
DEFINABLE_DUNDERS = {
    "__init__", "__post_init__", "__eq__", "__ne__", "__lt__", "__le__",
    "__gt__", "__ge__", "__hash__", "__len__", "__iter__", "__contains__",
    "__getitem__", "__add__", "__sub__", "__mul__", "__truediv__",
    "__neg__",
}

# The only classes an `except` clause may name: the builtin exceptions
# the namespace provides (src/sandbox/namespace.c; test_gate.c keeps the
# two in step), none of them a base of fronts.ModelTimeout. The planner
# interrupts an overrunning call by raising ModelTimeout inside it; a
# handler that catches it, or whose own evaluation raises (an unbound or
# rebound name, an attribute, a call) and so turns it into an ordinary
# exception a further handler catches, lets a looping model outlive its
# deadline in process.
CATCHABLE = {
    "ArithmeticError", "AssertionError", "AttributeError", "Exception",
    "IndexError", "KeyError", "LookupError", "NotImplementedError",
    "OverflowError", "RecursionError", "RuntimeError", "StopIteration",
    "TypeError", "ValueError", "ZeroDivisionError",
}
TIMEOUT_WHY = ("it would catch the planner's call timeout, so a model "
               "that loops could never be stopped")
CONVERT_WHY = ("turning the planner's call timeout into an error that "
               "an outer handler catches, so a model that loops could "
               "never be stopped")

DUNDER_STRING = re.compile(r"\s*__\w+__\s*\Z")

# Characters that change what a terminal or an editor shows rather than
# showing themselves: C0 controls but tab and newline (a carriage return
# lets a line overwrite itself), DEL, C1, and the bidirectional
# embeddings, overrides and isolates. With them the source on screen can
# differ from the bytes that run ("Trojan Source", CVE-2021-42574).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e"
                     "\u2066-\u2069]")
CONTROL_NAMES = {"\r": "CARRIAGE RETURN", "\x1b": "ESCAPE", "\x7f": "DELETE",
                 "\x08": "BACKSPACE", "\x07": "BELL", "\x0c": "FORM FEED",
                 "\x0b": "LINE TABULATION"}


def nfkc(name):
    return unicodedata.normalize("NFKC", name)


class Gate(ast.NodeVisitor):
    def __init__(self, text=""):
        self.verdicts = []
        self.lines = text.split("\n")
        self.encoded = {}   # line number -> that line in UTF-8

    def attribute_position(self, node):
        """(line, col) of the name after the dot; col in UTF-8 bytes as
        ast counts it. Each line is encoded once and the name read back
        from its end one character at a time: a line holding many
        attributes costs its length once, not once per attribute."""
        line, end = node.end_lineno, node.end_col_offset
        if line is None or end is None or line > len(self.lines):
            return node.lineno, node.col_offset
        raw = self.encoded.get(line)
        if raw is None:
            raw = self.encoded[line] = self.lines[line - 1].encode("utf-8")
        i = min(end, len(raw))
        while i > 0:
            j = i - 1
            while j > 0 and i - j < 4 and raw[j] & 0xC0 == 0x80:
                j -= 1
            ch = raw[j:i].decode("utf-8", "replace")
            if not ("a" + ch).isidentifier():
                break
            i = j
        return line, i

    def refuse(self, node, rule, message):
        if isinstance(node, ast.Attribute):
            line, col = self.attribute_position(node)
        else:
            line = getattr(node, "lineno", 1)
            col = getattr(node, "col_offset", 0)
        self.verdicts.append((line, col, rule, message))

    # Names -------------------------------------------------------------

    def check_name(self, node, name, what="name", binds=False):
        name = nfkc(name)
        if name == "BaseException":
            self.refuse(node, "broad-except", "`BaseException` catches "
                        "every exception; %s" % TIMEOUT_WHY)
        elif binds and name in CATCHABLE:
            self.refuse(node, "exception-name", "%s rebinds the builtin "
                        "`%s`; `except %s:` would then fail, %s" %
                        (what, name, name, CONVERT_WHY))
        elif name in FORBIDDEN_NAMES:
            self.refuse(node, "forbidden-name", "`%s` %s" %
                        (name, FORBIDDEN_NAMES[name]))
        elif name.startswith("__"):
            self.refuse(node, "dunder-name", "%s `%s` starts with `__`; "
                        "interpreter internals are not available" %
                        (what, name))

    def check_definition(self, node, name, what):
        name = nfkc(name)
        if name == "BaseException" or name in CATCHABLE:
            self.check_name(node, name, what, binds=True)
        elif name in FORBIDDEN_NAMES:
            self.refuse(node, "forbidden-name", "%s `%s` shadows a refused "
                        "name (%s)" % (what, name, FORBIDDEN_NAMES[name]))
        elif (name.startswith("__") and what == "method" and
              name in DEFINABLE_DUNDERS):
            pass
        elif name.startswith("__"):
            self.refuse(node, "dunder-definition", "%s `%s`: defining "
                        "interpreter hooks other than %s is refused" %
                        (what, name, ", ".join(sorted(DEFINABLE_DUNDERS))))

    def check_attribute(self, node, attr):
        attr = nfkc(attr)
        if attr.startswith("_"):
            self.refuse(node, "private-attribute", "attribute `.%s` starts "
                        "with `_`; dunder and private attributes lead to "
                        "interpreter internals" % attr)
        elif attr in FORMAT_ATTRIBUTES:
            self.refuse(node, "format-string", "`.%s` resolves attribute "
                        "names inside format strings; use an f-string" %
                        attr)
        elif (attr.startswith(INTROSPECTION_PREFIXES) or
              attr in INTROSPECTION_NAMES):
            self.refuse(node, "introspection-attribute", "attribute `.%s` "
                        "belongs to frame, code, generator or module "
                        "introspection" % attr)

    def visit_Name(self, node):
        self.check_name(node, node.id, binds=not isinstance(node.ctx,
                                                            ast.Load))

    def visit_Attribute(self, node):
        self.check_attribute(node, node.attr)
        self.generic_visit(node)

    def visit_arg(self, node):
        self.check_definition(node, node.arg, "argument")
        self.generic_visit(node)

    def visit_keyword(self, node):
        # Keyword names are parameters, not lookups: only `__x=` matters
        # (it could reach an interpreter hook taking keyword arguments).
        if node.arg is not None and nfkc(node.arg).startswith("__"):
            self.refuse(node, "dunder-name", "keyword `%s=` starts with "
                        "`__`" % nfkc(node.arg))
        self.generic_visit(node)

    def visit_alias(self, node):
        pass    # only inside imports, refused as a whole

    # Definitions ---------------------------------------------------------

    def visit_FunctionDef(self, node):
        self.check_definition(node, node.name, "method" if
                              getattr(node, "_in_class", False) else
                              "function")
        self.generic_visit(node)

    def visit_ClassDef(self, node):
        self.check_definition(node, node.name, "class")
        for kw in node.keywords:
            if kw.arg == "metaclass":
                self.refuse(kw, "metaclass", "`metaclass=` changes how the "
                            "class itself is built")
            else:
                self.refuse(kw, "class-keyword", "class keyword `%s=` is "
                            "passed to __init_subclass__; refused" %
                            (kw.arg if kw.arg is not None else "**"))
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                stmt._in_class = True
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node):
        self.refuse(node, "async", "`async def` makes coroutines, whose "
                    "frames are introspectable; a model is plain functions")
        self.generic_visit(node)

    def visit_Await(self, node):
        self.refuse(node, "async", "`await` is refused")
        self.generic_visit(node)

    def visit_AsyncFor(self, node):
        self.refuse(node, "async", "`async for` is refused")
        self.generic_visit(node)

    def visit_AsyncWith(self, node):
        self.refuse(node, "async", "`async with` is refused")
        self.generic_visit(node)

    # Exceptions (see CATCHABLE) ----------------------------------------

    def visit_ExceptHandler(self, node):
        if node.type is None:
            self.refuse(node, "broad-except", "a bare `except:` catches "
                        "every exception; %s; name the exceptions, e.g. "
                        "`except ValueError:`" % TIMEOUT_WHY)
        else:
            types = (node.type.elts if isinstance(node.type, ast.Tuple)
                     else [node.type])
            for t in types:
                self.check_except_type(t)
        if node.name is not None:
            self.check_definition(node, node.name, "exception name")
        self.generic_visit(node)

    def check_except_type(self, t):
        if isinstance(t, ast.Name):
            name = nfkc(t.id)
            if name not in CATCHABLE and name != "BaseException":
                self.refuse(t, "except-type", "`except %s`: an except "
                            "clause may name only the builtin exceptions "
                            "%s; any other name may be unbound or not an "
                            "exception class, and evaluating it would fail, "
                            "%s" % (name, ", ".join(
                                sorted(CATCHABLE)), CONVERT_WHY))
        else:
            self.refuse(t, "except-type", "an except clause may name only "
                        "builtin exceptions, alone or in a tuple; "
                        "evaluating any other expression can fail, %s" %
                        CONVERT_WHY)

    def visit_TryStar(self, node):
        self.refuse(node, "except-star", "`try/except*` handles exception "
                    "groups, which can hold the planner's call timeout; "
                    "%s" % TIMEOUT_WHY)
        self.generic_visit(node)

    def visit_Try(self, node):
        if node.finalbody:
            first = node.finalbody[0]
            self.refuse(first, "finally", "`finally:` runs while the "
                        "planner's call timeout passes; a `return`, "
                        "`break` or `continue` there discards it and an "
                        "error there replaces it, so a model that loops "
                        "could never be stopped")
        self.generic_visit(node)

    # Statements ----------------------------------------------------------

    def visit_Import(self, node):
        self.refuse(node, "import", "`import %s`: a model imports nothing; "
                    "the names it may use are pre-bound" %
                    ", ".join(a.name for a in node.names))

    def visit_ImportFrom(self, node):
        self.refuse(node, "import", "`from %s import …`: a model imports "
                    "nothing; the names it may use are pre-bound" %
                    ("." * node.level + (node.module or "")))

    def visit_Global(self, node):
        self.refuse(node, "global", "`global %s`: a model keeps no state "
                    "between calls outside the state it returns" %
                    ", ".join(node.names))

    def visit_Nonlocal(self, node):
        for n in node.names:
            self.check_name(node, n, binds=True)

    # Patterns (match statements name attributes without ast.Attribute) ---

    def visit_MatchClass(self, node):
        for attr in node.kwd_attrs:
            self.check_attribute(node, attr)
        self.generic_visit(node)

    def visit_MatchAs(self, node):
        if node.name is not None:
            self.check_definition(node, node.name, "capture")
        self.generic_visit(node)

    def visit_MatchStar(self, node):
        if node.name is not None:
            self.check_definition(node, node.name, "capture")

    def visit_MatchMapping(self, node):
        if node.rest is not None:
            self.check_definition(node, node.rest, "capture")
        self.generic_visit(node)

    # Strings ---------------------------------------------------------------

    def visit_Constant(self, node):
        if isinstance(node.value, str) and DUNDER_STRING.match(
                nfkc(node.value)):
            self.refuse(node, "dunder-string", "string %r names an "
                        "interpreter internal; such names serve only "
                        "reflection" % node.value[:40])


def control_verdicts(text):
    """One verdict per line holding a control or bidi character, at the
    first one (col in UTF-8 bytes, as ast counts); lines are split on
    newlines only, as fronts shows them."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        bad = CONTROL.findall(line)
        if not bad:
            continue
        ch = bad[0]
        more = ("" if len(bad) == 1 else
                " (and %d more on this line)" % (len(bad) - 1))
        if ch == "\r":
            more += " (CRLF line ends count: save the file with LF ones)"
        out.append((n, len(line[:line.index(ch)].encode("utf-8")),
                    "control-char",
                    "U+%04X %s%s: control and bidirectional characters "
                    "make the source shown differ from the bytes that run "
                    "(Trojan Source, CVE-2021-42574)" %
                    (ord(ch), CONTROL_NAMES.get(ch) or
                     unicodedata.name(ch, "CONTROL"), more)))
    return out


def decode(source):
    """The model's text: strict UTF-8, no coding cookie honoured."""
    if isinstance(source, bytes):
        return source.decode("utf-8")
    return source


def check(source):
    """Verdicts for source (bytes or str), sorted by position."""
    if len(source) > MAX_SOURCE:
        return [(1, 0, "too-large", "the model is %d bytes; at most %d are "
                 "accepted" % (len(source), MAX_SOURCE))]
    try:
        text = decode(source)
    except UnicodeDecodeError as e:
        line = source[:e.start].count(b"\n") + 1
        return [(line, 0, "encoding", "not UTF-8: %s" % e.reason)]
    if "\0" in text:
        line = text[:text.index("\0")].count("\n") + 1
        return [(line, 0, "syntax", "the source contains a NUL character")]
    controls = control_verdicts(text)
    try:
        tree = ast.parse(text, filename="model.py", mode="exec")
    except SyntaxError as e:
        return sorted(set(controls + [(e.lineno or 1,
                                       max((e.offset or 1) - 1, 0),
                                       "syntax", e.msg or "invalid syntax")]))
    except (ValueError, MemoryError, RecursionError) as e:
        return sorted(set(controls + [(1, 0, "syntax", "cannot parse: %s" %
                                       type(e).__name__)]))
    gate = Gate(text)
    gate.verdicts.extend(controls)
    try:
        gate.visit(tree)
    except RecursionError:
        gate.verdicts.append((1, 0, "too-deep", "the source nests too "
                              "deeply to inspect"))
    return sorted(set(gate.verdicts))


def attribute_allowed(name):
    """Whether `obj.name` passes the gate (tests walk the namespace with it)."""
    g = Gate()
    g.check_attribute(ast.Pass(lineno=1, col_offset=0), name)
    return not g.verdicts


CONTRACT = ("initial_state", "sample_hidden", "legal_actions", "apply",
            "is_terminal", "value", "predict")


def summary(source):
    """(lines, top-level functions, classes) for the approval screen; an
    unparsable source has no functions."""
    text = decode(source) if len(source) <= MAX_SOURCE else ""
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    try:
        tree = ast.parse(text)
    except Exception:
        return lines, [], []
    funcs = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
    return lines, funcs, classes
