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
  "thinking": "..."      (Anthropic) a thinking block before the text, as
                         current models always send
  "stop": REASON         the stop reason: Anthropic's as given (max_tokens,
                         refusal, pause_turn, model_context_window_exceeded;
                         "stop_details": {"type": "refusal", "category",
                         "explanation"} goes with a refusal);
                         OpenAI's finish_reason mapped (max_tokens -> length,
                         content_filter; refusal fills message.refusal)
  "status": 429          an error status; "error": {"type","message"} is
                         the error body, "headers": {...} extra headers
  "no_model": true       404 for the requested model, as each API words it
  "should_retry": "true" the x-should-retry header (default as the APIs
                         send it: true for rate limits, overload and server
                         errors, false otherwise and for an exhausted quota;
                         null sends none)
  "raw": "..."           this exact body (with "status", default 200)
  "truncate": true       announce the full length, send half, close
  "drop": true           read the request, then close without answering
  "stall": SECONDS       wait this long before answering
  "hold_until": PATH     wait until PATH exists before answering (a test
                         decides when the answer arrives)
  "chunk_chars": N       streamed answers: N characters of text per event
                         (default: the text in 8 events)
  "chunk_delay": SECONDS streamed answers: the wait between events
  "stream_error": {...}  streamed answers: an error event half way through
  "no_stream": true      answer unstreamed even when asked to stream

A request whose body says "stream": true gets server-sent events in each
API's shape (Anthropic: message_start, content_block_*, message_delta,
message_stop, with pings; OpenAI: chat.completion.chunk objects, a usage
chunk, then [DONE]).

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


def is_openai(path):
    return path.endswith("/chat/completions")


def openai_finish(stop):
    if stop == "max_tokens":
        return "length"
    if stop in ("content_filter", "tool_calls"):
        return stop
    return "stop"


def answer_body(path, step, model="fake"):
    """The unstreamed answer, naming the model asked for, as the APIs do."""
    text = answer_text(step)
    stop = step.get("stop")
    if is_openai(path):
        msg = {"role": "assistant", "content": text, "refusal": None}
        if stop == "refusal":
            msg = {"role": "assistant", "content": None,
                   "refusal": text or "I can't help with that."}
        return {"id": "chatcmpl-fake", "object": "chat.completion",
                "model": model,
                "choices": [{"index": 0, "message": msg,
                             "finish_reason": openai_finish(stop)}],
                "usage": {"prompt_tokens": 1200, "completion_tokens": 800,
                          "total_tokens": 2000}}
    content = [{"type": "text", "text": text}]
    if "thinking" in step:
        content.insert(0, {"type": "thinking", "thinking": step["thinking"],
                           "signature": "sig_fake"})
    return {"id": "msg_fake", "type": "message", "role": "assistant",
            "model": model, "content": content,
            "stop_reason": stop or "end_turn", "stop_sequence": None,
            "stop_details": step.get("stop_details"),
            "usage": {"input_tokens": 1200, "output_tokens": 800}}


