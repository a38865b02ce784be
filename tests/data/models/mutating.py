# A world model whose apply() changes the state it was given (it appends to
# state["posted"]): it fails the conformance check apply-does-not-mutate.
# Used by tests/cli/test_measure.sh, test_plan.sh and test_run.sh.
def initial_state(ctx):
    return {"slot": 0, "posted": []}


def legal_actions(state):
    return [("wait",), ("post", "d1", "x")]


def apply(state, action, rng):
    if action[0] == "wait":
        state["slot"] = state["slot"] + 1
        return state, 0.0
    state["posted"].append(action[1])
    return state, 1.0 / len(state["posted"])


def is_terminal(state):
    return state["slot"] >= 72
