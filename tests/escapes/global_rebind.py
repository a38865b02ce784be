# fronts.escape: global_rebind
# gate-free: fails
# gate: global
# Rebinding a pre-bound name for later callers with `global`. Gate: global
# is refused. Gate-free: the rebinding works but reaches nothing.

def f():
    global sqrt
    sqrt = lambda x: open("/tmp/fronts-escape-global_rebind", "w")

f()
sqrt(1)
