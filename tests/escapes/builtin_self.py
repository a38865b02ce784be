# fronts.escape: builtin_self
# gate-free: escapes
# gate: private-attribute
# A builtin function's __self__ is its module: len.__self__ is builtins.

len.__self__.open("/tmp/fronts-escape-builtin_self", "w").close()