def chunks_of(text, step):
    n = step.get("chunk_chars") or max(1, (len(text) + 7) // 8)
    return [text[i:i + n] for i in range(0, len(text), n)] or [""]


def sse(event, data):
    head = "event: %s\n" % event if event else ""
    return (head + "data: %s\n\n" % json.dumps(data)).encode()


def anthropic_events(step, n, model):
    """The Messages API's stream for the answer body, event by event."""
    body = answer_body("/v1/messages", step, model)
    start = dict(body, content=[], stop_reason=None,
                 usage={"input_tokens": 1200, "output_tokens": 1})
    yield sse("message_start", {"type": "message_start", "message": start})
    yield sse("ping", {"type": "ping"})
    for i, blk in enumerate(body["content"]):
        key = "thinking" if blk["type"] == "thinking" else "text"
        empty = dict(blk, **{key: ""})
        yield sse("content_block_start", {"type": "content_block_start",
                                          "index": i, "content_block": empty})
        parts = chunks_of(blk[key], step)
        for k, part in enumerate(parts):
            if k == len(parts) // 2 and "stream_error" in step and \
                    key == "text":
                yield sse("error", {"type": "error",
                                    "error": step["stream_error"],
                                    "request_id": "req_fake_%d" % n})
                return
            yield sse("content_block_delta", {
                "type": "content_block_delta", "index": i,
                "delta": {"type": "%s_delta" % key, key: part}})
        yield sse("content_block_stop", {"type": "content_block_stop",
                                         "index": i})
    yield sse("message_delta", {"type": "message_delta",
                                "delta": {"stop_reason": body["stop_reason"],
                                          "stop_sequence": None,
                                          "stop_details":
                                              body["stop_details"]},
                                "usage": {"output_tokens": 800}})
    yield sse("message_stop", {"type": "message_stop"})


def openai_events(step, n, model):
    """Chat Completions' stream: chunks, a usage chunk, then [DONE]."""
    body = answer_body("/chat/completions", step, model)
    msg = body["choices"][0]["message"]
    head = {"id": "chatcmpl-fake", "object": "chat.completion.chunk",
            "model": model}

    def chunk(delta, finish=None):
        return sse(None, dict(head, choices=[{"index": 0, "delta": delta,
                                             "finish_reason": finish}]))
    yield chunk({"role": "assistant", "content": ""})
    key = "refusal" if msg["content"] is None else "content"
    parts = chunks_of(msg[key], step)
    for k, part in enumerate(parts):
        if k == len(parts) // 2 and "stream_error" in step:
            yield sse(None, {"error": dict(step["stream_error"],
                                           code=None, param=None)})
            return
        yield chunk({key: part})
    yield chunk({}, body["choices"][0]["finish_reason"])
    yield sse(None, dict(head, choices=[], usage=body["usage"]))
    yield b"data: [DONE]\n\n"


def error_body(path, step, n, model):
    err = step.get("error", {"type": "api_error", "message": "error"})
    if step.get("no_model"):
        if is_openai(path):
            return {"error": {"message": "The model `%s` does not exist or "
                              "you do not have access to it." % model,
                              "type": "invalid_request_error", "param": None,
                              "code": "model_not_found"}}
        err = {"type": "not_found_error", "message": "model: %s" % model}
    if is_openai(path):
        return {"error": {"message": err.get("message", ""),
                          "type": err.get("type", ""),
                          "param": None,
                          "code": err.get("code", err.get("type", ""))}}
    return {"type": "error", "error": err, "request_id": "req_fake_%d" % n}


def should_retry(step, status):
    """x-should-retry as the APIs send it, unless the step says."""
    if "should_retry" in step:
        return step["should_retry"]
    if status < 400:
        return None
    msg = step.get("error", {}).get("message", "").lower()
    if "quota" in msg or "spend limit" in msg:
        return "false"
    return "true" if status in (408, 409, 429) or status >= 500 else "false"


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
        if step.get("no_model"):
            step = dict(step, status=404)
        if "stall" in step:
            time.sleep(step["stall"])
        while "hold_until" in step and not os.path.exists(step["hold_until"]):
            time.sleep(0.05)
        if step.get("drop"):
            self.close_connection = True
            return
        status = step.get("status", 200)
        model = body.get("model", "") if isinstance(body, dict) else ""
        streamed = isinstance(body, dict) and body.get("stream") is True \
            and status == 200 and "raw" not in step \
            and not step.get("no_stream")
        if streamed:
            self.stream(step, n, model)
            return
        if "raw" in step:
            data = step["raw"].encode()
        elif status == 200:
            data = json.dumps(answer_body(self.path, step, model)).encode()
        else:
            data = json.dumps(error_body(self.path, step, n, model)).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.common_headers(step, status, n)
        if step.get("truncate"):
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(data)

    def common_headers(self, step, status, n):
        self.send_header("request-id", "req_fake_%d" % n)
        if is_openai(self.path):
            self.send_header("x-request-id", "req_fake_%d" % n)
        retry = should_retry(step, status)
        if retry is not None:
            self.send_header("x-should-retry", retry)
        for k, v in step.get("headers", {}).items():
            self.send_header(k, str(v))
        self.end_headers()

    def stream(self, step, n, model):
        """Sends the answer as server-sent events, without a length (the
        connection closes at the end), pausing chunk_delay between events;
        truncate stops half way."""
        events = list(openai_events(step, n, model) if is_openai(self.path)
                      else anthropic_events(step, n, model))
        if step.get("truncate"):
            events = events[:len(events) // 2]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.close_connection = True
        self.common_headers(step, 200, n)
        delay = step.get("chunk_delay", 0)
        for ev in events:
            self.wfile.write(ev)
            self.wfile.flush()
            if delay:
                time.sleep(delay)


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
