#!/usr/bin/python3
"""Adds to a history.jsonl six settled X posts that fronts published, as
`fronts history pull` writes them: each with its outcome and the
prediction saved at publish (tests/cli/test_live.sh, tests/tui).

  live_fixture.py HISTORY SCALE SD_FRACTION
      predicted reward SCALE x the post's outcome (likes + 2 x reposts +
      3 x replies), with sd SD_FRACTION x the prediction; posts added by
      an earlier run are replaced.
"""
import json
import sys


def main():
    path, scale, frac = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    lines = [json.loads(line) for line in open(path)]
    lines = [h for h in lines if not h["id"].startswith("live-")]
    for k in range(6):
        m = {"likes": 10 + 7 * k, "reposts": 2 + k, "replies": k}
        pred = (m["likes"] + 2 * m["reposts"] + 3 * m["replies"]) * scale
        lines.append({"id": "live-%d" % k, "front": "x",
                      "posted_at": "2026-11-2%dT10:00:00+01:00" % k,
                      "text": "Published post %d" % k, "topics": [],
                      "metrics": m,
                      "predicted": {"reward": pred, "ci95": [pred, pred],
                                    "sd": pred * frac}})
    with open(path, "w") as f:
        f.write("".join(json.dumps(h) + "\n" for h in lines))


if __name__ == "__main__":
    main()
