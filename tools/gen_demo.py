#!/usr/bin/env python3
"""Writes the demo project's history.jsonl and drafts.jsonl.

The history is drawn from a fixed generative process with a fixed seed, so
the files are reproducible: `python3 tools/gen_demo.py fixtures/demo`.
Engagement carries the patterns an operator would find in real data:
time of day and weekday per platform, topic affinity per front, audience
interest that drifts (launch interest grows towards the launch), fatigue
after bursts on one front and after one topic everywhere, links that cost
reach on X, and multiplicative noise.
"""
import datetime as dt
import json
import math
import random
import sys
from zoneinfo import ZoneInfo

TZ = ZoneInfo("Europe/Berlin")
SEED = 20261201
FIRST_DAY = dt.date(2026, 10, 5)	# a Monday; eight weeks before the start
LAST_DAY = dt.date(2026, 11, 30)

# Per-front audience size (median impressions at a neutral hour) and the
# rates of each interaction per impression.
FRONTS = {
    "x":        dict(base=2600, like=0.011, repost=0.0022, reply=0.0015, click=0.007),
    "linkedin": dict(base=1900, like=0.018, repost=0.0012, reply=0.0020, click=0.010),
    "mastodon": dict(base=700,  like=0.030, repost=0.0120, reply=0.0040, click=0.012),
    "bluesky":  dict(base=950,  like=0.025, repost=0.0060, reply=0.0030, click=0.010),
}

HOUR = {
    "x": [0.25, 0.2, 0.15, 0.12, 0.12, 0.18, 0.35, 0.6, 0.9, 1.0, 0.95, 0.9,
          1.1, 1.05, 0.85, 0.8, 0.85, 0.95, 1.15, 1.2, 1.1, 0.9, 0.65, 0.4],
    "linkedin": [0.1, 0.08, 0.06, 0.05, 0.05, 0.1, 0.3, 0.7, 1.25, 1.3, 1.15,
                 1.0, 1.05, 0.95, 0.85, 0.8, 0.8, 0.7, 0.55, 0.4, 0.3, 0.22,
                 0.16, 0.12],
    "mastodon": [0.45, 0.35, 0.25, 0.2, 0.2, 0.25, 0.35, 0.5, 0.7, 0.8, 0.85,
                 0.9, 0.95, 0.95, 0.9, 0.9, 0.95, 1.0, 1.1, 1.2, 1.3, 1.25,
                 1.0, 0.7],
    "bluesky": [0.4, 0.3, 0.22, 0.18, 0.18, 0.22, 0.35, 0.55, 0.75, 0.85, 0.9,
                0.95, 1.15, 1.05, 0.9, 0.85, 0.9, 1.0, 1.2, 1.3, 1.2, 1.05,
                0.8, 0.55],
}

WEEKDAY = {	# Monday first
    "x":        [1.0, 1.05, 1.05, 1.0, 0.9, 0.7, 0.75],
    "linkedin": [1.1, 1.15, 1.1, 1.05, 0.85, 0.35, 0.3],
    "mastodon": [0.95, 1.0, 1.0, 1.0, 0.95, 1.05, 1.1],
    "bluesky":  [1.0, 1.0, 1.0, 1.0, 0.95, 0.95, 1.05],
}

TOPICS = ["launch", "release", "engineering", "tutorial", "hiring",
          "community", "pricing", "events", "security"]

AFFINITY = {	# topic -> (x, linkedin, mastodon, bluesky)
    "launch":      (1.4, 1.3, 0.9, 1.1),
    "release":     (1.1, 0.9, 1.3, 1.1),
    "engineering": (1.1, 0.8, 1.5, 1.3),
    "tutorial":    (0.9, 0.8, 1.3, 1.0),
    "hiring":      (0.6, 1.6, 0.7, 0.7),
    "community":   (0.9, 0.8, 1.2, 1.4),
    "pricing":     (0.8, 1.0, 0.5, 0.7),
    "events":      (1.0, 1.3, 0.8, 0.9),
    "security":    (1.2, 1.0, 1.4, 1.1),
}
FRONT_INDEX = {"x": 0, "linkedin": 1, "mastodon": 2, "bluesky": 3}

