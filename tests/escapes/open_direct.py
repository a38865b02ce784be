# fronts.escape: open_direct
# gate-free: fails
# gate: forbidden-name
# Plain open(). Gate: forbidden name. Gate-free: not in builtins.

open("/tmp/fronts-escape-open_direct", "w").close()
