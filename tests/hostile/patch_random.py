# Replaces a method of the pre-bound Random class at top level. The host's
# own rng (the one it seeds before every iteration) must not be an
# instance of that class: if it were, seeding would run this loop outside
# any guarded call and hang fronts.


def spin(self, a=None, version=2):
    while True:
        pass


Random.seed = spin


def initial_state(ctx):
    return 0


def legal_actions(state):
    return [("wait",)]


def apply(state, action, rng):
    return state + 1, rng.random()


def is_terminal(state):
    return state >= 3