# Audience interest per topic: hidden in the data, what a model must infer.
INTEREST = {"launch": 1.0, "release": 1.0, "engineering": 1.1,
            "tutorial": 1.0, "hiring": 0.8, "community": 0.95,
            "pricing": 0.7, "events": 0.9, "security": 1.2}

# How often each front posts each topic (weights).
MIX = {
    "x":        dict(launch=3, release=3, engineering=3, tutorial=2, hiring=1,
                     community=2, pricing=1, events=2, security=1),
    "linkedin": dict(launch=3, release=1, engineering=1, tutorial=1, hiring=4,
                     community=1, pricing=2, events=3, security=1),
    "mastodon": dict(launch=1, release=3, engineering=4, tutorial=3, hiring=1,
                     community=2, pricing=1, events=1, security=2),
    "bluesky":  dict(launch=2, release=2, engineering=3, tutorial=2, hiring=1,
                     community=3, pricing=1, events=1, security=1),
}

# Posts per day (weekday, weekend) as (min, max).
CADENCE = {
    "x": ((1, 3), (0, 1)),
    "linkedin": ((0, 2), (0, 0)),
    "mastodon": ((1, 2), (0, 1)),
    "bluesky": ((1, 2), (0, 1)),
}

# Burst days: many posts on one front in a few hours.
BURSTS = {
    dt.date(2026, 10, 14): ("x", 10, ["events", "community", "events", "engineering", "events"]),
    dt.date(2026, 11, 10): ("x", 9, ["launch", "launch", "release", "launch", "tutorial", "launch"]),
    dt.date(2026, 11, 11): ("mastodon", 11, ["release", "engineering", "tutorial", "release"]),
}

PHRASES = {
    "launch": ["Tidewater 2.0 beta is open", "the new sync engine lands soon",
               "offline-first sync without the merge headaches",
               "what changes for teams moving from 1.x",
               "the launch checklist we run before every release"],
    "release": ["1.9.4 fixes the reconnect storm", "1.9.5 ships faster cold starts",
                "new SQLite adapter in 1.9.6", "release notes for 1.9.7",
                "2.0.0-rc1 is tagged"],
    "engineering": ["how we made conflict resolution deterministic",
                    "benchmarks: 40% less bandwidth with delta frames",
                    "why we moved the WAL reader off the main thread",
                    "a CRDT we almost shipped and why we didn't",
                    "property tests found a bug in our clock merge"],
    "tutorial": ["sync a React app offline in 20 lines",
                 "migrating from polling to live queries",
                 "setting up end-to-end encryption for a workspace",
                 "debugging replication lag with the inspector"],
    "hiring": ["we're hiring a senior Rust engineer in Berlin",
               "join our developer relations team",
               "open role: SRE, remote within the EU",
               "what onboarding looks like in your first month"],
    "community": ["thank you to our 300 contributors",
                  "community call this Thursday", "show us what you built",
                  "our favourite plugin of the month"],
    "pricing": ["new pricing for small teams", "the free tier now covers 5 devices",
                "startups get the team plan free for a year"],
    "events": ["see you at DevConf Berlin", "our talk at the local-first meetup",
               "slides from the sync workshop", "join the launch webinar"],
    "security": ["advisory: update to 1.9.5 if you self-host",
                 "our threat model, published", "third-party audit results are out"],
}
TAGS = {"launch": "#localfirst", "release": "#release", "engineering": "#rustlang",
        "tutorial": "#webdev", "hiring": "#hiring", "community": "#opensource",
        "pricing": "#startups", "events": "#berlin", "security": "#infosec"}
LINKS = {"launch": "https://tidewater.dev/2.0", "release": "https://tidewater.dev/changelog",
         "engineering": "https://tidewater.dev/blog", "tutorial": "https://docs.tidewater.dev",
         "hiring": "https://tidewater.dev/jobs", "community": "https://github.com/tidewater/tidewater",
         "pricing": "https://tidewater.dev/pricing", "events": "https://tidewater.dev/events",
         "security": "https://tidewater.dev/security"}


def launch_drift(day):
    """Interest in launch news grows as the launch comes closer."""
    weeks = (day - FIRST_DAY).days / 7.0
    return 0.85 + 0.09 * weeks


