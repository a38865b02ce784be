# Hostile world model: apply() allocates without bound.
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    hoard = []
    while True:
        hoard.append(" " * 10000000)


def is_terminal(state):
    return state >= 3
