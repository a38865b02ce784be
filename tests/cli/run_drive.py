#!/usr/bin/python3
"""Drives `fronts run --live` on a fresh pseudo-terminal for
tests/cli/test_run.sh: answers each "Send this post now?" question with
the next of --keys (then --default), and can act after the N-th SENT:

  run_drive.py --out TRANSCRIPT [--keys y,n,s] [--default y]
               [--after-sent N:COMMAND] [--kill-after-sent N]
               [--kill-on TEXT] [--timeout S] -- CMD ARG...

--after-sent runs COMMAND with /bin/sh once the N-th "SENT:" line is out
(before the next answer); --kill-after-sent sends SIGKILL right after the
N-th "SENT:" line; --kill-on sends it once TEXT is out (a test pause
point's "paused", say). Exits with the command's status (128+signal when
killed), 124 when it runs longer than --timeout seconds.
"""
import argparse
import os
import pty
import select
import signal
import subprocess
import sys
import time

PROMPT = b"Send this post now?"


def main():
    argv = sys.argv[1:]
    i = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--keys", default="")
    ap.add_argument("--default", default="y")
    ap.add_argument("--after-sent", action="append", default=[])
    ap.add_argument("--kill-after-sent", type=int, default=0)
    ap.add_argument("--kill-on", default="")
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args(argv[:i])
    keys = [k for k in args.keys.split(",") if k]
    after = {}
    for a in args.after_sent:
        n, _, cmd = a.partition(":")
        after[int(n)] = cmd

    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[i + 1], argv[i + 1:])
    buf = bytearray()
    prompts = sent = 0
    deadline = time.time() + args.timeout
    status = None
    alive = True
    while status is None:
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            open(args.out, "wb").write(bytes(buf))
            sys.stderr.write("run_drive: timed out\n")
            return 124
        if alive:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    alive = False
                buf.extend(data)
        while buf.count(b"SENT:") > sent:
            sent += 1
            if sent in after:
                subprocess.call(["/bin/sh", "-c", after[sent]])
            if sent == args.kill_after_sent:
                os.kill(pid, signal.SIGKILL)
        if args.kill_on and alive and args.kill_on.encode() in buf:
            os.kill(pid, signal.SIGKILL)
            alive = False
        if buf.count(PROMPT) > prompts:
            prompts += 1
            key = keys.pop(0) if keys else args.default
            os.write(fd, key.encode())
        done, st = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            status = st
            while alive:
                r, _, _ = select.select([fd], [], [], 0.05)
                if not r:
                    break
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    break
                if not data:
                    break
                buf.extend(data)
        elif not alive:
            time.sleep(0.02)
    open(args.out, "wb").write(bytes(buf))
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