def pick_hour(rng, front, weekend):
    # The team posts mostly in office hours, sometimes in the evening, and
    # now and then at a bad hour — which is what makes the hour effect
    # visible in the data.
    r = rng.random()
    if r < 0.62:
        return rng.randint(8, 17)
    if r < 0.9:
        return rng.randint(18, 22)
    return rng.choice([6, 7, 23, 0, 5])


def make_text(rng, front, topic):
    phrase = rng.choice(PHRASES[topic])
    text = phrase[0].upper() + phrase[1:]
    link = rng.random() < (0.55 if topic in ("launch", "release", "tutorial", "security") else 0.3)
    ntags = {"x": rng.choice([0, 0, 1, 2]), "linkedin": rng.choice([0, 1, 2, 3]),
             "mastodon": rng.choice([1, 2, 3]), "bluesky": rng.choice([0, 1])}[front]
    if front == "linkedin":
        text += ". " + rng.choice(["Here is what we learned.", "More in the comments.",
                                   "We'd love your thoughts.", "Read the full story below."])
    elif front == "mastodon":
        text += ". " + rng.choice(["Details inside.", "Feedback welcome!", "Boosts appreciated.",
                                   "Source is on GitHub."])
    else:
        text += rng.choice([".", "!", " \u2192", ""])
    if link:
        text += " " + LINKS[topic]
    tags = [TAGS[topic], "#tidewater", "#sync"][:ntags]
    if tags:
        text += " " + " ".join(tags)
    return text, link, len(tags)


def engagement(rng, front, topic, when, posts, link, ntags):
    """Metrics for one post given every earlier post (for fatigue)."""
    p = FRONTS[front]
    local = when.astimezone(TZ)
    interest = INTEREST[topic] * (launch_drift(local.date()) if topic == "launch" else 1.0)
    reach = (p["base"] * HOUR[front][local.hour] * WEEKDAY[front][local.weekday()]
             * AFFINITY[topic][FRONT_INDEX[front]] * interest)
    load = 0.0
    topic_load = 0.0
    for (w, f, t) in posts:
        hours = (when - w).total_seconds() / 3600.0
        if hours <= 0 or hours > 72:
            continue
        if f == front:
            load += math.exp(-hours / 6.0)
        if t == topic:
            topic_load += math.exp(-hours / 24.0)
    reach /= (1.0 + 0.45 * load) * (1.0 + 0.15 * topic_load)
    if link and front == "x":
        reach *= 0.8
    if front == "mastodon":
        reach *= 1.0 + 0.08 * min(ntags, 3)
    impressions = reach * math.exp(rng.gauss(0.0, 0.28))
    quality = interest * math.exp(rng.gauss(0.0, 0.2))

    def count(rate):
        return max(0, int(round(impressions * rate * quality * math.exp(rng.gauss(0.0, 0.15)))))

    clicks = count(p["click"] * (2.5 if link else 0.4))
    return {"impressions": int(round(impressions)), "likes": count(p["like"]),
            "reposts": count(p["repost"]), "replies": count(p["reply"]), "clicks": clicks}


def schedule(rng):
    """(utc datetime, front, topic) for every past post, in time order."""
    out = []
    day = FIRST_DAY
    while day <= LAST_DAY:
        weekend = day.weekday() >= 5
        for front in FRONTS:
            lo, hi = CADENCE[front][1 if weekend else 0]
            n = rng.randint(lo, hi)
            used = set()
            for _ in range(n):
                hour = pick_hour(rng, front, weekend)
                if hour in used:
                    continue
                used.add(hour)
                topics = list(MIX[front])
                topic = rng.choices(topics, weights=[MIX[front][t] for t in topics])[0]
                local = dt.datetime(day.year, day.month, day.day, hour,
                                    rng.randint(0, 59), tzinfo=TZ)
                out.append((local.astimezone(dt.timezone.utc), front, topic))
        if day in BURSTS:
            front, hour, topics = BURSTS[day]
            minute = 0
            for topic in topics:
                local = dt.datetime(day.year, day.month, day.day, hour + minute // 60,
                                    minute % 60, tzinfo=TZ)
                out.append((local.astimezone(dt.timezone.utc), front, topic))
                minute += rng.randint(35, 60)
        day += dt.timedelta(days=1)
    out.sort(key=lambda e: (e[0], e[1]))
    return out


