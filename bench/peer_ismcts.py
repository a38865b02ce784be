#!/usr/bin/python3
"""peer_ismcts — the benchmark's peer: the planner's ISMCTS written plainly
in Python, running the same world model for the same iterations.

Same algorithm as src/core/search.c: per iteration the model's rng is
reseeded, a determinization drawn with sample_hidden, the tree descended
by UCT over the available actions (the model's legal_actions intersected
with the legality engine's tables, plus the wait; availability counts;
MaxUCT values divided by the range of returns; progressive widening
ceil(2 sqrt(n + 1)); same-slot posts in increasing id order), one action
expanded, a uniform rollout truncated after 24 actions with value() (fronts
itself stops after 8), and the returns backed up; every other iteration of
the last 60% of the budget deepens along the principal variation in 64
chunks. fronts also divides by the spread among siblings where that is
narrower; the peer keeps the plain range. The legality tables (static
verdicts, per-slot local days, quiet hours, the past posts' effects) come
from the C engine through the input file, so both planners decide legality
alike.

usage: peer_ismcts.py INPUT.json MODEL.py ITERATIONS SEED
INPUT.json: {"ctx": ..., "tables": legal_tables_json(), "drafts": [ids],
"fronts": [ids]}. Prints one JSON line: iterations, model_calls, seconds,
cpu_seconds, nodes, best first action, and the plan (the principal
variation: [draft index, front index] per post, null per wait).
"""
import bisect
import collections
import dataclasses
import functools
import heapq
import itertools
import json
import math
import random
import statistics
import sys
import time

UCT_C = 1.41
PW_K = 2.0
ROLLOUT_ACTIONS = 24
FOCUS_START = 0.4
FOCUS_CHUNKS = 64
MASK = (1 << 64) - 1


def mix(x):
    """splitmix64, as search_mix()."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def namespace():
    g = {}
    for mod in (math, heapq, bisect, statistics, itertools):
        for k in dir(mod):
            if not k.startswith("_"):
                g[k] = getattr(mod, k)
    for k in ("deque", "defaultdict", "Counter", "OrderedDict", "namedtuple"):
        g[k] = getattr(collections, k)
    g["reduce"] = functools.reduce
    g["partial"] = functools.partial
    g["dataclass"] = dataclasses.dataclass
    g["field"] = dataclasses.field
    g["replace"] = dataclasses.replace
    g["Random"] = random.Random
    g["__name__"] = "model"
    return g


class Node:
    __slots__ = ("action", "slot", "children", "visits", "avail", "sum",
                 "rsum", "q")

    def __init__(self, action, slot):
        self.action = action
        self.slot = slot
        self.children = {}
        self.visits = 0
        self.avail = 0
        self.sum = 0.0
        self.rsum = 0.0
        self.q = 0.0


class Legal:
    """The engine's dynamic checks over its precomputed tables."""

    def __init__(self, t):
        self.h = t["horizon"]
        self.ss = t["slot_seconds"]
        self.nf = t["nfronts"]
        self.verdict = t["verdict"]
        self.day = t["day"]
        self.quiet = t["quiet"]
        self.pastgap = t["pastgap"]
        self.pastcount = t["pastcount"]
        self.gap = t["gap_seconds"]
        self.cap = t["cap"]

    def reset(self):
        self.slot = 0
        self.last = [None] * self.nf
        self.pday = [None] * self.nf
        self.count = [0] * self.nf
        self.posted = set()

    def ok(self, d, f):
        if self.verdict[d * self.nf + f] != 0:
            return False
        if (d, f) in self.posted:
            return False
        i = f * self.h + self.slot
        if self.quiet[i]:
            return False
        if self.gap[f] >= 0:
            if self.pastgap[i]:
                return False
            if (self.last[f] is not None and
                    self.slot * self.ss - self.last[f] < self.gap[f]):
                return False
        if self.cap[f] >= 0:
            n = self.pastcount[i]
            if self.pday[f] == self.day[self.slot]:
                n += self.count[f]
            if n >= self.cap[f]:
                return False
        return True

    def apply(self, a):
        if a is None:
            self.slot += 1
            return
        d, f = a
        day = self.day[self.slot]
        if self.pday[f] != day:
            self.pday[f] = day
            self.count[f] = 0
        self.count[f] += 1
        self.last[f] = self.slot * self.ss
        self.posted.add((d, f))


