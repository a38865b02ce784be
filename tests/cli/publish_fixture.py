#!/usr/bin/python3
"""Writes a small project and plans for tests/cli/test_publish.sh.

  publish_fixture.py project DIR PORT [CAP]
      a project whose slot 0 began three hours ago (so slots 0-3 are due),
      no quiet hours or gaps (the tests must not depend on the time of
      day), daily cap CAP (default 5) on every front, and the four
      publishing channels (and Reddit through Composio) pointed at the
      fake server on PORT.
  publish_fixture.py plan DIR OUT FRONT:DRAFT:SLOT ...
      a PLAN.json (the `fronts plan --json` object) with those posts.
  publish_fixture.py both DIR PORT CAP FRONT:DRAFT:SLOT ...
      the project, and DIR/plan.json.
With FIXTURE_THREAD=1 in the environment the project also has draft d8,
a thread of three parts whose first and last carry an image
(tests/data/media/gps.jpg, which holds a GPS position and a camera make).
"""
import calendar
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "servers"))
import testclock  # noqa: E402

DRAFTS = [
    ("d1", "Tidewater 1.0 is out: offline-first sync for field teams."),
    ("d2", "How we cut sync conflicts by 80% - a short write-up."),
    ("d3", "Field teams: what breaks first when the network drops?"),
    ("d4", "Office hours on Thursday. Bring your sync questions."),
    ("d5", "Thanks @alice.bsky.social and @nobody.example (and @tidewater@mastodon.example) #sync"),
    ("d6", "#" + "a" * 64 + " fits, #" + "b" * 65 + " does not"),
    ("d7", "(@alice.bsky.social) mail me@alice.bsky.social, or @alice.bsky.social."),
]
THREAD = ("d8", "Tides, part one: why field sync is hard.")
THREAD_REST = ["Part two: conflicts are the normal case.",
               {"text": "Part three: what we ship.",
                "media": [{"path": "gps.jpg", "alt": "A tide chart"}]}]
MEDIA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                     "media", "gps.jpg")


def thread_draft(d):
    with open(MEDIA, "rb") as f, open(os.path.join(d, "gps.jpg"), "wb") as g:
        g.write(f.read())
    return {"id": THREAD[0], "text": THREAD[1], "topics": ["launch"],
            "media": [{"path": "gps.jpg", "alt": "Harbour at low tide"}],
            "thread": THREAD_REST}


def project(d, port, cap=5):
    os.makedirs(d, exist_ok=True)
    now = int(testclock.now())
    start = now - now % 3600 - 3 * 3600
    base = "http://127.0.0.1:%s" % port
    limits = {"max_posts_per_day": int(cap), "min_gap_minutes": 0}
    fronts = {
        "name": "publish-test",
        "timezone": "UTC",
        "start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start)),
        "slot_minutes": 60,
        "horizon_slots": 48,
        "provider": {"name": "anthropic"},
        "fronts": [
            {"id": "x", "platform": "x", "account": "@tidewaterdev",
             "composio": {"tool": "TWITTER_CREATION_OF_A_POST",
                          "user_id": "tidewater",
                          "connected_account_id": "ca_test_x"},
             "limits": dict(limits)},
            {"id": "linkedin", "platform": "linkedin",
             "account": "Tidewater Labs GmbH",
             "composio": {"tool": "LINKEDIN_CREATE_LINKED_IN_POST",
                          "user_id": "tidewater",
                          "author": "urn:li:organization:90412233"},
             "limits": dict(limits)},
            {"id": "reddit", "platform": "reddit", "account": "u/tidewater",
             "composio": {"tool": "REDDIT_CREATE_REDDIT_POST",
                          "user_id": "tidewater", "version": "20260410_00",
                          "arguments": {"subreddit": "tidewatersync",
                                        "flair_id": "a1b2c3d4-flair",
                                        "nsfw": False}},
             "limits": dict(limits)},
            {"id": "mastodon", "platform": "mastodon",
             "account": "@tidewater@mastodon.example", "instance": base,
             "limits": dict(limits)},
            {"id": "bluesky", "platform": "bluesky", "account": "tidewater.dev",
             "handle": "tidewater.dev", "service": base,
             "limits": dict(limits)},
        ],
    }
    with open(os.path.join(d, "fronts.json"), "w") as f:
        json.dump(fronts, f, indent=2)
    with open(os.path.join(d, "drafts.jsonl"), "w") as f:
        for i, t in DRAFTS:
            f.write(json.dumps({"id": i, "text": t, "topics": ["launch"]}) + "\n")
        if os.environ.get("FIXTURE_THREAD"):
            f.write(json.dumps(thread_draft(d)) + "\n")
    with open(os.path.join(d, "history.jsonl"), "w") as f:
        f.write(json.dumps({"id": "h1", "front": "x",
                            "posted_at": "2026-01-05T09:00:00Z",
                            "text": "Hello from Tidewater.", "topics": ["intro"],
                            "metrics": {"impressions": 100, "likes": 3,
                                        "reposts": 0, "replies": 1,
                                        "clicks": 2}}) + "\n")
    with open(os.path.join(d, "rules.md"), "w") as f:
        f.write("# Rules\n\nBe plain. No more than the limits allow.\n")


def plan(d, out, posts):
    with open(os.path.join(d, "fronts.json")) as f:
        fr = json.load(f)
    start = calendar.timegm(time.strptime(fr["start"], "%Y-%m-%dT%H:%M:%SZ"))
    texts = dict(DRAFTS + [THREAD])
    items = []
    for p in posts:
        front, draft, slot = p.split(":")
        at = int(start) + int(slot) * fr["slot_minutes"] * 60
        items.append({"slot": int(slot),
                      "at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00",
                                          time.gmtime(at)),
                      "front": front, "draft": draft, "text": texts[draft],
                      "expected_reward": 10.0, "visits": 100,
                      "ci95": [8.0, 12.0]})
    obj = {"plan": items, "expected_total": 10.0 * len(items),
           "alternatives": [],
           "stats": {"iterations": 1000, "model_calls": 5000,
                     "illegal_proposals": 0, "seconds": 0.1,
                     "model_seconds": 0.1, "workers": 1,
                     "isolation": "thread", "seed": 1}}
    with open(out, "w") as f:
        json.dump(obj, f, indent=2)


if __name__ == "__main__":
    if sys.argv[1] == "project":
        project(*sys.argv[2:])
    elif sys.argv[1] == "both":
        project(*sys.argv[2:5])
        plan(sys.argv[2], os.path.join(sys.argv[2], "plan.json"), sys.argv[5:])
    else:
        plan(sys.argv[2], sys.argv[3], sys.argv[4:])
