# CPython gh-120384 (present in Debian's libpython 3.11.2): an extended
# slice assignment from a generator that shrinks the list writes past the
# end of its array. It passes the gate: the gate cannot see it, only the
# worker's boundary holds. Expected: the worker crashes (or is stopped by
# its limits) and fronts reports it, exit 4; fronts itself survives.


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    for _ in range(200):
        a = list(range(3000))

        def g():
            a.clear()
            yield from range(1500)

        a[::2] = g()
    return state + 1, 0.0


def is_terminal(state):
    return state >= 3
