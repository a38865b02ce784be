# fronts.escape: decorator
# gate-free: escapes
# gate: private-attribute
# A decorator is any expression; this one is a host function reached
# through a pre-bound value's globals.

@partial(lambda hook, f: hook("/tmp/fronts-escape-decorator", 65),
         dataclass.__globals__["sys"].modules["os"].open)
def initial_state(ctx):
    return 0
