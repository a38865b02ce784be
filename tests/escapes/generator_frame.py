# fronts.escape: generator_frame
# gate-free: fails
# gate: introspection-attribute
# Frame walk through a running generator: gi_frame.f_back climbs to whoever
# resumed it. Gate: introspection attributes. Gate-free: the chain ends at
# the model's own module frame, whose builtins are the restricted ones.

def walker():
    f = g.gi_frame
    while f is not None:
        b = f.f_builtins
        if "open" in b:
            b["open"]("/tmp/fronts-escape-generator_frame", "w").close()
        f = f.f_back
    yield

g = walker()
next(g)
raise RuntimeError("no frame with open")
