#!/usr/bin/python3
"""Fake Composio, Mastodon and Bluesky endpoints on 127.0.0.1 for the
publish tests.

Every connection, request, created post and reply is appended as one JSON
line to the log file (--log), which the tests read; secrets are checked
against the environment (FAKE_COMPOSIO_KEY, FAKE_MASTODON_TOKEN,
FAKE_BLUESKY_PASSWORD) and never written anywhere: the log says only
whether the credential matched.

Like the real services, Mastodon honours Idempotency-Key (a repeated key
returns the first status instead of posting again) and Bluesky refuses a
second record under the same rkey (with the 500 a real PDS answers), so a
test can count real posts.

--mode decides how post requests (not sessions) are answered:
  ok              normal success
  provider-error  Composio answers HTTP 200 with successful:false
  http500         HTTP 500 after creating nothing
  http400         Bluesky: HTTP 400 after creating nothing
  created-500     Bluesky: create the record, then answer HTTP 500
  other-record    Bluesky: a different record takes the key; answer 500
  stall           create the post, then never answer (client times out)
  reset           create the post, then reset the connection
The port is written to --port-file once the server listens.
"""
import argparse
import hashlib
import json
import os
import re
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"mastodon": {}, "bluesky": {}, "sessions": {}, "next": 1000}
BSKY_DID = "did:plc:fakefakefake"
BSKY_HANDLE = "tidewater.dev"
TID_RE = re.compile(r"^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$")


def log(args, **event):
    event["t"] = time.time()
    with LOCK:
        with open(args.log, "a") as f:
            f.write(json.dumps(event, sort_keys=True) + "\n")
            f.flush()


