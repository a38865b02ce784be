#!/usr/bin/python3
"""Fake Composio, Mastodon and Bluesky endpoints on 127.0.0.1 for the
publish tests.

Every connection, request, created post and reply is appended as one JSON
line to the log file (--log), which the tests read; secrets are checked
against the environment (FAKE_COMPOSIO_KEY, FAKE_MASTODON_TOKEN,
FAKE_BLUESKY_PASSWORD, and FAKE_LLM_KEY for the model lists) and never written anywhere: the log says only
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
  redirect303     create the post, then answer 303 See Other (Location:
                  /created/ID), as a proxy or a moved endpoint might
  garbled200      create the post, then answer 200 with a body that is
                  not JSON
The read-only calls `fronts check` makes are answered as the services do:
Composio's tool (with its versions; v3 runs 00000000_00 unless told, v3.1
the latest) and connected accounts (--account-status), Mastodon's
/api/v2/instance (--mastodon-max-characters, --mastodon-url-characters)
and verify_credentials (--mastodon-scopes), Bluesky's resolveHandle
(after --resolve-delay seconds) and getProfile, and the Anthropic and
OpenAI model lists.
Images and threads, as the platforms document them:
  Mastodon  POST /api/v2/media (multipart: "file", an image/* part of at
            most 16 MiB, optional "description" of at most 1500
            characters) answers 200 with the attachment, or with
            --media-async 202 while it "processes": GET /api/v1/media/:id
            then answers 206 once and 200 after. A status's media_ids
            (at most 4) must name processed attachments of this account
            not attached yet (422 otherwise); its in_reply_to_id must name
            a status (404 otherwise).
  X         TWITTER_CREATION_OF_A_POST's reply__in_reply_to_tweet_id must
            name a tweet posted here (unsuccessful otherwise, as X's 403),
            and its media__media_ids (at most 4) media ids
            TWITTER_UPLOAD_MEDIA answered (as X's 400 otherwise).
  Composio  files: POST /api/v3/files/upload/request takes md5 (32 hex
            digits), filename, mimetype (image/*), tool_slug (a tool of
            the toolkit) and toolkit_slug, and answers id, key, type and
            new_presigned_url (here, /s3/KEY on this server); a PUT there
            must carry the same Content-Type (403 SignatureDoesNotMatch
            otherwise) and bytes of that md5 (400 BadDigest), answered
            200. A file argument is {"name", "mimetype", "s3key"}, the
            key of a file PUT in full, of that type (as Composio's SDK
            sends one: composio/core/models/_files.py FileUploadable).
            TWITTER_UPLOAD_MEDIA takes `media` (such a file) and
            media_category tweet_image, and answers X's media id.
            LINKEDIN_CREATE_LINKED_IN_POST's `images` is an array (at most
            20) of such files, each staged for that tool (unsuccessful
            otherwise); its schema gives it as an array of file_uploadable
            items (mode li-urn-images: an array of strings, as a schema
            that took image URNs would).
  Bluesky   com.atproto.repo.uploadBlob (the bytes as the body, with their
            Content-Type, under a session) answers a blob; a record's
            app.bsky.embed.images embed takes 1-4 images, each with the
            blob of an upload (image/*, at most 1,000,000 bytes), an alt
            string and an optional aspectRatio of positive integers; a
            reply's root and parent are strong refs (uri and cid) of
            records that exist (400 InvalidRequest otherwise).
Every upload is logged with its size, type and whether its bytes still
hold the test images' camera make ("has_camera"), never the bytes.
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

import testclock
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import testclock

LOCK = threading.Lock()
STATE = {"mastodon": {}, "bluesky": {}, "sessions": {}, "next": 1000,
         "media": {}, "statuses": {}, "blobs": {}, "files": {}, "x_media": {}}
CAMERA = b"Canikon"     # the make tests/unit/fixture_media.h writes
BSKY_DID = "did:plc:fakefakefake"
BSKY_HANDLE = "tidewater.dev"
# Handles resolveHandle knows (the fake's own account and one other).
HANDLES = {BSKY_HANDLE: BSKY_DID, "alice.bsky.social": "did:plc:alicealicealice"}
# Composio tools: their versions, in no particular order (Composio does
# not promise one; the newest is "latest"), and their input parameters as
# Composio's toolkit reference lists them.
TOOLS = {
    "TWITTER_CREATION_OF_A_POST": {
        "toolkit": "twitter",
        "versions": ["20260403_00", "00000000_00", "20260301_00"],
        "params": ["text", "media__media_ids", "media__tagged_user_ids",
                   "reply__in_reply_to_tweet_id", "quote_tweet_id",
                   "reply_settings", "community_id", "nullcast"]},
    "TWITTER_POST_LOOKUP_BY_POST_ID": {
        "toolkit": "twitter",
        "versions": ["20260403_00", "00000000_00", "20260301_00"],
        "params": ["expansions", "id", "media__fields", "place__fields",
                   "poll__fields", "tweet__fields", "user__fields"]},
    "TWITTER_UPLOAD_MEDIA": {
        "toolkit": "twitter",
        "versions": ["20260403_00", "00000000_00"],
        "params": ["media", "media_category"],
        "required": ["media"],
        "files": ["media"]},
    "LINKEDIN_CREATE_LINKED_IN_POST": {
        "toolkit": "linkedin",
        "versions": ["00000000_00", "20260403_00"],
        "params": ["author", "commentary", "visibility", "lifecycleState",
                   "isReshareDisabledByAuthor", "images"],
        "file_arrays": ["images"]},
    "REDDIT_CREATE_REDDIT_POST": {
        "toolkit": "reddit",
        "versions": ["20260410_00", "00000000_00"],
        "params": ["subreddit", "title", "kind", "text", "url", "flair_id",
                   "flair_text", "nsfw", "spoiler"]},
}


def newest(versions):
    """The latest version: by date, then number ("20251201_00")."""
    return max(versions, key=lambda v: tuple(int(x) for x in v.split("_")))


def missing_arguments(slug, arguments):
    """The required arguments not given."""
    return sorted(k for k in TOOLS.get(slug, {}).get("required", [])
                  if k not in (arguments or {}))


def unknown_arguments(slug, arguments):
    """The arguments the tool does not take (Composio validates them)."""
    params = TOOLS.get(slug, {}).get("params", [])
    return sorted(k for k in (arguments or {}) if k not in params)


TID_RE = re.compile(r"^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$")


def log(args, **event):
    event["t"] = testclock.now()
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
        # Logged before the answer goes out: once fronts has the answer,
        # the log already says so, and a test reading it then needs no wait.
        log(self.server.args, ev="responded", path=self.path, status=status)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

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
        if mode == "redirect303":
            body = b'{"see": "other"}'
            log(self.server.args, ev="responded", path=self.path, status=303)
            self.send_response(303)
            self.send_header("Location", "/created/" + str(len(self.path)))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return True
        if mode == "garbled200":
            body = b"<html>ok</html>"
            log(self.server.args, ev="responded", path=self.path, status=200)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
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
        raw = self.rfile.read(n)
        path = self.path.split("?")[0]
        if path in ("/api/v2/media", "/xrpc/com.atproto.repo.uploadBlob"):
            return self.upload(path, raw)
        self.handle_any("POST", raw)

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
        m = re.match(r"^/api/(v3|v3\.1)/(.*)$", path)
        if m:
            ev["auth"] = self.auth("x-api-key", "FAKE_COMPOSIO_KEY")
            log(args, **ev)
            if ev["auth"] != "ok":
                return self.composio_error(401, "Invalid API key")
            return self.composio_api(method, m.group(1), m.group(2), body)
        if path in ("/api/v2/instance", "/api/v1/accounts/verify_credentials",
                    "/api/v1/apps/verify_credentials"):
            ev["auth"] = self.auth("Authorization", "FAKE_MASTODON_TOKEN",
                                   "Bearer ")
            log(args, **ev)
            return self.mastodon_read(path, ev["auth"])
        if path in ("/v1/models", "/models"):
            ev["auth"] = ("ok" if self.auth("x-api-key", "FAKE_LLM_KEY") == "ok"
                          or self.auth("Authorization", "FAKE_LLM_KEY",
                                       "Bearer ") == "ok" else "bad")
            ev["anthropic_version"] = self.headers.get("anthropic-version")
            log(args, **ev)
            return self.models(path, ev["auth"])
        if path in ("/xrpc/com.atproto.identity.resolveHandle",
                    "/xrpc/app.bsky.actor.getProfile"):
            tok = (self.headers.get("Authorization") or "")[len("Bearer "):]
            ev["auth"] = ("ok" if tok in STATE["sessions"] else
                          "none" if not tok else "bad")
            log(args, **ev)
            return self.bluesky_read(path, self.query(), ev["auth"])
        if method == "GET" and path.startswith("/api/v1/media/"):
            ev["auth"] = self.auth("Authorization", "FAKE_MASTODON_TOKEN",
                                   "Bearer ")
            log(args, **ev)
            return self.mastodon_media_get(path[len("/api/v1/media/"):],
                                           ev["auth"])
        if method == "GET" and path.startswith("/api/v1/accounts/"):
            log(args, **ev)
            return self.mastodon_timeline(path)
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

    def composio_error(self, status, message, fix=""):
        # Composio's error body: {"error": {"message", "code", "status",
        # "request_id", "suggested_fix"}} (its OpenAPI spec).
        return self.reply(status, {"error": {"message": message, "code": status * 10,
                                             "status": status,
                                             "request_id": "req_" + next_id(),
                                             "suggested_fix": fix}})

    def composio_validation(self, errors):
        # The validation error Composio documents (its troubleshooting
        # page): HTTP 400 with the payload's faults listed.
        return self.reply(400, {"error": {"message": "Validation error while processing request",
                                          "error_code": 10400,
                                          "suggested_fix": "Please check the payload.",
                                          "errors": errors}})

    def tool_version(self, api, slug, want):
        """The version a v3 or v3.1 call runs: v3 defaults to the initial
        00000000_00, v3.1 to the latest; None when slug or want is unknown."""
        versions = TOOLS.get(slug, {}).get("versions")
        if versions is None:
            return None
        if want in (None, ""):
            want = "00000000_00" if api == "v3" else "latest"
        if want == "latest":
            return newest(versions)
        return want if want in versions else None

    def composio_api(self, method, api, rest, body):
        q = self.query()
        if method == "POST" and rest.startswith("tools/execute/"):
            slug = rest[len("tools/execute/"):]
            version = self.tool_version(api, slug, (body or {}).get("version"))
            if version is None:
                return self.composio_error(404, "Tool %s not found at version %s" %
                                           (slug, (body or {}).get("version")),
                                           "Use one of the tool's available versions")
            log(self.server.args, ev="tool-run", tool=slug, version=version)
            bad = unknown_arguments(slug, (body or {}).get("arguments"))
            if bad:
                return self.composio_validation(
                    ["Error in payload.arguments: unexpected argument '%s' "
                     "(not among the tool's input parameters)" % a for a in bad])
            bad = missing_arguments(slug, (body or {}).get("arguments"))
            if bad:
                return self.composio_validation(
                    ["Error in payload.arguments: missing required argument "
                     "'%s'" % a for a in bad])
            return self.composio(slug, body)
        if method == "POST" and api == "v3" and rest == "files/upload/request":
            return self.file_request(body)
        if method == "GET" and rest.startswith("tools/"):
            slug = rest[len("tools/"):]
            version = self.tool_version(api, slug, q.get("version"))
            if version is None:
                return self.composio_error(404, "Tool %s not found" % slug)
            t = TOOLS[slug]
            return self.reply(200, {"slug": slug, "name": slug.title(),
                                    "description": "", "toolkit": {"slug": t["toolkit"],
                                                                   "name": t["toolkit"],
                                                                   "logo": ""},
                                    "input_parameters": {
                                        "type": "object",
                                        "properties": {p: self.param_schema(t, p)
                                                       for p in t["params"]},
                                        "required": t.get("required", t["params"][:1])},
                                    "output_parameters": {},
                                    "no_auth": False, "version": version,
                                    "available_versions": t["versions"],
                                    "scopes": [], "tags": [], "is_deprecated": False})
        if method == "GET" and rest.startswith("connected_accounts"):
            items = [a for a in self.accounts()
                     if rest == "connected_accounts" and
                     (not q.get("user_ids") or a["user_id"] in q["user_ids"].split(",")) and
                     (not q.get("toolkit_slugs") or
                      a["toolkit"]["slug"] in q["toolkit_slugs"].split(","))
                     or rest == "connected_accounts/" + a["id"]]
            if rest != "connected_accounts":
                if not items:
                    return self.composio_error(404, "Connected account not found")
                return self.reply(200, items[0])
            return self.reply(200, {"items": items, "next_cursor": None,
                                    "total_pages": 1, "current_page": 1,
                                    "total_items": len(items)})
        return self.composio_error(404, "Not found")

    FILE = {"type": "object", "title": "FileUploadable", "file_uploadable": True,
            "properties": {"name": {"type": "string"}, "mimetype": {"type": "string"},
                           "s3key": {"type": "string"}},
            "required": ["name", "mimetype", "s3key"]}

    def param_schema(self, t, p):
        """A parameter as Composio's tool schema gives it: a file argument
        marked file_uploadable, an array of them, or a string (mode
        li-urn-images: LinkedIn's `images` as an array of image URNs)."""
        if p in t.get("files", []):
            return dict(self.FILE, title=p)
        if p in t.get("file_arrays", []):
            if self.server.args.mode == "li-urn-images":
                return {"type": "array", "title": p, "items": {"type": "string"}}
            return {"type": "array", "title": p, "items": self.FILE}
        return {"type": "string", "title": p}

    def linkedin_images(self, tool, images):
        """LINKEDIN_CREATE_LINKED_IN_POST's images: each a file of the
        store, uploaded (PUT) for this tool; an error, or None."""
        if not isinstance(images, list) or len(images) > 20:
            return "Error in payload.arguments.images: an array of at most 20 files"
        for m in images:
            if (not isinstance(m, dict) or
                    not all(isinstance(m.get(k), str) for k in ("name", "mimetype", "s3key"))):
                return "Error in payload.arguments.images: a file is {name, mimetype, s3key}"
            with LOCK:
                f = STATE["files"].get(m["s3key"])
            if f is None or not f["put"] or f["tool"] != tool or f["mimetype"] != m["mimetype"]:
                return "File %s was not uploaded for this tool" % m["s3key"]
        return None

    def accounts(self):
        status = self.server.args.account_status
        out = []
        for cid, toolkit in (("ca_test_x", "twitter"), ("ca_test_li", "linkedin"),
                             ("ca_test_reddit", "reddit")):
            out.append({"id": cid, "user_id": "tidewater", "status": status,
                        "toolkit": {"slug": toolkit},
                        "auth_config": {"id": "ac_" + toolkit, "auth_scheme": "OAUTH2",
                                        "is_composio_managed": (toolkit != "twitter" or
                                                                self.server.args.x_managed),
                                        "is_disabled": False},
                        "status_reason": None if status == "ACTIVE" else "token expired",
                        "is_disabled": False, "created_at": "2026-01-01T00:00:00Z",
                        "updated_at": "2026-01-01T00:00:00Z", "state": {}, "data": {}})
        return out

    def composio(self, tool, body):
        args = self.server.args
        if args.mode == "http500":
            return self.composio_error(500, "internal")
        if args.mode == "provider-error":
            return self.reply(200, {"data": {}, "successful": False,
                                    "error": "Twitter API error: 403 duplicate content",
                                    "log_id": "log_x"})
        if tool == "TWITTER_POST_LOOKUP_BY_POST_ID":
            return self.x_lookup(body)
        if tool == "TWITTER_UPLOAD_MEDIA":
            return self.x_upload_media(body)
        ids = ((body or {}).get("arguments") or {}).get("media__media_ids")
        if ids is not None:
            with LOCK:
                bad = [i for i in ids if i not in STATE["x_media"]]
            if not isinstance(ids, list) or len(ids) > 4 or bad:
                # X: 400 "Your media IDs are invalid."; Composio passes
                # it on unsuccessful.
                return self.reply(200, {"data": {}, "successful": False,
                                        "error": "Twitter API error: 400 Your media IDs are invalid.",
                                        "log_id": "log_x"})
        images = ((body or {}).get("arguments") or {}).get("images")
        if images is not None and TOOLS.get(tool, {}).get("toolkit") == "linkedin":
            why = self.linkedin_images(tool, images)
            if why is not None:
                return self.reply(200, {"data": {}, "successful": False,
                                        "error": why, "log_id": "log_li"})
            for m in images:
                with LOCK:
                    f = STATE["files"][m["s3key"]]
                log(args, ev="upload", platform="composio", id=m["s3key"],
                    bytes=f["bytes"], type=f["mimetype"], has_camera=f["has_camera"])
        parent = ((body or {}).get("arguments") or {}).get("reply__in_reply_to_tweet_id")
        if parent is not None and parent not in STATE.get("x", {}):
            # X answers a reply to a tweet that does not exist with 403
            # ("you attempted to reply to a Tweet that is deleted or not
            # visible to you"); Composio passes it on unsuccessful.
            return self.reply(200, {"data": {}, "successful": False,
                                    "error": "Twitter API error: 403 reply target %s not found" % parent,
                                    "log_id": "log_x"})
        pid = next_id()
        log(args, ev="post", platform="composio", tool=tool, id=pid, dup=False,
            arguments=(body or {}).get("arguments"),
            media=((body or {}).get("arguments") or {}).get("media__media_ids") or
            [m.get("s3key") for m in (((body or {}).get("arguments") or {}).get("images") or [])
             if isinstance(m, dict)])
        if TOOLS.get(tool, {}).get("toolkit") == "twitter":
            with LOCK:
                STATE.setdefault("x", {})[pid] = (
                    time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(testclock.now())),
                    (body or {}).get("arguments", {}).get("text"))
        if self.misbehave():
            return
        if TOOLS.get(tool, {}).get("toolkit") == "linkedin":
            # LinkedIn answers 201 with the share's URN in x-restli-id;
            # Composio hands it on as data.x_restli_id.
            data = {"x_restli_id": "urn:li:share:7%s" % pid}
        elif TOOLS.get(tool, {}).get("toolkit") == "reddit":
            data = {"json": {"errors": [], "data": {"id": "t" + pid, "name": "t3_t" + pid,
                                                    "url": "https://www.reddit.com/r/x/t" + pid}}}
        else:
            data = {"data": {"id": pid, "edit_history_tweet_ids": [pid], "text":
                             (body or {}).get("arguments", {}).get("text")}}
        self.reply(200, {"data": data, "successful": True, "error": None,
                         "log_id": "log_" + pid, "session_info": None})

    def file_request(self, body):
        """Composio's files/upload/request: a key and a presigned URL."""
        b = body if isinstance(body, dict) else {}
        errs = []
        if not re.match(r"^[0-9a-f]{32}$", str(b.get("md5", ""))):
            errs.append("md5: 32 hexadecimal digits required")
        for k in ("filename", "mimetype", "tool_slug", "toolkit_slug"):
            if not isinstance(b.get(k), str) or not b.get(k):
                errs.append("%s: required" % k)
        tool = TOOLS.get(b.get("tool_slug"))
        if tool is None or tool["toolkit"] != b.get("toolkit_slug"):
            errs.append("tool_slug: not a tool of toolkit %s" % b.get("toolkit_slug"))
        if not str(b.get("mimetype", "")).startswith("image/"):
            errs.append("mimetype: this fake stores images only")
        if errs:
            return self.composio_validation(errs)
        key = "%s/%s/%s/%s" % ("tidewater", b["toolkit_slug"], b["tool_slug"],
                               next_id() + "-" + b["filename"])
        with LOCK:
            STATE["files"][key] = {"md5": b["md5"], "mimetype": b["mimetype"],
                                   "tool": b["tool_slug"], "put": False}
        log(self.server.args, ev="file-request", key=key, mimetype=b["mimetype"])
        url = "http://127.0.0.1:%d/s3/%s?X-Amz-Signature=fake" % (
            self.server.server_address[1], urllib.parse.quote(key, safe=""))
        self.reply(200, {"id": "file_" + next_id(), "key": key, "type": b["mimetype"],
                         "new_presigned_url": url})

    def do_PUT(self):
        """The presigned URL: S3's answers to a PUT."""
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n)
        path = self.path.split("?")[0]
        key = urllib.parse.unquote(path[len("/s3/"):]) if path.startswith("/s3/") else None
        with LOCK:
            f = STATE["files"].get(key)
        ctype = self.headers.get("Content-Type")
        log(self.server.args, ev="request", method="PUT", path="/s3/", bytes=len(raw),
            content_type=ctype, has_camera=CAMERA in raw)
        if f is None:
            return self.s3_error(404, "NoSuchUpload")
        if ctype != f["mimetype"]:
            return self.s3_error(403, "SignatureDoesNotMatch")
        if hashlib.md5(raw).hexdigest() != f["md5"]:
            return self.s3_error(400, "BadDigest")
        with LOCK:
            f["put"] = True
            f["bytes"] = len(raw)
            f["has_camera"] = CAMERA in raw
        body = b""
        log(self.server.args, ev="responded", path="/s3/", status=200)
        self.send_response(200)
        self.send_header("ETag", '"%s"' % f["md5"])
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.wfile.write(body)

    def s3_error(self, status, code):
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code></Error>"
                % code).encode()
        log(self.server.args, ev="responded", path="/s3/", status=status)
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def x_upload_media(self, body):
        """TWITTER_UPLOAD_MEDIA: a file of the store, as X's media."""
        a = (body or {}).get("arguments") or {}
        m = a.get("media")
        if (not isinstance(m, dict) or
                not all(isinstance(m.get(k), str) for k in ("name", "mimetype", "s3key"))):
            return self.composio_validation(
                ["Error in payload.arguments.media: a file is {name, mimetype, s3key}"])
        with LOCK:
            f = STATE["files"].get(m["s3key"])
        if f is None or not f["put"] or f["tool"] != "TWITTER_UPLOAD_MEDIA":
            return self.reply(200, {"data": {}, "successful": False,
                                    "error": "File %s was not uploaded for this tool" % m["s3key"],
                                    "log_id": "log_x"})
        if f["mimetype"] != m["mimetype"] or a.get("media_category", "tweet_image") != "tweet_image":
            return self.reply(200, {"data": {}, "successful": False,
                                    "error": "Twitter API error: 400 media type or category",
                                    "log_id": "log_x"})
        mid = next_id()
        with LOCK:
            STATE["x_media"][mid] = m["s3key"]
        log(self.server.args, ev="upload", platform="composio", id=mid,
            bytes=f["bytes"], type=f["mimetype"], has_camera=f["has_camera"])
        self.reply(200, {"data": {"data": {"id": mid, "media_key": "3_" + mid,
                                           "expires_after_secs": 86400}},
                         "successful": True, "error": None, "log_id": "log_" + mid})

    def read_counts(self):
        if not self.server.args.counts:
            return {}
        try:
            with open(self.server.args.counts) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def x_lookup(self, body):
        # A read: X's GET /2/tweets/:id through Composio, for the posts
        # this fake created, with the counts --counts holds now.
        tid = str(((body or {}).get("arguments") or {}).get("id"))
        log(self.server.args, ev="lookup", platform="composio", id=tid)
        with LOCK:
            t = STATE.get("x", {}).get(tid)
        if t is None:
            data = {"errors": [{"value": tid, "detail": "Could not find tweet with id: [%s]." % tid,
                                "title": "Not Found Error", "resource_type": "tweet",
                                "type": "https://api.twitter.com/2/problems/resource-not-found"}]}
        else:
            c = self.read_counts()
            data = {"data": {"id": tid, "created_at": t[0], "text": t[1],
                             "edit_history_tweet_ids": [tid],
                             "public_metrics": {"impression_count": c.get("impressions", 0),
                                                "like_count": c.get("likes", 0),
                                                "retweet_count": c.get("reposts", 0),
                                                "reply_count": c.get("replies", 0),
                                                "quote_count": 0, "bookmark_count": 0}}}
        self.reply(200, {"data": data, "successful": True, "error": None,
                         "log_id": "log_lookup"})

    def mastodon_timeline(self, path):
        # The account's own statuses (what `fronts history pull` reads),
        # with the counts --counts FILE holds now ({"likes": N, ...}), so
        # a test can change them between pulls.
        if path == "/api/v1/accounts/lookup":
            return self.reply(200, {"id": "14715", "username": "tidewater",
                                    "acct": "tidewater"})
        if path != "/api/v1/accounts/14715/statuses" or "max_id" in self.query():
            return self.reply(200, [])
        counts = self.read_counts()
        with LOCK:
            made = sorted(STATE["mastodon"].values(), key=lambda s: -int(s["id"]))
        out = [{"id": s["id"], "created_at": s["created_at"], "url": s["url"],
                "content": "<p>%s</p>" % (s["content"] or ""), "visibility": "public",
                "in_reply_to_account_id": None, "reblog": None,
                "account": {"id": "14715", "username": "tidewater"},
                "favourites_count": counts.get("likes", 0),
                "reblogs_count": counts.get("reposts", 0),
                "replies_count": counts.get("replies", 0)} for s in made]
        self.reply(200, out)

    def mastodon_read(self, path, auth):
        args = self.server.args
        if path == "/api/v2/instance" and args.instance_retry_after is not None:
            body = json.dumps({"error": "Too many requests"}).encode()
            log(args, ev="responded", path=self.path, status=429)
            self.send_response(429)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Retry-After", args.instance_retry_after)
            self.end_headers()
            return self.wfile.write(body)
        if path == "/api/v2/instance":
            # Public; the Instance entity's configuration (docs.joinmastodon.org).
            return self.reply(200, {
                "domain": "mastodon.example", "title": "Fake", "version": "4.5.0",
                "configuration": {
                    "urls": {"streaming": "wss://mastodon.example"},
                    "accounts": {"max_featured_tags": 10, "max_pinned_statuses": 5},
                    "statuses": {"max_characters": args.mastodon_max_characters,
                                 "max_media_attachments": 4,
                                 "characters_reserved_per_url": args.mastodon_url_characters},
                    "media_attachments": {
                        "supported_mime_types": ["image/jpeg", "image/png", "image/gif",
                                                 "image/webp", "image/heic", "video/mp4"],
                        "image_size_limit": 16777216, "image_matrix_limit": 33177600,
                        "video_size_limit": 103809024, "description_limit": 1500},
                    "polls": {}, "translation": {"enabled": False}}})
        if auth != "ok":
            return self.reply(401, {"error": "The access token is invalid" +
                                    (" \x1b]0;pwned\x07" if args.hostile else "")})
        scopes = args.mastodon_scopes.split()
        if path == "/api/v1/apps/verify_credentials":
            return self.reply(200, {"id": "563419", "name": "fronts", "website": None,
                                    "scopes": scopes, "redirect_uri": "urn:ietf:wg:oauth:2.0:oob",
                                    "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"]})
        if not any(x in scopes for x in ("read", "read:accounts", "profile")):
            return self.reply(403, {"error": "This action is outside the authorized scopes"})
        return self.reply(200, {"id": "14715", "username": "tidewater", "acct": "tidewater",
                                "display_name": "Tidewater", "url":
                                "https://mastodon.example/@tidewater", "source": {}})

    def models(self, path, auth):
        if auth != "ok":
            if path == "/v1/models" and self.headers.get("x-api-key") is not None:
                return self.reply(401, {"type": "error", "error": {
                    "type": "authentication_error", "message": "invalid x-api-key"}})
            return self.reply(401, {"error": {"message": "Incorrect API key provided",
                                              "type": "invalid_request_error",
                                              "code": "invalid_api_key"}})
        if self.headers.get("x-api-key") is not None:
            ids = ["claude-opus-5-5", "claude-sonnet-4-6", "claude-haiku-4-5"]
            return self.reply(200, {"data": [{"type": "model", "id": i, "display_name": i,
                                              "created_at": "2026-02-04T00:00:00Z"}
                                             for i in ids],
                                    "has_more": False, "first_id": ids[0], "last_id": ids[-1]})
        ids = {"gpt-6-astra": None, "gpt-5.1": None, "gpt-4.1": "2027-02-17"}
        return self.reply(200, {"object": "list", "data": [
            {"id": i, "object": "model", "created": 1750000000, "owned_by": "openai",
             "shutdown_date": sd} for i, sd in ids.items()]})

    def bluesky_read(self, path, q, auth):
        if path == "/xrpc/com.atproto.identity.resolveHandle":
            if self.server.args.resolve_delay > 0:
                time.sleep(self.server.args.resolve_delay)
            did = HANDLES.get(q.get("handle", "").lower())
            if did is None:
                return self.reply(400, {"error": "HandleNotFound",
                                        "message": "Unable to resolve handle"})
            return self.reply(200, {"did": did})
        if auth != "ok":
            return self.reply(401, {"error": "AuthenticationRequired",
                                    "message": "Authentication Required"})
        if q.get("actor") not in (BSKY_DID, BSKY_HANDLE):
            return self.reply(400, {"error": "InvalidRequest",
                                    "message": "Profile not found"})
        return self.reply(200, {"did": BSKY_DID, "handle": BSKY_HANDLE,
                                "displayName": "Tidewater", "postsCount": 3})

    def mastodon(self, body, auth):
        args = self.server.args
        if auth != "ok":
            return self.reply(401, {"error": "The access token is invalid"})
        if not any(x in args.mastodon_scopes.split() for x in ("write", "write:statuses")):
            return self.reply(403, {"error": "This action is outside the authorized scopes"})
        if args.mode == "http500":
            return self.reply(500, {"error": "internal"})
        key = self.headers.get("Idempotency-Key")
        with LOCK:
            status = STATE["mastodon"].get(key) if key else None
        if status is None:
            refusal = self.mastodon_refusal(body or {})
            if refusal is not None:
                return self.reply(*refusal)
        if status is not None:
            log(args, ev="post", platform="mastodon", id=status["id"], dup=True)
        else:
            pid = next_id()
            status = {"id": pid, "url": "https://mastodon.example/@tidewater/" + pid,
                      "content": (body or {}).get("status"),
                      "in_reply_to_id": (body or {}).get("in_reply_to_id"),
                      "media_attachments": [STATE["media"][m] for m in
                                            (body or {}).get("media_ids") or []],
                      "created_at": time.strftime("%Y-%m-%dT%H:%M:%S.000Z",
                                                  time.gmtime(testclock.now()))}
            with LOCK:
                if key:
                    STATE["mastodon"][key] = status
                STATE["statuses"][pid] = status
                for m in (body or {}).get("media_ids") or []:
                    STATE["media"][m]["attached"] = pid
            log(args, ev="post", platform="mastodon", id=pid, dup=False,
                in_reply_to_id=status["in_reply_to_id"],
                media=(body or {}).get("media_ids") or [])
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
        why = self.bluesky_invalid(record if isinstance(record, dict) else {})
        if why is not None:
            return self.reply(400, {"error": "InvalidRequest",
                                    "message": "Invalid app.bsky.feed.post record: " + why})
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
        log(args, ev="post", platform="bluesky", id=rkey, dup=False,
            reply=record.get("reply"),
            images=len((record.get("embed") or {}).get("images") or []))
        if args.mode == "created-500":
            return self.reply(500, {"error": "InternalServerError",
                                    "message": "Internal Server Error"})
        if self.misbehave():
            return
        self.reply(200, {"uri": uri, "cid": "bafyfake" + rkey,
                         "commit": {"cid": "bafycommit" + rkey, "rev": rkey},
                         "validationStatus": "valid"})

    def upload(self, path, raw):
        """Mastodon's /api/v2/media and Bluesky's uploadBlob."""
        args = self.server.args
        ev = {"ev": "request", "method": "POST", "path": path,
              "bytes": len(raw), "has_camera": CAMERA in raw,
              "content_type": self.headers.get("Content-Type")}
        if path == "/api/v2/media":
            ev["auth"] = self.auth("Authorization", "FAKE_MASTODON_TOKEN",
                                   "Bearer ")
            log(args, **ev)
            return self.mastodon_upload(raw, ev["auth"])
        tok = (self.headers.get("Authorization") or "")[len("Bearer "):]
        ev["auth"] = "ok" if tok in STATE["sessions"] else "bad"
        log(args, **ev)
        if ev["auth"] != "ok":
            return self.reply(401, {"error": "AuthMissing",
                                    "message": "Authentication Required"})
        ctype = self.headers.get("Content-Type") or ""
        if not raw or not ctype or ctype.startswith("application/json"):
            return self.reply(400, {"error": "InvalidRequest",
                                    "message": "a blob needs its bytes and their Content-Type"})
        link = "bafkrei" + hashlib.sha256(raw).hexdigest()[:40]
        blob = {"$type": "blob", "ref": {"$link": link}, "mimeType": ctype,
                "size": len(raw)}
        with LOCK:
            STATE["blobs"][link] = blob
        log(args, ev="upload", platform="bluesky", id=link)
        return self.reply(200, {"blob": blob})

    def multipart(self, raw):
        """{name: (headers, bytes)} of a multipart/form-data body."""
        m = re.search(r"boundary=([^;]+)", self.headers.get("Content-Type") or "")
        if m is None:
            return None
        parts = {}
        for chunk in raw.split(b"--" + m.group(1).strip('"').encode())[1:]:
            if chunk.startswith(b"--"):
                break
            head, _, data = chunk.partition(b"\r\n\r\n")
            name = re.search(rb'name="([^"]*)"', head)
            if name is None:
                return None
            ctype = re.search(rb"Content-Type: *([^\r\n]+)", head)
            parts[name.group(1).decode()] = (
                ctype.group(1).decode() if ctype else None,
                data[:-2] if data.endswith(b"\r\n") else data)
        return parts

    def mastodon_upload(self, raw, auth):
        args = self.server.args
        if auth != "ok":
            return self.reply(401, {"error": "The access token is invalid"})
        parts = self.multipart(raw)
        if not parts or "file" not in parts:
            return self.reply(422, {"error": "Validation failed: File can't be blank"})
        ctype, data = parts["file"]
        if not (ctype or "").startswith("image/"):
            return self.reply(422, {"error": "Validation failed: File content type is invalid"})
        if len(data) > 16 * 1024 * 1024:
            return self.reply(422, {"error": "Validation failed: File file size must be less than 16 MB"})
        desc = parts.get("description", (None, b""))[1].decode("utf-8", "replace")
        if len(desc) > 1500:
            return self.reply(422, {"error": "Validation failed: Description is too long (maximum is 1500 characters)"})
        mid = next_id()
        media = {"id": mid, "type": "image", "description": desc or None,
                 "url": None if args.media_async else
                 "https://mastodon.example/media/" + mid,
                 "polls": 0, "attached": None, "has_camera": CAMERA in data}
        with LOCK:
            STATE["media"][mid] = media
        log(args, ev="upload", platform="mastodon", id=mid,
            has_camera=media["has_camera"], description=desc)
        shown = {k: v for k, v in media.items()
                 if k not in ("polls", "attached", "has_camera")}
        return self.reply(202 if args.media_async else 200, shown)

    def mastodon_media_get(self, mid, auth):
        if auth != "ok":
            return self.reply(401, {"error": "The access token is invalid"})
        with LOCK:
            media = STATE["media"].get(mid)
            if media is not None and media["url"] is None:
                media["polls"] += 1
                if media["polls"] > 1:
                    media["url"] = "https://mastodon.example/media/" + mid
        if media is None:
            return self.reply(404, {"error": "Record not found"})
        shown = {k: v for k, v in media.items()
                 if k not in ("polls", "attached", "has_camera")}
        return self.reply(200 if media["url"] else 206, shown)

    def mastodon_refusal(self, body):
        """(status, error) for a status Mastodon would refuse, or None."""
        ids = body.get("media_ids") or []
        if not isinstance(ids, list) or len(ids) > 4:
            return 422, {"error": "Validation failed: Cannot attach more than 4 files"}
        for m in ids:
            media = STATE["media"].get(m)
            if media is None or media["attached"] is not None:
                return 422, {"error": "Validation failed: Media does not exist"}
            if media["url"] is None:
                return 422, {"error": "Cannot attach files that have not "
                             "finished processing. Try again in a moment!"}
        parent = body.get("in_reply_to_id")
        if parent is not None and parent not in STATE["statuses"]:
            return 404, {"error": "Record not found"}
        return None

    def bluesky_invalid(self, record):
        """Why a record breaks app.bsky.feed.post's embed and reply rules."""
        embed = record.get("embed")
        if embed is not None:
            if embed.get("$type") != "app.bsky.embed.images":
                return "embed: unknown $type"
            images = embed.get("images")
            if not isinstance(images, list) or not 1 <= len(images) <= 4:
                return "embed/images: 1 to 4 images"
            for i, im in enumerate(images):
                blob = im.get("image") if isinstance(im, dict) else None
                link = ((blob or {}).get("ref") or {}).get("$link") \
                    if isinstance(blob, dict) else None
                if link not in STATE["blobs"]:
                    return "embed/images/%d/image: not an uploaded blob" % i
                if not blob.get("mimeType", "").startswith("image/") or \
                        blob.get("size", 0) > 1000000:
                    return "embed/images/%d/image: image/*, at most 1000000 bytes" % i
                if not isinstance(im.get("alt"), str):
                    return "embed/images/%d: alt must be a string" % i
                ar = im.get("aspectRatio")
                if ar is not None and not (
                        isinstance(ar.get("width"), int) and ar["width"] >= 1 and
                        isinstance(ar.get("height"), int) and ar["height"] >= 1):
                    return "embed/images/%d/aspectRatio: positive integers" % i
        reply = record.get("reply")
        if reply is not None:
            for k in ("root", "parent"):
                ref = reply.get(k) if isinstance(reply, dict) else None
                if not isinstance(ref, dict):
                    return "reply/%s: a strong ref" % k
                rec = STATE["bluesky"].get(str(ref.get("uri")).rsplit("/", 1)[-1])
                if rec is None or rec["uri"] != ref.get("uri") or \
                        rec["cid"] != ref.get("cid"):
                    return "reply/%s: no record %s with cid %s" % (
                        k, ref.get("uri"), ref.get("cid"))
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--mode", default="ok",
                    choices=["ok", "provider-error", "http500", "http400",
                             "created-500", "other-record", "stall", "reset",
                             "redirect303", "garbled200", "li-urn-images"])
    ap.add_argument("--account-status", default="ACTIVE",
                    help="status of every Composio connected account")
    ap.add_argument("--mastodon-max-characters", type=json.loads, default=500,
                    help="as JSON: 5000, 1e12, 1.5, -1, '\"500\"'")
    ap.add_argument("--mastodon-url-characters", type=int, default=23)
    ap.add_argument("--x-managed", action="store_true",
                    help="the X account's auth config is Composio-managed")
    ap.add_argument("--hostile", action="store_true",
                    help="Mastodon's 401 reason carries an escape sequence")
    ap.add_argument("--mastodon-scopes", default="read write",
                    help="the app's scopes, space-separated")
    ap.add_argument("--counts", default=None,
                    help="JSON file of the counts Mastodon's timeline shows")
    ap.add_argument("--resolve-delay", type=float, default=0,
                    help="seconds Bluesky's resolveHandle takes to answer")
    ap.add_argument("--instance-retry-after", default=None,
                    help="/api/v2/instance answers 429 with this Retry-After")
    ap.add_argument("--media-async", action="store_true",
                    help="Mastodon answers uploads 202 and processes them later")
    ap.add_argument("--drop-param", action="append", default=[],
                    help="a Composio input parameter no tool lists any more")
    args = ap.parse_args()
    for t in TOOLS.values():
        t["params"] = [p for p in t["params"] if p not in args.drop_param]
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
