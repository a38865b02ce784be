# States hold suspended generators that delegate to an iterator whose
# close() spins. Releasing such a state closes each generator, which calls
# close(): model code, run when the host frees the state. The interrupt
# raised in a finalizer is swallowed by the interpreter, so each of the
# generators would spin for another timeout: the release must be guarded,
# and the whole of it bounded by the call's deadline plus the grace.


class Slow(chain):
    def close(self):
        while True:
            pass


def hold(n):
    gens = []
    for _ in range(n):
        def g():
            yield from Slow([1, 2, 3])
        x = g()
        next(x)
        gens.append(x)
    return gens


def initial_state(ctx):
    return (0, ())


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return (state[0] + 1, tuple(hold(50))), 1.0


def is_terminal(state):
    return state[0] >= 3
