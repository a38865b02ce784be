#!/usr/bin/python3
"""gen_projects — writes the planner benchmark's projects (bench_search.c)
into OUTDIR, the same bytes on every run:

  small-1..3  two fronts, five drafts, seven two-hour slots, deterministic;
              every rule binds: quiet hours cover the best hours, daily
              caps and gaps stop the fronts from posting every slot, one
              draft is too long for front b, one may go to front b only.
              bench_search finds the optimum by enumerating every plan.
  hidden      two fronts, seven drafts, 24 hourly slots; the interest in
              each of three topics is hidden (drawn by sample_hidden) and
              rewards are noisy.
  scale       300 drafts x 5 fronts x 168 hourly slots (a week), hidden
              interest in ten topics, noisy rewards and value().
  agency      an agency's week: 300 drafts x 5 fronts x 168 hourly slots,
              as scale, but drafts as an operator writes them: a tenth
              too long for the Bluesky fronts, a tenth for some fronts
              only, so legal_actions (every pair not used yet) proposes
              posts the rules never allow.
  big         two weeks of a large account: 1,000 drafts x 12 fronts x
              672 half-hour slots, drafts as in agency.

Every project runs one model (MODEL below) with its tables written in:
reward = base(draft, front) x hour(front, slot) x interest(topic)
/ (1 + 0.5 x fatigue(front)), fatigue rising by one per post on the front
and halving with every slot. Fatigue is per front, so the order of posts
within one slot never matters and the search's canonical same-slot order
loses no plan.

usage: gen_projects.py OUTDIR [NAME,NAME...]
"""
import json
import os
import random
import sys

MODEL = '''# Benchmark world model (bench/gen_projects.py writes its tables).
NF = %(nf)d
NSLOTS = %(nslots)d
FRONT_IDS = %(front_ids)r
PAIRS = %(pairs)r	# (draft id, front index, base, topic)
HOUR = %(hour)r	# per front, per slot
TOPIC_MU = %(topic_mu)r
TOPIC_SD = %(topic_sd)r
NOISE_SD = %(noise_sd)r
CAP = %(cap)r	# posts a front can still make per remaining day, for value()
DAY_SLOTS = %(day_slots)d
FATIGUE = 0.5
DECAY = 0.5

ACTS = tuple(("post", d, FRONT_IDS[f]) for (d, f, b, t) in PAIRS)
INDEX = {a: i for i, a in enumerate(ACTS)}
WAIT = ("wait",)
MEAN = [0.0] * NF
NPAIRS = [0] * NF
for (d, f, b, t) in PAIRS:
    MEAN[f] += b
    NPAIRS[f] += 1
MEAN = [MEAN[f] / NPAIRS[f] if NPAIRS[f] else 0.0 for f in range(NF)]
START = (0, frozenset(), (0.0,) * NF, tuple(1.0 for m in TOPIC_MU))


def initial_state(ctx):
    return START


def sample_hidden(ctx, rng):
    if TOPIC_SD == 0:
        return START
    interest = tuple(exp(m + TOPIC_SD * rng.gauss(0.0, 1.0)) for m in TOPIC_MU)
    return (0, frozenset(), START[2], interest)


def legal_actions(state):
    posted = state[1]
    return [WAIT] + [a for i, a in enumerate(ACTS) if i not in posted]


def apply(state, action, rng):
    slot, posted, fat, interest = state
    if action[0] == "wait":
        return (slot + 1, posted, tuple(x * DECAY for x in fat),
                interest), 0.0
    i = INDEX[action]
    if i in posted:
        return state, 0.0
    d, f, base, t = PAIRS[i]
    r = base * HOUR[f][slot] * interest[t] / (1.0 + FATIGUE * fat[f])
    if NOISE_SD > 0:
        r *= exp(rng.gauss(0.0, NOISE_SD) - NOISE_SD * NOISE_SD / 2.0)
    fl = list(fat)
    fl[f] += 1.0
    return (slot, posted | {i}, tuple(fl), interest), r
''' + '''

def is_terminal(state):
    return state[0] >= NSLOTS
'''

VALUE = '''

def value(state):
    # What the remaining days still allow per front, at a typical rate.
    left = NSLOTS - state[0]
    days = left / DAY_SLOTS
    total = 0.0
    for f in range(NF):
        total += min(NPAIRS[f], CAP[f] * days) * MEAN[f] * 0.5
    return total
'''


def text_of(rng, n, tag):
    words = ["sync", "offline", "merge", "release", "notes", "engine",
             "tests", "docs", "team", "build", "patch", "clock"]
    out = tag
    while len(out) < n:
        out += " " + rng.choice(words)
    return out[:n]


