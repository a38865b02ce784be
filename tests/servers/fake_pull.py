#!/usr/bin/python3
"""Fake Mastodon and Bluesky read APIs on 127.0.0.1 for the
`fronts history pull` tests, answering as the real services document:

  GET /api/v1/accounts/lookup?acct=USER          -> Account
  GET /api/v1/accounts/:id/statuses?limit=&max_id=&exclude_reblogs=
                                                 -> [Status], newest first
  GET /xrpc/app.bsky.feed.getAuthorFeed?actor=&limit=&cursor=&filter=
                                                 -> {feed, cursor}
  POST /api/v3.1/tools/execute/TWITTER_POST_LOOKUP_BY_POST_ID
       (x-api-key: $FAKE_COMPOSIO_KEY; {"arguments": {"id", "tweet__fields"},
        "version"}: an argument the tool does not take is refused with
        Composio's validation error)
                                                 -> Composio's envelope
                                                    around X's GET /2/tweets/:id

Pages hold --page-size posts (default 2), so paging is exercised.
Mastodon sends X-RateLimit-Limit/-Remaining/-Reset (ISO time), Bluesky
RateLimit-Limit/-Remaining/-Reset (epoch seconds), as the services do.

--mode:
  ok              every page answers
  limited-once    the first statuses/feed page answers 429 with
                  Retry-After: 1, then pages answer normally
  limited-long    the second page answers 429 with a reset an hour
                  ahead (the client must stop and say what is left)
  limited-huge    the second page answers 429 with Retry-After: 10^9
                  seconds and no reset (the client must stop, saying until
                  when, not retry)
  edited          counts are higher than in ok mode (likes + 5, reposts + 1)
  deleted         the status/post "3" is gone, and tweet ...004
Every request is appended to --log as one JSON line; the port is written
to --port-file once the server listens.
"""
import argparse
import json
import os
import threading
import time
import urllib.parse
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import testclock

LOCK = threading.Lock()
STATE = {"statuses_pages": 0, "feed_pages": 0}
NOW = testclock.now()
DID = "did:plc:fakefakefake"
# id, hours ago, text, likes, reposts, replies
POSTS = [
    ("5", 2, "Fresh: the sync engine is out", 4, 1, 0),
    ("4", 30, "Benchmarks, round two", 20, 6, 2),
    ("3", 80, "Why offline-first", 31, 17, 5),
    ("2", 100, "Hiring: SRE, remote in the EU", 12, 3, 1),
    ("1", 2000, "An old post outside the window", 1, 0, 0),
]