def next_id():
    with LOCK:
        STATE["next"] += 1
        return str(STATE["next"])


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def get_request(self):
        conn, addr = super().get_request()
        log(self.args, ev="connect")
        return conn, addr


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        pass

    def reply(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        log(self.server.args, ev="responded", path=self.path, status=status)

    def misbehave(self):
        """stall / reset after the post exists; True when handled."""
        mode = self.server.args.mode
        if mode == "stall":
            log(self.server.args, ev="stalled", path=self.path)
            self.connection.settimeout(120)
            try:
                self.connection.recv(1)   # until the client gives up
            except OSError:
                pass
            self.close_connection = True
            return True
        if mode == "reset":
            log(self.server.args, ev="reset", path=self.path)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.close_connection = True
            return True
        return False

    def auth(self, header, want_env, prefix=""):
        got = self.headers.get(header)
        want = os.environ.get(want_env)
        if got is None:
            return "none"
        return "ok" if want is not None and got == prefix + want else "bad"

    def query(self):
        if "?" not in self.path:
            return {}
        return {k: urllib.parse.unquote(v) for k, _, v in
                (p.partition("=") for p in self.path.split("?", 1)[1].split("&"))}

    def do_GET(self):
        self.handle_any("GET", b"")

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        self.handle_any("POST", self.rfile.read(n))

    def handle_any(self, method, raw):
        args = self.server.args
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        path = self.path.split("?")[0]
        ev = {"ev": "request", "method": method, "path": path, "body": body}
        if "?" in self.path:
            ev["query"] = self.query()
        if self.headers.get("Idempotency-Key"):
            ev["idempotency_key"] = self.headers["Idempotency-Key"]
        if path.startswith("/api/v3/tools/execute/"):
            ev["auth"] = self.auth("x-api-key", "FAKE_COMPOSIO_KEY")
            log(args, **ev)
            return self.composio(path.rsplit("/", 1)[1], body, ev["auth"])
        if path == "/api/v1/statuses":
            ev["auth"] = self.auth("Authorization", "FAKE_MASTODON_TOKEN",
                                   "Bearer ")
            log(args, **ev)
            return self.mastodon(body, ev["auth"])
        if path == "/xrpc/com.atproto.server.createSession":
            ok = (isinstance(body, dict) and body.get("password") ==
                  os.environ.get("FAKE_BLUESKY_PASSWORD"))
            ev["auth"] = "ok" if ok else "bad"
            if isinstance(body, dict):
                body = dict(body, password="(checked)")
                ev["body"] = body
            log(args, **ev)
            if not ok:
                return self.reply(401, {"error": "AuthenticationRequired",
                                        "message": "Invalid identifier or password"})
            token = hashlib.sha256(os.urandom(16)).hexdigest()
            with LOCK:
                STATE["sessions"][token] = body.get("identifier")
            return self.reply(200, {"accessJwt": token, "refreshJwt": "r",
                                    "handle": body.get("identifier"),
                                    "did": BSKY_DID})
        if path == "/xrpc/com.atproto.repo.createRecord":
            tok = (self.headers.get("Authorization") or "")[len("Bearer "):]
            ev["auth"] = "ok" if tok in STATE["sessions"] else "bad"
            log(args, **ev)
            return self.bluesky(body, ev["auth"])
        if path == "/xrpc/com.atproto.repo.getRecord":
            log(args, **ev)
            q = self.query()
            if (q.get("repo") not in (BSKY_DID, BSKY_HANDLE) or
                    q.get("collection") != "app.bsky.feed.post"):
                return self.reply(400, {"error": "InvalidRequest",
                                        "message": "Could not find repo: %s" % q.get("repo")})
            rec = STATE["bluesky"].get(q.get("rkey"))
            if rec is None:
                # As the PDS does: 400 with the lexicon's error name.
                return self.reply(400, {"error": "RecordNotFound", "message":
                                        "Could not locate record: at://%s/%s/%s" %
                                        (BSKY_DID, q.get("collection"), q.get("rkey"))})
            return self.reply(200, rec)
        log(args, **ev)
        self.reply(404, {"error": "not found"})

    def composio(self, tool, body, auth):
        args = self.server.args
        if auth != "ok":
            return self.reply(401, {"error": {"message": "Invalid API key"}})
        if args.mode == "http500":
            return self.reply(500, {"error": {"message": "internal"}})
        if args.mode == "provider-error":
            return self.reply(200, {"data": {}, "successful": False,
                                    "error": "Twitter API error: 403 duplicate content",
                                    "log_id": "log_x"})
        pid = next_id()
        log(args, ev="post", platform="composio", tool=tool, id=pid, dup=False)
        if self.misbehave():
            return
        self.reply(200, {"data": {"data": {"id": pid, "text":
                                           (body or {}).get("arguments", {}).get("text")}},
                         "successful": True, "error": None, "log_id": "log_" + pid})

    def mastodon(self, body, auth):
        args = self.server.args
        if auth != "ok":
            return self.reply(401, {"error": "The access token is invalid"})
        if args.mode == "http500":
            return self.reply(500, {"error": "internal"})
        key = self.headers.get("Idempotency-Key")
        with LOCK:
            status = STATE["mastodon"].get(key) if key else None
        if status is not None:
            log(args, ev="post", platform="mastodon", id=status["id"], dup=True)
        else:
            pid = next_id()
            status = {"id": pid, "url": "https://mastodon.example/@tidewater/" + pid,
                      "content": (body or {}).get("status")}
            with LOCK:
                if key:
                    STATE["mastodon"][key] = status
            log(args, ev="post", platform="mastodon", id=pid, dup=False)
        if self.misbehave():
            return
        self.reply(200, status)

    def bluesky(self, body, auth):
        args = self.server.args
        if auth != "ok":
            return self.reply(401, {"error": "InvalidToken", "message": "Bad token"})
        if args.mode == "http500":
            return self.reply(500, {"error": "InternalServerError",
                                    "message": "Internal Server Error"})
        if args.mode == "http400":
            return self.reply(400, {"error": "InvalidRequest",
                                    "message": "Invalid app.bsky.feed.post record"})
        rkey = (body or {}).get("rkey")
        if rkey is None or not TID_RE.match(rkey):
            return self.reply(400, {"error": "InvalidRequest",
                                    "message": "Invalid record key"})
        uri = "at://%s/app.bsky.feed.post/%s" % (BSKY_DID, rkey)
        record = body.get("record")
        if args.mode == "other-record":
            record = dict(record, text="a different post under the same key")
        with LOCK:
            exists = rkey in STATE["bluesky"]
            if not exists:
                STATE["bluesky"][rkey] = {"uri": uri, "cid": "bafyfake" + rkey,
                                          "value": record}
        if exists or args.mode == "other-record":
            # A real PDS fails inside its repository code on a reused
            # record key and answers 500, not a 400.
            log(args, ev="post-refused", platform="bluesky", id=rkey)
            return self.reply(500, {"error": "InternalServerError",
                                    "message": "Internal Server Error"})
        log(args, ev="post", platform="bluesky", id=rkey, dup=False)
        if args.mode == "created-500":
            return self.reply(500, {"error": "InternalServerError",
                                    "message": "Internal Server Error"})
        if self.misbehave():
            return
        self.reply(200, {"uri": uri, "cid": "bafyfake" + rkey,
                         "commit": {"cid": "bafycommit" + rkey, "rev": rkey},
                         "validationStatus": "valid"})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--mode", default="ok",
                    choices=["ok", "provider-error", "http500", "http400",
                             "created-500", "other-record", "stall", "reset"])
    args = ap.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    srv.args = args
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, args.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