class Peer:
    def __init__(self, inp, src, seed):
        self.ctx = inp["ctx"]
        self.legal = Legal(inp["tables"])
        self.dix = {d: i for i, d in enumerate(inp["drafts"])}
        self.fix = {f: i for i, f in enumerate(inp["fronts"])}
        self.nf = len(inp["fronts"])
        self.g = namespace()
        exec(compile(src, "model.py", "exec"), self.g)
        self.rng = random.Random()
        self.seed = seed
        self.calls = 0
        self.nodes = 1
        self.root = Node(None, -1)
        self.gmin = math.inf
        self.gmax = -math.inf
        self.prefix = []
        self.has_value = "value" in self.g
        self.sample = self.g.get("sample_hidden")

    def key(self, a):
        return 0 if a is None else 1 + a[0] * self.nf + a[1]

    def available(self, s, last_key):
        self.calls += 1
        out = [None]
        seen = {0}
        for t in self.g["legal_actions"](s):
            if (type(t) is not tuple or len(t) != 3 or t[0] != "post"):
                continue
            d = self.dix.get(t[1])
            f = self.fix.get(t[2])
            if d is None or f is None or not self.legal.ok(d, f):
                continue
            a = (d, f)
            k = self.key(a)
            if k <= last_key or k in seen:
                continue
            seen.add(k)
            out.append(a)
        return out

    def step(self, s, a):
        self.calls += 1
        act = ("wait",) if a is None else (
            "post", self.ctx["drafts"][a[0]]["id"],
            self.ctx["fronts"][a[1]]["id"])
        s, r = self.g["apply"](s, act, self.rng)
        self.legal.apply(a)
        return s, float(r)

    def over(self, s):
        if self.legal.slot >= self.legal.h:
            return True
        self.calls += 1
        return bool(self.g["is_terminal"](s))

    def select(self, node, depth, avail):
        akeys = {self.key(a) for a in avail}
        compat = []
        forced = None
        for c in node.children.values():
            if self.key(c.action) in akeys:
                c.avail += 1
                compat.append(c)
                if depth < len(self.prefix) and c.action == self.prefix[depth]:
                    forced = c
        if forced is not None:
            return forced, None
        expanded = {self.key(c.action) for c in compat}
        unexp = [a for a in avail if self.key(a) not in expanded]
        if unexp and len(compat) < math.ceil(PW_K * math.sqrt(node.visits + 1)):
            return None, unexp[self.trng.randrange(len(unexp))]
        scale = self.gmax - self.gmin if self.gmax > self.gmin else 1.0
        best, bscore = None, -math.inf
        for c in compat:
            if c.visits == 0:
                return c, None
            sc = c.q / scale + UCT_C * math.sqrt(math.log(c.avail) / c.visits)
            if sc > bscore:
                best, bscore = c, sc
        return best, None

    def q(self, n):
        best = -math.inf
        for c in n.children.values():
            if c.visits >= 2 and c.q > best:
                best = c.q
        if best == -math.inf:
            best = (n.sum - n.rsum) / n.visits
        return n.rsum / n.visits + best

    def iterate(self, it):
        seed = mix(mix(self.seed) ^ it)
        self.rng.seed(seed)
        self.trng = random.Random(seed ^ 1)
        self.legal.reset()
        self.calls += 1
        s = (self.sample(self.ctx, self.rng) if self.sample is not None
             else self.g["initial_state"](self.ctx))
        node, path, last_key = self.root, [], 0
        while not self.over(s):
            avail = self.available(s, last_key)
            child, new = self.select(node, len(path), avail)
            a = child.action if child is not None else new
            if len(path) < len(self.prefix) and (child is None or
                                                 a != self.prefix[len(path)]):
                self.prefix = self.prefix[:len(path)]
            slot = self.legal.slot
            s, r = self.step(s, a)
            last_key = 0 if a is None else self.key(a)
            if child is None:
                child = Node(a, slot)
                node.children[self.key(a)] = child
                self.nodes += 1
                path.append((child, r))
                break
            path.append((child, r))
            node = child
        g = 0.0
        steps = 0
        while not self.over(s):
            if self.has_value and steps >= ROLLOUT_ACTIONS:
                self.calls += 1
                g += float(self.g["value"](s))
                break
            avail = self.available(s, last_key)
            a = avail[self.trng.randrange(len(avail))]
            s, r = self.step(s, a)
            last_key = 0 if a is None else self.key(a)
            g += r
            steps += 1
        for n, r in reversed(path):
            g += r
            n.visits += 1
            n.sum += g
            n.rsum += r
            n.q = self.q(n)
        self.root.visits += 1
        self.root.sum += g
        self.gmin = min(self.gmin, g)
        self.gmax = max(self.gmax, g)

    def best_child(self, n):
        best = None
        for c in n.children.values():
            if c.visits and (best is None or c.visits > best.visits):
                best = c
        return best

    def plan(self):
        """The principal variation: [draft, front] per post, null per wait."""
        out, n = [], self.root
        while True:
            c = self.best_child(n)
            if c is None:
                return out
            out.append(None if c.action is None else list(c.action))
            n = c

    def focus(self, focus_min):
        out, n = [], self.root
        while True:
            c = self.best_child(n)
            if c is None or c.visits < focus_min:
                return out
            out.append(c.action)
            n = c

    def run(self, iterations):
        chunk = -1
        for it in range(iterations):
            spent = it / iterations
            k = int((spent - FOCUS_START) / (1 - FOCUS_START) * FOCUS_CHUNKS)
            if spent >= FOCUS_START and k != chunk:
                chunk = k
                self.prefix = self.focus(max(2, int(
                    iterations * (1 - FOCUS_START) / FOCUS_CHUNKS / 8)))
            saved = list(self.prefix)
            if it % 2 == 0:
                self.prefix = []
            self.iterate(it)
            self.prefix = saved


def main():
    inp = json.load(open(sys.argv[1]))
    src = open(sys.argv[2]).read()
    n = int(sys.argv[3])
    peer = Peer(inp, src, int(sys.argv[4]))
    w0, c0 = time.perf_counter(), time.process_time()
    peer.run(n)
    w1, c1 = time.perf_counter(), time.process_time()
    b = peer.best_child(peer.root)
    print(json.dumps({"iterations": n, "model_calls": peer.calls,
                      "seconds": w1 - w0, "cpu_seconds": c1 - c0,
                      "nodes": peer.nodes,
                      "best": None if b is None else b.action,
                      "plan": peer.plan()}))


if __name__ == "__main__":
    main()
