# Hostile world model: apply() recurses without end.
def deep(n):
    return deep(n + 1) + 1


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, float(deep(0))


def is_terminal(state):
    return state >= 3