def write(dirname, name, start, slot_minutes, fronts, drafts, model):
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, "fronts.json"), "w") as f:
        json.dump({"name": name, "timezone": "UTC", "start": start,
                   "slot_minutes": slot_minutes,
                   "horizon_slots": model["nslots"],
                   "fronts": fronts}, f, indent=1)
    with open(os.path.join(dirname, "drafts.jsonl"), "w") as f:
        for d in drafts:
            f.write(json.dumps(d) + "\n")
    open(os.path.join(dirname, "history.jsonl"), "w").close()
    open(os.path.join(dirname, "rules.md"), "w").write(
        "# %s\n\nA benchmark project (bench/gen_projects.py).\n" % name)
    src = MODEL % dict(model, day_slots=model.get("day_slots", 24))
    if model.get("value"):
        src += VALUE
    open(os.path.join(dirname, "model.py"), "w").write(src)


def hours(start_hour, slot_minutes, nslots):
    return [(start_hour * 60 + k * slot_minutes) // 60 % 24
            for k in range(nslots)]


def small(outdir, k):
    rng = random.Random(1000 + k)
    nslots = 7
    hs = hours(16, 120, nslots)	# 16 18 20 22 0 2 4
    fronts = [
        {"id": "a", "platform": "mastodon", "account": "@a@bench.example",
         "instance": "https://bench.example",
         "limits": {"max_posts_per_day": 2, "min_gap_minutes": 120,
                    "quiet_hours": [23, 3]}},
        {"id": "b", "platform": "bluesky", "account": "b.bench.example",
         "handle": "b.bench.example",
         "limits": {"max_posts_per_day": 1, "min_gap_minutes": 240,
                    "quiet_hours": [21, 1], "max_length": 60}},
    ]
    drafts = []
    for i in range(5):
        d = {"id": "d%d" % (i + 1), "topics": ["t%d" % (i % 2)]}
        d["text"] = text_of(rng, 100 if i == 3 else 40, "post %d" % (i + 1))
        if i == 4:
            d["fronts"] = ["b"]
        drafts.append(d)
    # The best hours are the quiet ones: quiet hours bind.
    peak = {0: 0, 1: 22}
    hour = []
    for f in range(2):
        hour.append([round(1.6 - 0.12 * min(abs(h - peak[f]),
                                            24 - abs(h - peak[f])), 3)
                     for h in hs])
    pairs = []
    for i, d in enumerate(drafts):
        for f in range(2):
            pairs.append(("d%d" % (i + 1), f,
                          round(rng.uniform(5, 20), 2), 0))
    write(os.path.join(outdir, "small-%d" % k), "small-%d" % k,
          "2026-12-01T16:00:00Z", 120, fronts, drafts,
          {"nf": 2, "nslots": nslots, "front_ids": ["a", "b"],
           "pairs": pairs, "hour": hour, "topic_mu": [0.0],
           "topic_sd": 0.0, "noise_sd": 0.0, "cap": [2, 1]})


def hidden(outdir):
    rng = random.Random(2000)
    nslots = 24
    hs = hours(6, 60, nslots)
    fronts = [
        {"id": "a", "platform": "mastodon", "account": "@a@bench.example",
         "instance": "https://bench.example",
         "limits": {"max_posts_per_day": 3, "min_gap_minutes": 180,
                    "quiet_hours": [22, 7]}},
        {"id": "b", "platform": "bluesky", "account": "b.bench.example",
         "handle": "b.bench.example",
         "limits": {"max_posts_per_day": 2, "min_gap_minutes": 300,
                    "quiet_hours": [21, 8]}},
    ]
    drafts = [{"id": "d%d" % (i + 1), "text": text_of(rng, 50, "post"),
               "topics": ["t%d" % (i % 3)]} for i in range(7)]
    hour = [[round(0.6 + 0.6 * (1 - abs(h - pk) / 12.0), 3) for h in hs]
            for pk in (12, 18)]
    pairs = [(d["id"], f, round(rng.uniform(5, 20), 2), i % 3)
             for i, d in enumerate(drafts) for f in range(2)]
    write(os.path.join(outdir, "hidden"), "hidden", "2026-12-01T06:00:00Z",
          60, fronts, drafts,
          {"nf": 2, "nslots": nslots, "front_ids": ["a", "b"],
           "pairs": pairs, "hour": hour, "topic_mu": [0.0, -0.2, 0.1],
           "topic_sd": 0.5, "noise_sd": 0.3, "cap": [3, 2]})


