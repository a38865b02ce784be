# Hostile world model: apply() opens a network connection (the gate refuses
# every import).
import socket


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    s = socket.create_connection(("127.0.0.1", 9))
    s.sendall(b"exfiltrated")
    return state + 1, 0.0


def is_terminal(state):
    return state >= 3
