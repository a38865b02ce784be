# fronts.escape: func_globals
# gate-free: escapes
# gate: private-attribute
# A pre-bound function's __globals__ is its module's namespace (dataclasses
# imports sys). Only the gate stops it: `_`-attributes are refused.

dataclass.__globals__["sys"].modules["os"].open("/tmp/fronts-escape-func_globals", 65)
