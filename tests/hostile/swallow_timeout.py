# Hostile world model: apply() catches the planner's call timeout and
# loops on, which would hang fronts under --isolation thread. The gate
# refuses every form of it: a bare except, BaseException (which the
# namespace does not provide anyway), an except clause that fails while
# the timeout passes (an unbound name, turned into a NameError the outer
# handler catches), and finally: that discards it.
def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    while True:
        try:
            while True:
                pass
        except:
            pass
        try:
            try:
                while True:
                    pass
            except (ValueError, BaseException):
                pass
        except Exception:
            pass
        try:
            try:
                while True:
                    pass
            except Unbound:
                pass
        except Exception:
            pass
        try:
            while True:
                pass
        finally:
            continue


def is_terminal(state):
    return state >= 3
