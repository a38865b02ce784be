# fronts.escape: open_direct
# gate-free: fails
# Plain open(). Gate: forbidden name. Gate-free: not in builtins.

open("/tmp/fronts-escape-open_direct", "w").close()
