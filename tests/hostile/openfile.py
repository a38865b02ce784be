# Hostile world model: apply() reads a file (the gate refuses `open`).
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    secret = open("/etc/passwd").read()
    return state + 1, float(len(secret))


def is_terminal(state):
    return state >= 3
