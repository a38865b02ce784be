#!/usr/bin/env python3
"""Runs a world model under plain Python, outside the sandbox: a quick
check while writing one. Builds ctx from a project directory the way
fronts does (read-only mappings, tuples), executes the model with only the
pre-bound names and a small builtin set, then does random rollouts,
checks that apply never mutates its state and that seeded runs repeat.

    python3 tools/model_harness.py fixtures/demo [ROLLOUTS]
"""
import bisect
import collections
import dataclasses
import datetime as dt
import heapq
import json
import math
import random
import statistics
import sys
import time
import types
from zoneinfo import ZoneInfo

BUILTINS = ["abs", "all", "any", "bool", "chr", "dict", "divmod", "enumerate", "filter", "float", "ord",
            "frozenset", "int", "isinstance", "len", "list", "map", "max", "min",
            "pow", "range", "reversed", "round", "set", "sorted", "str", "sum",
            "tuple", "zip", "ValueError", "KeyError", "IndexError", "Exception",
            "True", "False", "None", "print"]


def freeze(x):
    if isinstance(x, dict):
        return types.MappingProxyType({k: freeze(v) for k, v in x.items()})
    if isinstance(x, list):
        return tuple(freeze(v) for v in x)
    return x


def load_ctx(d):
    fr = json.load(open(d + "/fronts.json", encoding="utf-8"))
    tz = ZoneInfo(fr["timezone"])
    start = dt.datetime.fromisoformat(fr["start"].replace("Z", "+00:00")).astimezone(tz)
    ids = [f["id"] for f in fr["fronts"]]
    drafts = []
    for line in open(d + "/drafts.jsonl", encoding="utf-8"):
        r = json.loads(line)
        drafts.append({"id": r["id"], "text": r["text"], "topics": r.get("topics", []),
                       "fronts": r.get("fronts", ids)})
    history = [json.loads(line) for line in open(d + "/history.jsonl", encoding="utf-8")]
    objective = {"impressions": 0, "likes": 1, "reposts": 1, "replies": 1, "clicks": 1}
    if "objective" in fr:
        objective = {k: fr["objective"].get(k, 0) for k in objective}
    ctx = {"now": start.isoformat(), "timezone": fr["timezone"], "objective": objective,
           "slot_minutes": fr["slot_minutes"], "horizon_slots": fr["horizon_slots"],
           "fronts": [{"id": f["id"], "platform": f["platform"], "limits": f.get("limits", {})}
                      for f in fr["fronts"]],
           "drafts": drafts, "history": history}
    return freeze(ctx)


def namespace():
    import builtins
    b = {n: getattr(builtins, n) for n in BUILTINS}
    b["__build_class__"] = builtins.__build_class__
    return {"__builtins__": b, "__name__": "model",
            "dataclass": dataclasses.dataclass, "field": dataclasses.field,
            "replace": dataclasses.replace, "Random": random.Random,
            "sqrt": math.sqrt, "log": math.log, "exp": math.exp,
            "floor": math.floor, "ceil": math.ceil, "inf": math.inf,
            "deque": collections.deque, "defaultdict": collections.defaultdict,
            "Counter": collections.Counter, "heappush": heapq.heappush,
            "heappop": heapq.heappop, "mean": statistics.fmean}


def rollout(m, ctx, seed):
    rng = random.Random(seed)
    s = m["sample_hidden"](ctx, rng)
    total = 0.0
    calls = 1
    steps = 0
    while not m["is_terminal"](s) and steps < 10000:
        acts = m["legal_actions"](s)
        a = acts[rng.randrange(len(acts))]
        before = repr(s)
        s2, r = m["apply"](s, a, rng)
        assert repr(s) == before, "apply mutated its state"
        assert isinstance(r, float), "reward is not a float"
        total += r
        s = s2
        calls += 3
        steps += 1
    return total, calls


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "fixtures/demo"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    ctx = load_ctx(d)
    ns = namespace()
    src = open(d + "/model.py", encoding="utf-8").read()
    exec(compile(src, d + "/model.py", "exec"), ns)
    s0 = ns["initial_state"](ctx)
    print("topics:", s0.world.topics)
    print("interest:", tuple(round(x, 2) for x in s0.interest))
    print("audience:", tuple(round(x, 1) for x in s0.world.front_mean))
    print("value(s0):", round(ns["value"](s0), 1))
    assert rollout(ns, ctx, 7) == rollout(ns, ctx, 7), "seeded runs differ"
    t0 = time.perf_counter()
    totals = []
    calls = 0
    for i in range(n):
        t, c = rollout(ns, ctx, i)
        totals.append(t)
        calls += c
    el = time.perf_counter() - t0
    print("rollouts: %d, mean return %.1f, %.0f model calls/s" % (n, statistics.fmean(totals), calls / el))
    # A greedy policy must beat random play, or the model carries no signal.
    rng = random.Random(1)
    s = ns["sample_hidden"](ctx, rng)
    g = 0.0
    while not ns["is_terminal"](s):
        best, br = ("wait",), 0.0
        for a in ns["legal_actions"](s):
            if a[0] == "post":
                r = ns["expected_reward"](s, s.world.pair_index[a])
                if r > br:
                    best, br = a, r
        if br < 0.8 * statistics.fmean(s.world.front_mean):
            best = ("wait",)
        s, r = ns["apply"](s, best, rng)
        g += r
    print("greedy return %.1f" % g)
    if "predict" in ns:
        # The newest post predicted from the ones before it, as the
        # backtest does (fronts validate --backtest measures it for real).
        last = max(ctx["history"], key=lambda h: h["posted_at"])
        earlier = tuple(h for h in ctx["history"] if h is not last)
        c2 = freeze(dict(ctx, history=earlier, now=last["posted_at"]))
        post = freeze({k: last[k] for k in ("id", "front", "posted_at", "text", "topics")})
        draws = [ns["predict"](c2, post, random.Random(k)) for k in range(50)]
        print("predict %s: mean %.1f" % (last["id"], statistics.fmean(draws)))


if __name__ == "__main__":
    main()