def scale(outdir):
    rng = random.Random(3000)
    nslots = 168
    hs = hours(0, 60, nslots)
    ids = ["a", "b", "c", "d", "e"]
    plat = ["mastodon", "bluesky", "mastodon", "bluesky", "mastodon"]
    fronts = []
    for f in range(5):
        fr = {"id": ids[f], "platform": plat[f],
              "account": "@%s@bench.example" % ids[f],
              "limits": {"max_posts_per_day": 3 + f % 3,
                         "min_gap_minutes": 60 * (1 + f % 4),
                         "quiet_hours": [22 + f % 2, 6 + f % 3]}}
        if plat[f] == "mastodon":
            fr["instance"] = "https://bench.example"
        else:
            fr["handle"] = "%s.bench.example" % ids[f]
        fronts.append(fr)
    drafts = [{"id": "d%d" % (i + 1), "text": text_of(rng, 60, "post"),
               "topics": ["t%d" % (i % 10)]} for i in range(300)]
    pk = [9, 12, 15, 18, 20]
    hour = [[round(0.5 + 0.7 * (1 - min(abs(h - pk[f]),
                                        24 - abs(h - pk[f])) / 12.0), 3)
             for h in hs] for f in range(5)]
    pairs = [(d["id"], f, round(rng.uniform(2, 20), 2), i % 10)
             for i, d in enumerate(drafts) for f in range(5)]
    write(os.path.join(outdir, "scale"), "scale", "2026-12-01T00:00:00Z",
          60, fronts, drafts,
          {"nf": 5, "nslots": nslots, "front_ids": ids, "pairs": pairs,
           "hour": hour,
           "topic_mu": [round(rng.uniform(-0.3, 0.3), 3) for _ in range(10)],
           "topic_sd": 0.4, "noise_sd": 0.3,
           "cap": [3 + f % 3 for f in range(5)], "value": True})


def operator(outdir, name, seed, nf, nd, nslots, slot_minutes):
    """agency and big: nf fronts, nd drafts, nslots slots from midnight."""
    rng = random.Random(seed)
    ids = ["f%d" % (f + 1) for f in range(nf)]
    plat = ["mastodon" if f % 2 == 0 else "bluesky" for f in range(nf)]
    fronts = []
    for f in range(nf):
        fr = {"id": ids[f], "platform": plat[f],
              "account": "@%s@bench.example" % ids[f],
              "limits": {"max_posts_per_day": 3 + f % 4,
                         "min_gap_minutes": 60 * (1 + f % 3),
                         "quiet_hours": [22 + f % 2, 6 + f % 3]}}
        if plat[f] == "mastodon":
            fr["instance"] = "https://bench.example"
        else:
            fr["handle"] = "%s.bench.example" % ids[f]
            fr["limits"]["max_length"] = 300
        fronts.append(fr)
    ntopics = 10
    drafts = []
    for i in range(nd):
        long_ = i % 10 == 3
        d = {"id": "d%d" % (i + 1), "topics": ["t%d" % (i % ntopics)],
             "text": text_of(rng, 400 if long_ else 60, "post")}
        if i % 10 == 7:
            d["fronts"] = sorted(rng.sample(ids, max(1, nf // 3)))
        drafts.append(d)
    hs = hours(0, slot_minutes, nslots)
    pk = [9 + (12 * f) // nf for f in range(nf)]
    hour = [[round(0.5 + 0.7 * (1 - min(abs(h - pk[f]),
                                        24 - abs(h - pk[f])) / 12.0), 3)
             for h in hs] for f in range(nf)]
    pairs = [(d["id"], f, round(rng.uniform(2, 20), 2), i % ntopics)
             for i, d in enumerate(drafts) for f in range(nf)]
    write(os.path.join(outdir, name), name, "2026-12-01T00:00:00Z",
          slot_minutes, fronts, drafts,
          {"nf": nf, "nslots": nslots, "front_ids": ids, "pairs": pairs,
           "hour": hour,
           "topic_mu": [round(rng.uniform(-0.3, 0.3), 3)
                        for _ in range(ntopics)],
           "topic_sd": 0.4, "noise_sd": 0.3,
           "cap": [3 + f % 4 for f in range(nf)], "value": True,
           "day_slots": 24 * 60 // slot_minutes})


def main():
    out = sys.argv[1]
    only = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    want = lambda name: only is None or name in only
    for k in (1, 2, 3):
        if want("small-%d" % k):
            small(out, k)
    if want("hidden"):
        hidden(out)
    if want("scale"):
        scale(out)
    if want("agency"):
        operator(out, "agency", 4000, 5, 300, 168, 60)
    if want("big"):
        operator(out, "big", 5000, 12, 1000, 672, 30)


if __name__ == "__main__":
    main()
