# Hostile world model: apply() starts one C-level computation that runs for
# minutes without returning to the bytecode loop (the in-process watchdog
# cannot interrupt it; the worker's deadline can).
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    x = 10 ** 10 ** 8
    return state + 1, float(x % 7)


def is_terminal(state):
    return state >= 3
