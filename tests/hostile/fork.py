# Hostile world model: apply() forks and executes a program (the gate
# refuses every import).
from os import fork, execv


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    if fork() == 0:
        execv("/bin/sh", ["sh", "-c", "touch /tmp/fronts-escaped"])
    return state + 1, 0.0


def is_terminal(state):
    return state >= 3
