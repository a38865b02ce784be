# fronts.escape: builtins_name
# gate-free: fails
# gate: dunder-name
# The __builtins__ global itself. Gate: dunder name. Gate-free: it is the
# restricted dict, which has no __import__ and no open.

__builtins__["__import__"]("os").open("/tmp/fronts-escape-builtins_name", 65)
