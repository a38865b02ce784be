#!/usr/bin/python3
"""fake_llm -- a loopback stand-in for the Anthropic Messages and OpenAI
Chat Completions APIs, scripted per test.

    fake_llm.py --script S.json --log DIR --port-file F [--expect-key K]

Binds 127.0.0.1 on a free port and writes the port to F. Each request
takes the next step of the script (a JSON list); a step with "times": N
serves N requests. Step fields:

  "text": "..."          a successful answer carrying this text, shaped for
                         the endpoint asked (/v1/messages or /chat/completions)
  "code_file": PATH      a successful answer: "preamble", then the file in a
                         ```python block, with "code_prefix" put before it
  "stop": "max_tokens"   report the answer as cut at the token limit
  "status": 429          an error status; "error": {"type","message"} is
                         the error body, "headers": {...} extra headers
  "raw": "..."           this exact body (with "status", default 200)
  "truncate": true       announce the full length, send half, close
  "stall": SECONDS       wait this long before answering
  "hold_until": PATH     wait until PATH exists before answering (a test
                         decides when the answer arrives)

The script is read again (and the count restarts) whenever the file
changes, so one server can serve a whole test file: replace the script
(write and rename) between checks. Every request is appended to DIR/requests.jsonl as {"path", "body",
"key_ok"} -- never the key itself. With --expect-key, a request whose
x-api-key / bearer token differs gets a 401.
"""
import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"steps": [], "n": 0, "path": None, "stamp": None}


def load_script():
    st = os.stat(STATE["path"])
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    if stamp != STATE["stamp"]:
        with open(STATE["path"], encoding="utf-8") as f:
            STATE["steps"] = json.load(f)
        STATE["stamp"] = stamp
        STATE["n"] = 0


def next_step():
    with LOCK:
        load_script()
        STATE["n"] += 1
        n = STATE["n"]
        for step in STATE["steps"]:
            times = step.get("times", 1)
            if n <= times:
                return n, step
            n -= times
    return STATE["n"], {"status": 500,
                        "error": {"type": "api_error",
                                  "message": "fake_llm: script exhausted"}}


def answer_text(step):
    if "code_file" not in step:
        return step.get("text", "")
    with open(step["code_file"], encoding="utf-8") as f:
        code = f.read()
    return "%s\n\n```python\n%s%s```\n" % (step.get("preamble", "Here it is."),
                                         step.get("code_prefix", ""), code)


def answer_body(path, step):
    text = answer_text(step)
    stop = step.get("stop")
    if path.endswith("/chat/completions"):
        return {"id": "chatcmpl-fake", "object": "chat.completion",
                "model": "fake",
                "choices": [{"index": 0,
                             "message": {"role": "assistant",
                                         "content": text},
                             "finish_reason":
                                 "length" if stop == "max_tokens" else "stop"}],
                "usage": {"prompt_tokens": 1200, "completion_tokens": 800,
                          "total_tokens": 2000}}
    return {"id": "msg_fake", "type": "message", "role": "assistant",
            "model": "fake",
            "content": [{"type": "text", "text": text}],
            "stop_reason": stop or "end_turn",
            "usage": {"input_tokens": 1200, "output_tokens": 800}}


def error_body(path, step):
    err = step.get("error", {"type": "api_error", "message": "error"})
    if path.endswith("/chat/completions"):
        return {"error": {"message": err.get("message", ""),
                          "type": err.get("type", ""),
                          "code": err.get("code", err.get("type", ""))}}
    return {"type": "error", "error": err}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def key_ok(self):
        want = self.server.expect_key
        got = self.headers.get("x-api-key")
        auth = self.headers.get("authorization", "")
        if got is None and auth.startswith("Bearer "):
            got = auth[len("Bearer "):]
        return want is None or got == want

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        raw = self.rfile.read(length).decode("utf-8", "replace")
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw
        key_ok = self.key_ok()
        n, step = next_step()
        with LOCK:
            with open(os.path.join(self.server.log_dir, "requests.jsonl"),
                      "a", encoding="utf-8") as f:
                f.write(json.dumps({"n": n, "path": self.path, "body": body,
                                    "key_ok": key_ok}) + "\n")
        if not key_ok:
            step = {"status": 401,
                    "error": {"type": "authentication_error",
                              "message": "invalid x-api-key"}}
        if "stall" in step:
            time.sleep(step["stall"])
        while "hold_until" in step and not os.path.exists(step["hold_until"]):
            time.sleep(0.05)
        status = step.get("status", 200)
        if "raw" in step:
            data = step["raw"].encode()
        elif status == 200:
            data = json.dumps(answer_body(self.path, step)).encode()
        else:
            data = json.dumps(error_body(self.path, step)).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", "req_fake_%d" % n)
        for k, v in step.get("headers", {}).items():
            self.send_header(k, str(v))
        self.end_headers()
        if step.get("truncate"):
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (the stall check) is expected, not news.
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--expect-key")
    a = ap.parse_args()
    STATE["path"] = a.script
    load_script()
    srv = Server(("127.0.0.1", 0), Handler)
    srv.log_dir = a.log
    srv.expect_key = a.expect_key
    tmp = a.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, a.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
