#!/usr/bin/python3
"""Runs a command on a fresh pseudo-terminal and drives it with keypresses,
for the tests of everything that must be typed by a person (the publish
keypress). Steps, in order, after the options:

  expect:REGEX          wait until output after the previous expect's
                        match matches REGEX
  send:TEXT             type TEXT (\\n, \\r and \\x03 escapes allowed)
  waitfile:PATH:REGEX   wait until the file PATH matches REGEX
  sh:COMMAND            run COMMAND with /bin/sh and wait for it ($PID is
                        the command's pid); a failing COMMAND fails the run
  kill9                 SIGKILL the command
  end                   wait for the command to exit

  pty_drive.py --out TRANSCRIPT [--env K=V ...] STEP... -- CMD ARG...

Exits with the command's status (128+signal when killed by one); 124 when a
step waits longer than --timeout seconds, with the transcript on stderr.
"""
import argparse
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time


def read_some(fd, buf, timeout):
    r, _, _ = select.select([fd], [], [], timeout)
    if fd in r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return False
        if not data:
            return False
        buf.extend(data)
    return True


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: pty_drive.py [--out F] STEP... -- CMD ...")
    i = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("steps", nargs="*")
    args = ap.parse_args(argv[:i])
    cmd = argv[i + 1:]

    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    buf = bytearray()
    status = None
    alive = True
    pos = 0     # each expect matches only output after the previous one

    def save():
        with open(args.out, "wb") as f:
            f.write(bytes(buf))

    def fail(why):
        save()
        sys.stderr.write("pty_drive: %s\n--- transcript ---\n%s\n" %
                         (why, buf.decode("utf-8", "replace")))
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        sys.exit(124)

    for step in args.steps:
        kind, _, arg = step.partition(":")
        deadline = time.time() + args.timeout
        if kind == "expect":
            rx = re.compile(arg.encode())
            while True:
                m = rx.search(buf, pos)
                if m:
                    pos = m.end()
                    break
                if time.time() > deadline:
                    fail("timed out on " + step)
                if alive and not read_some(fd, buf, 0.1):
                    alive = False
                elif not alive:
                    fail("command ended before " + step)
        elif kind == "send":
            text = arg.encode().decode("unicode_escape").encode("latin-1")
            os.write(fd, text)
        elif kind == "waitfile":
            path, _, rx = arg.partition(":")
            rx = re.compile(rx)
            while True:
                try:
                    with open(path) as f:
                        if rx.search(f.read()):
                            break
                except OSError:
                    pass
                if time.time() > deadline:
                    fail("timed out on " + step)
                if not alive:
                    time.sleep(0.05)
                elif not read_some(fd, buf, 0.05):
                    alive = False
        elif kind == "sh":
            rc = subprocess.call(["/bin/sh", "-c", arg],
                                 env=dict(os.environ, PID=str(pid)))
            if rc != 0:
                fail("step %s exited %d" % (step, rc))
        elif kind == "kill9":
            os.kill(pid, signal.SIGKILL)
        elif kind == "end":
            pass
        else:
            sys.exit("pty_drive: unknown step " + step)

    deadline = time.time() + args.timeout
    while status is None:
        if alive and not read_some(fd, buf, 0.1):
            alive = False
        done, st = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            status = st
            while alive and read_some(fd, buf, 0.05):
                pass
        elif time.time() > deadline:
            fail("command did not exit")
    save()
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
