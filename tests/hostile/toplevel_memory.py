# Takes 150 MiB at top level, then 100 MiB in apply(). Under a 200 MiB
# budget the second must fail: the worker's address-space limit is
# measured before the module body runs, so what the model takes at top
# level counts against the budget instead of being added to it.
HOARD = b" " * (150 * 1024 * 1024)


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    more = b" " * (100 * 1024 * 1024)
    return state + 1, float(len(more) > 0)


def is_terminal(state):
    return state >= 3
