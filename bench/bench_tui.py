#!/usr/bin/python3
"""bench_tui — the TUI's responsiveness on the real binary, through a pty.

* Key-to-screen latency while the planner runs with one worker per core:
  `?` is written to the terminal and the clock stops when the help
  screen's text ("repaint") has arrived on the terminal's output; `x`
  closes it again. Reported as p50 / p95 / max over N keys.
* The UI thread's own CPU (utime + stime of /proc/PID/task/PID/stat, the
  main thread, which is the UI thread) over S seconds, idle and while
  planning, as a percentage of one core.

A pty rather than tmux: it times the program, not tmux's client start-up.
Usage: bench_tui.py FRONTS PROJECT_DIR [KEYS] [SECONDS]
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

fronts, demo = sys.argv[1], sys.argv[2]
keys = int(sys.argv[3]) if len(sys.argv) > 3 else 100
secs = float(sys.argv[4]) if len(sys.argv) > 4 else 5.0
ncpu = os.cpu_count() or 1

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.environ.update(TERM="screen-256color", LANG="C.UTF-8",
                      LC_ALL="C.UTF-8")
    os.execv(fronts, [fronts, "tui", "-C", demo])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))


def read_until(marker, timeout):
    """Reads output until marker shows; returns the time it arrived."""
    buf = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], end - time.monotonic())
        if not r:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        buf = (buf + chunk)[-4096:]
        if marker in buf:
            return time.monotonic()
    sys.exit("bench_tui: never saw %r" % marker)


def drain(quiet, limit=1.0):
    """Reads until the output has been quiet for `quiet` seconds (or for
    `limit` seconds at most: the planner redraws ten times a second)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            return
        try:
            os.read(fd, 65536)
        except OSError:
            return


def ui_cpu():
    path = "/proc/%d/task/%d/stat" % (pid, pid)

    def ticks():
        with open(path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    a = ticks()
    end = time.monotonic() + secs
    while time.monotonic() < end:
        drain(0.05, 0.2)
    b = ticks()
    return (b - a) * 100.0 / os.sysconf("SC_CLK_TCK") / secs


def command(line, marker):
    os.write(fd, b":")
    read_until(b":", 5)
    time.sleep(0.05)
    os.write(fd, line.encode() + b"\r")
    read_until(marker.encode(), 10)


read_until(b"DRY-RUN", 20)
drain(0.3)
print("bench_tui: %d cores, 120x40 pty, %d keys, %.0f s CPU windows"
      % (ncpu, keys, secs))
print("ui thread CPU idle:     %.2f%% of one core" % ui_cpu())
command("workers %d" % ncpu, "workers: %d" % ncpu)
command("seconds 600", "it/s")
drain(0.2)
print("ui thread CPU planning: %.2f%% of one core (%d worker processes)"
      % (ui_cpu(), ncpu))
lat = []
for _ in range(keys):
    drain(0.03)
    t0 = time.monotonic()
    os.write(fd, b"?")
    lat.append(read_until(b"repaint", 5) - t0)
    os.write(fd, b"x")
    drain(0.05)
lat.sort()
pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
print("key-to-screen while planning: p50 %.1f ms, p95 %.1f ms, max %.1f ms"
      " (%d keys)" % (pct(0.50), pct(0.95), lat[-1] * 1000, len(lat)))
os.write(fd, b"q")
read_until(b"Quit?", 5)
os.write(fd, b"y")
while True:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:
        break
_, status = os.waitpid(pid, 0)
sys.exit(0 if os.WEXITSTATUS(status) == 0 else 1)