def iso(hours_ago, ms=False):
    t = datetime.fromtimestamp(NOW - hours_ago * 3600, timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def log(args, **event):
    event["t"] = testclock.now()
    with LOCK:
        with open(args.log, "a") as f:
            f.write(json.dumps(event, sort_keys=True) + "\n")


def visible(args):
    out = []
    for p in POSTS:
        if args.mode == "deleted" and p[0] == "3":
            continue
        if args.mode == "edited":
            p = (p[0], p[1], p[2], p[3] + 5, p[4] + 1, p[5])
        out.append(p)
    return out


def status(p, port):
    return {"id": p[0], "created_at": iso(p[1]), "in_reply_to_id": None,
            "in_reply_to_account_id": None, "sensitive": False,
            "spoiler_text": "", "visibility": "public", "language": "en",
            "uri": "http://127.0.0.1:%d/users/tidewater/statuses/%s" % (port, p[0]),
            "url": "http://127.0.0.1:%d/@tidewater/%s" % (port, p[0]),
            "replies_count": p[5], "reblogs_count": p[4],
            "favourites_count": p[3], "edited_at": None,
            "content": "<p>%s</p>" % p[2], "reblog": None,
            "account": {"id": "109", "username": "tidewater", "acct": "tidewater"},
            "media_attachments": [], "mentions": [], "tags": [], "emojis": []}


def feed_post(p):
    return {"post": {
        "uri": "at://%s/app.bsky.feed.post/3lbk%09d" % (DID, int(p[0])),
        "cid": "bafyreifake%s" % p[0],
        "author": {"did": DID, "handle": "tidewater.dev"},
        "record": {"$type": "app.bsky.feed.post", "createdAt": iso(p[1]),
                   "text": p[2]},
        "replyCount": p[5], "repostCount": p[4], "likeCount": p[3],
        "quoteCount": 0, "indexedAt": iso(p[1])}}


TWEETS = {
    "1859000000000000001": ("2026-11-20T08:05:00.000Z",
                            "Sync &amp; merge, finally boring &gt; #launch https://t.co/AbCdEf1234",
                            5400, 61, 9, 4),
    "1859000000000000004": ("2026-11-20T12:15:30.000Z",
                            "The dashboard, in one photo: https://t.co/MeDiA98765",
                            2100, 14, 1, 0),
}


# TWITTER_POST_LOOKUP_BY_POST_ID's input parameters, as Composio's toolkit
# reference lists them.
LOOKUP_PARAMS = ("expansions", "id", "media__fields", "place__fields",
                 "poll__fields", "tweet__fields", "user__fields")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        pass

    def reply(self, status, obj, headers=()):
        body = json.dumps(obj).encode()
        # Logged before the answer goes out, so the log has it by the time
        # fronts does.
        log(self.server.args, ev="responded", path=self.path, status=status)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def limited(self, counter, bluesky):
        """429 as the mode asks; True when answered."""
        args = self.server.args
        with LOCK:
            STATE[counter] += 1
            n = STATE[counter]
        if bluesky:
            hdr = [("RateLimit-Limit", "3000"), ("RateLimit-Remaining", "0"),
                   ("RateLimit-Reset", str(int(testclock.now()) + (1 if args.mode == "limited-once" else 3600))),
                   ("RateLimit-Policy", "3000;w=300")]
        else:
            reset = datetime.fromtimestamp(testclock.now() + (1 if args.mode == "limited-once" else 3600),
                                           timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            hdr = [("X-RateLimit-Limit", "300"), ("X-RateLimit-Remaining", "0"),
                   ("X-RateLimit-Reset", reset)]
        if args.mode == "limited-huge" and n == 2:
            return self.reply(429, {"error": "Too many requests"},
                              [("Retry-After", "1000000000")]) or True
        if (args.mode == "limited-once" and n == 1) or (args.mode == "limited-long" and n == 2):
            if args.mode == "limited-once":
                hdr.append(("Retry-After", "1"))
            self.reply(429, {"error": "Too many requests"}, hdr)
            return True
        return False

    def do_POST(self):
        args = self.server.args
        n = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        key = self.headers.get("x-api-key")
        auth = "none" if key is None else (
            "ok" if key == os.environ.get("FAKE_COMPOSIO_KEY") else "bad")
        log(args, ev="request", method="POST", path=self.path, body=body, auth=auth)
        if self.path != "/api/v3.1/tools/execute/TWITTER_POST_LOOKUP_BY_POST_ID":
            return self.reply(404, {"error": {"message": "Tool not found"}})
        if auth != "ok":
            return self.reply(401, {"error": {"message": "Invalid API key"}})
        bad = sorted(k for k in body.get("arguments", {}) if k not in LOOKUP_PARAMS)
        if bad:
            return self.reply(400, {"error": {
                "message": "Validation error while processing request",
                "error_code": 10400, "suggested_fix": "Please check the payload.",
                "errors": ["Error in payload.arguments: unexpected argument '%s'" % a
                           for a in bad]}})
        tid = body.get("arguments", {}).get("id")
        t = TWEETS.get(tid)
        if t is None or (args.mode == "deleted" and tid.endswith("4")):
            data = {"errors": [{"value": tid, "detail": "Could not find tweet with id: [%s]." % tid,
                                "title": "Not Found Error", "resource_type": "tweet",
                                "type": "https://api.twitter.com/2/problems/resource-not-found"}]}
        else:
            bump = 5 if args.mode == "edited" else 0
            data = {"data": {"id": tid, "created_at": t[0], "text": t[1],
                             "edit_history_tweet_ids": [tid],
                             "public_metrics": {"impression_count": t[2],
                                                "like_count": t[3] + bump,
                                                "retweet_count": t[4],
                                                "reply_count": t[5],
                                                "quote_count": 0,
                                                "bookmark_count": 2}}}
        return self.reply(200, {"data": data, "successful": True, "error": None,
                                "log_id": "log_fake"})

    def do_GET(self):
        args = self.server.args
        path, _, q = self.path.partition("?")
        query = dict(urllib.parse.parse_qsl(q))
        log(args, ev="request", method="GET", path=path, query=query,
            auth="none" if self.headers.get("Authorization") is None else "sent")
        port = self.server.server_address[1]
        if path == "/api/v1/accounts/lookup":
            if query.get("acct") != "tidewater":
                return self.reply(404, {"error": "Record not found"})
            return self.reply(200, {"id": "109", "username": "tidewater",
                                    "acct": "tidewater"})
        if path == "/api/v1/accounts/109/statuses":
            if self.limited("statuses_pages", False):
                return
            posts = visible(args)
            if "max_id" in query:
                posts = [p for p in posts if int(p[0]) < int(query["max_id"])]
            page = posts[:args.page_size]
            return self.reply(200, [status(p, port) for p in page],
                              [("X-RateLimit-Limit", "300"),
                               ("X-RateLimit-Remaining", "250"),
                               ("X-RateLimit-Reset", iso(-0.1))])
        if path == "/xrpc/app.bsky.feed.getAuthorFeed":
            if query.get("actor") != "tidewater.dev":
                return self.reply(400, {"error": "InvalidRequest",
                                        "message": "Profile not found"})
            if self.limited("feed_pages", True):
                return
            posts = visible(args)
            if "cursor" in query:
                posts = [p for p in posts if int(p[0]) < int(query["cursor"])]
            page = posts[:args.page_size]
            out = {"feed": [feed_post(p) for p in page]}
            if len(posts) > args.page_size:
                out["cursor"] = page[-1][0]
            return self.reply(200, out, [("RateLimit-Limit", "3000"),
                                         ("RateLimit-Remaining", "2990"),
                                         ("RateLimit-Reset", str(int(testclock.now()) + 300))])
        return self.reply(404, {"error": "not found"})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--mode", default="ok")
    ap.add_argument("--page-size", type=int, default=2)
    args = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.args = args
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(args.port_file + ".tmp", args.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
