# Hostile world model: apply() never returns (a pure-bytecode loop, which
# the in-process watchdog can interrupt).
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    while True:
        pass


def is_terminal(state):
    return state >= 3
