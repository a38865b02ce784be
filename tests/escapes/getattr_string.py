# fronts.escape: getattr_string
# gate-free: fails
# gate: forbidden-name
# getattr with a name built at run time hides the dunder from any AST check
# of attributes. Gate: getattr is refused. Gate-free: not in builtins.

g = getattr(dataclass, "__glob" + "als__")
g["sys"].modules["os"].open("/tmp/fronts-escape-getattr_string", 65)
