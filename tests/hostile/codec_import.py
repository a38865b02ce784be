# Top-level code that makes the interpreter import a codec nobody imports
# otherwise: the module comes from disk. In the worker the lockdown is up
# before the module body runs, so the import cannot read the file; in
# thread mode it simply works. Tests the order of the lockdown directly.
SAMPLE = "x".encode("utf_32_be")


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, 0.0


def is_terminal(state):
    return state >= 3
