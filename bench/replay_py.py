#!/usr/bin/python3
"""replay_py — the search's own model calls made again in a bare Python
loop: what the calls cost with nothing around them, not even fronts'
conversion of their results (bench_search "call": the time per model call
inside the search is compared with this).

bench_replay.h writes the calls fronts' search made, one a line: "s SEED"
(the rng reseeded), "h" (sample_hidden, or initial_state where the model
has none), "l" (legal_actions), "a IX" (apply of action IX: 0 the wait,
1 + draft * nfronts + front a post), "x IX" (the same apply whose state
is dropped: a try), "t" (is_terminal), "v" (value).
The loop makes those calls on the same states, in the same order,
ROUNDS times (default 1), and prints one JSON line: the calls of one
round and the least CPU seconds a round took.

usage: replay_py.py INPUT.json MODEL.py CALLS.txt [ROUNDS]
INPUT.json: as peer_ismcts.py's ("ctx", "drafts", "fronts").
"""
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_ismcts import namespace  # noqa: E402



def load(log):
    ops = []
    for line in open(log):
        w = line.split()
        ops.append((w[0], int(w[1]) if len(w) > 1 else 0))
    return ops


def replay(g, ctx, acts, ops):
    rng = random.Random()
    hidden = g.get("sample_hidden")
    initial = g["initial_state"]
    legal, apply_, term = g["legal_actions"], g["apply"], g["is_terminal"]
    value = g.get("value")
    st = None
    calls = 0
    c0 = time.process_time()
    for op, x in ops:
        if op == "s":
            rng.seed(x)
            continue
        calls += 1
        if op == "h":
            st = hidden(ctx, rng) if hidden else initial(ctx)
        elif op == "l":
            legal(st)
        elif op == "a":
            st, r = apply_(st, acts[x], rng)
        elif op == "x":
            apply_(st, acts[x], rng)
        elif op == "t":
            term(st)
        else:
            value(st)
    return calls, time.process_time() - c0


def main():
    inp = json.load(open(sys.argv[1]))
    g = namespace()
    exec(compile(open(sys.argv[2]).read(), "model.py", "exec"), g)
    acts = [("wait",)] + [("post", d, f) for d in inp["drafts"]
                          for f in inp["fronts"]]
    ops = load(sys.argv[3])
    best = None
    for _ in range(int(sys.argv[4]) if len(sys.argv) > 4 else 1):
        calls, cpu = replay(g, inp["ctx"], acts, ops)
        best = cpu if best is None or cpu < best else best
    print(json.dumps({"calls": calls, "cpu_seconds": best}))


if __name__ == "__main__":
    main()