def history(rng):
    rows = []
    posts = []
    for i, (when, front, topic) in enumerate(schedule(rng), 1):
        text, link, ntags = make_text(rng, front, topic)
        metrics = engagement(rng, front, topic, when, posts, link, ntags)
        posts.append((when, front, topic))
        topics = [topic]
        if topic in ("launch", "release") and rng.random() < 0.3:
            topics.append("engineering")
        rows.append({"id": "h%d" % i, "front": front,
                     "posted_at": when.astimezone(TZ).isoformat(),
                     "text": text, "topics": topics, "metrics": metrics})
    return rows


DRAFTS = [
    ("d1", ["launch"], None,
     "Tidewater 2.0 is out \U0001F680 Offline-first sync for any SQLite or Postgres app, "
     "with conflict resolution you can read. https://tidewater.dev/2.0 #localfirst"),
    ("d2", ["launch"], ["linkedin", "mastodon"],
     "Today we are releasing Tidewater 2.0.\n\nThree years ago we set out to make offline-first "
     "sync boring: something a team adds in an afternoon and then forgets about. 2.0 is the "
     "first version where we think that is true.\n\nWhat changed:\n\u2022 A new sync engine "
     "that sends deltas instead of rows (40% less bandwidth in our benchmarks)\n\u2022 "
     "Deterministic conflict resolution you can read and test\n\u2022 End-to-end encryption "
     "per workspace, on by default\n\u2022 Adapters for SQLite, Postgres and IndexedDB\n\n"
     "Thank you to the 300+ contributors and the teams who ran the beta in production and "
     "told us, patiently, everything that was wrong with it.\n\nThe migration guide for 1.x "
     "users is in the docs. Questions welcome below. https://tidewater.dev/2.0"),
    ("d3", ["engineering"], ["x", "bluesky", "mastodon"],
     "How does 2.0 resolve conflicts? Every write carries a hybrid logical clock, merges are "
     "pure functions of (state, op), and we property-test the merge against a model with "
     "10\u2077 random histories. \U0001F469\u200D\U0001F4BB\U0001F44B\U0001F3FD Full write-up "
     "with diagrams, benchmarks and the three bugs the tests found before users did: "
     "https://tidewater.dev/blog/deterministic-merges"),
    ("d4", ["launch"], ["x", "mastodon", "bluesky"],
     "Tidewater 2.0 \u3092\u30EA\u30EA\u30FC\u30B9\u3057\u307E\u3057\u305F\uFF01"
     "\u30AA\u30D5\u30E9\u30A4\u30F3\u30D5\u30A1\u30FC\u30B9\u30C8\u306E\u540C\u671F\u30A8"
     "\u30F3\u30B8\u30F3\u304C\u65B0\u3057\u304F\u306A\u308A\u3001\u5E2F\u57DF\u5E45\u3092"
     "\u7D04\u56DB\u5272\u524A\u6E1B\u3057\u3001\u7AF6\u5408\u89E3\u6C7A\u306F\u6C7A\u5B9A"
     "\u7684\u3067\u8AAD\u307F\u3084\u3059\u304F\u306A\u308A\u307E\u3057\u305F\u3002"
     "\u30EF\u30FC\u30AF\u30B9\u30DA\u30FC\u30B9\u3054\u3068\u306E\u30A8\u30F3\u30C9\u30C4"
     "\u30FC\u30A8\u30F3\u30C9\u6697\u53F7\u5316\u3082\u6A19\u6E96\u3067\u6709\u52B9\u3067"
     "\u3059\u3002\u65E5\u672C\u8A9E\u30C9\u30AD\u30E5\u30E1\u30F3\u30C8\u3082\u516C\u958B"
     "\u4E2D\u3067\u3059\u3002\u30B3\u30DF\u30E5\u30CB\u30C6\u30A3\u306E\u7FFB\u8A33\u8005"
     "\u306E\u7686\u3055\u3093\u3001\u3042\u308A\u304C\u3068\u3046\u3054\u3056\u3044\u307E"
     "\u3059\uFF01\u79FB\u884C\u30AC\u30A4\u30C9\u3001\u30D9\u30F3\u30C1\u30DE\u30FC\u30AF"
     "\u3001\u8A2D\u5B9A\u4F8B\u306F\u3053\u3061\u3089\u304B\u3089\u3054\u89A7\u304F\u3060"
     "\u3055\u3044\u3002\u3054\u8CEA\u554F\u3084\u3054\u610F\u898B\u306F\u3044\u3064\u3067"
     "\u3082\u6B53\u8FCE\u3057\u307E\u3059\u3002 https://tidewater.dev/ja/2.0"),
    ("d5", ["hiring"], ["linkedin", "x"],
     "We're hiring a senior Rust engineer in Berlin (or remote within the EU) to work on the "
     "sync engine: replication, storage, and the clock that keeps it all honest. Small team, "
     "real ownership, no on-call heroics. https://tidewater.dev/jobs/rust #hiring #rustlang"),
    ("d6", ["pricing"], ["linkedin", "x", "bluesky"],
     "New with 2.0: the free tier covers 5 devices per workspace, and startups under two "
     "years old get the team plan free for a year. https://tidewater.dev/pricing"),
    ("d7", ["tutorial"], None,
     "Tutorial: add offline sync to a React app in 20 lines, with live queries and no polling. "
     "docs.tidewater.dev/guides/react-offline #webdev"),
    ("d8", ["security"], ["x", "mastodon", "bluesky"],
     "Security advisory TW-2026-004: self-hosted relays before 1.9.8 accept replayed auth "
     "tokens within a 30 s window. 2.0 and 1.9.8 fix it. Details and mitigation: "
     "https://tidewater.dev/security/TW-2026-004"),
    ("d9", ["community"], ["mastodon", "bluesky", "x"],
     "300 contributors from 41 countries \U0001F468\u200D\U0001F469\u200D\U0001F467\u200D"
     "\U0001F466\U0001F1E9\U0001F1EA\U0001F1EF\U0001F1F5\U0001F1E7\U0001F1F7 Thank you, "
     "every one of you. The 2.0 credits page lists you all."),
    ("d10", ["events"], ["linkedin", "x", "mastodon"],
     "Berlin: local-first meetup on Thursday 3 December, 19:00 at c-base. Talks on sync "
     "engines, CRDTs and offline UX, then pizza. Free, but please register: "
     "https://tidewater.dev/events/berlin-dec #berlin #localfirst"),
    ("d11", ["launch"], ["x", "mastodon", "bluesky"],
     "Tidewater 2.0 \u6B63\u5F0F\u53D1\u5E03\uFF1A\u5168\u65B0\u7684\u79BB\u7EBF\u4F18\u5148"
     "\u540C\u6B65\u5F15\u64CE\uFF0C\u5E26\u5BBD\u51CF\u5C11\u56DB\u6210\uFF0C\u51B2\u7A81"
     "\u89E3\u51B3\u53EF\u9884\u6D4B\u3001\u53EF\u6D4B\u8BD5\u3002\u611F\u8C22\u793E\u533A"
     "\u7684\u6BCF\u4E00\u4F4D\u8D21\u732E\u8005\uFF01 https://tidewater.dev/zh/2.0"),
    ("d12", ["launch"], ["x", "mastodon", "bluesky"],
     "Tidewater 2.0 \uCD9C\uC2DC! \uC624\uD504\uB77C\uC778 \uC6B0\uC120 \uB3D9\uAE30\uD654 "
     "\uC5D4\uC9C4\uC774 \uC0C8\uB85C\uC6CC\uC84C\uC2B5\uB2C8\uB2E4. \uD55C\uAD6D\uC5B4 "
     "\uBB38\uC11C\uB3C4 \uC900\uBE44\uB418\uC5B4 \uC788\uC2B5\uB2C8\uB2E4. "
     "https://tidewater.dev/ko/2.0"),
    ("d13", ["community"], ["mastodon"],
     "Thanks @anna@fosstodon.org and @kenji@hachyderm.io for the IndexedDB adapter patches "
     "that made it into 2.0 \U0001F64F\U0001F3FB Open source at its best. #opensource "
     "#localfirst"),
    ("d14", ["community"], None,
     "Caf\u0065\u0301 chat, Friday 16:00 CET: bring your questions about migrating to 2.0, "
     "the core team will be there. Link in the docs. \u2615"),
    ("d15", ["release"], ["mastodon", "bluesky", "x"],
     "2.0.0 changelog highlights: delta frames, HLC merges, E2EE by default, IndexedDB "
     "adapter, 3\u00D7 faster cold start. #release #localfirst #rustlang #opensource"),
    ("d16", ["tutorial"], ["x", "mastodon", "linkedin"],
     "Migrating from 1.x? Two guides: the quick path https://docs.tidewater.dev/migrate and "
     "the deep dive for custom adapters https://docs.tidewater.dev/migrate/adapters"),
    ("d17", ["engineering"], ["linkedin", "mastodon"],
     "Why we rewrote the sync engine for 2.0 \u2014 a long read.\n\n" +
     ("Version 1 sent whole rows on every change. That was simple and it was correct, "
      "but on mobile networks it meant megabytes for a one-character edit. ") * 3 +
     "\n\nIn 2.0 every change becomes a delta frame: the operation, its hybrid logical "
     "clock and a checksum of the state it applies to. Peers exchange frames, not rows. "
     "When a frame arrives out of order it waits; when its checksum does not match, the "
     "peer asks for the missing range instead of guessing.\n\nThe hard part was not the "
     "protocol, it was proving the merge deterministic. We wrote a reference model in 200 "
     "lines, generated ten million random histories, and compared the engine against the "
     "model after every step. It found three bugs, one of which had been in 1.x for two "
     "years.\n\nThe result: 40% less bandwidth on our benchmark suite, merges you can "
     "replay in a test, and a protocol small enough to document on one page. The page is "
     "here: https://tidewater.dev/blog/sync-engine-2"),
    ("d18", ["engineering"], ["bluesky", "mastodon"],
     "Thread-sized explainer: what a hybrid logical clock is and why 2.0 uses one. A "
     "wall clock alone can go backwards (NTP, sleep, a user changing the time); a logical "
     "counter alone says nothing about when. An HLC keeps both: the physical time it last "
     "saw and a counter that breaks ties, so every event gets a timestamp that is close to "
     "real time and still totally ordered. Merges compare HLCs, never wall clocks."),
    ("d19", ["engineering"], ["x", "mastodon", "bluesky"],
     "Benchmark: syncing a 50k-row workspace over a throttled 3G link. 1.9: 14.2 MB, 38 s. "
     "2.0: 8.1 MB, 19 s. Method and scripts: https://tidewater.dev/bench"),
    ("d20", ["release"], None,
     "Upgrading to 2.0 in three steps: 1\uFE0F\u20E3 bump the client, 2\uFE0F\u20E3 run "
     "`tidewater migrate`, 3\uFE0F\u20E3 redeploy your relay. That's it."),
    ("d21", ["events"], ["x", "linkedin", "bluesky"],
     "Launch webinar on Wednesday at 17:00 CET: a live demo of 2.0, the migration path, "
     "and your questions. https://tidewater.dev/webinar?utm_source=social&utm_campaign=2-0"),
    ("d22", ["community"], ["bluesky", "mastodon", "x"],
     "Built something with Tidewater? Show us \U0001F64C\U0001F3FF We'll feature our favourite "
     "projects in the January newsletter."),
    ("d23", ["tutorial"], ["mastodon", "bluesky"],
     "Tip: `tidewater inspect --lag` shows replication lag per peer, live. Great for "
     "finding the one laptop that has been offline since Tuesday."),
    ("d24", ["hiring"], ["linkedin"],
     "Our developer relations team is growing. If you like writing docs people actually "
     "read, speaking at meetups and turning user pain into roadmap items, talk to us. "
     "Berlin or remote (EU). https://tidewater.dev/jobs/devrel #hiring #devrel"),
]


def drafts():
    rows = []
    for (did, topics, fronts, text) in DRAFTS:
        row = {"id": did, "text": text, "topics": topics}
        if fronts is not None:
            row["fronts"] = fronts
        rows.append(row)
    return rows


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "fixtures/demo"
    rng = random.Random(SEED)
    write_jsonl(out + "/history.jsonl", history(rng))
    write_jsonl(out + "/drafts.jsonl", drafts())


if __name__ == "__main__":
    main()
