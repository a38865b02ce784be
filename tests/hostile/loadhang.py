# Hostile world model: its top-level code starts one C-level computation
# that runs for minutes. The worker never reaches its search, so it cannot
# answer a stop; only SIGKILL ends it.
HUGE = 10 ** 10 ** 9


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, 0.0


def is_terminal(state):
    return state >= 3
