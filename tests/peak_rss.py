#!/usr/bin/env python3
"""peak_rss.py OUT CMD [ARG...] -- runs CMD and writes its own peak
resident memory (VmHWM, KiB) to OUT, then exits with CMD's status.

Measured at CMD's exit under ptrace (PTRACE_O_TRACEEXIT stops the process
after its last instruction and before its memory is released), so the
figure is CMD's alone: getrusage() and wait4() would also count the
children it waited for (fronts' sandbox workers). Standard input, output
and error are CMD's.
"""
import ctypes
import os
import signal
import sys

PTRACE_TRACEME = 0
PTRACE_CONT = 7
PTRACE_SETOPTIONS = 0x4200
PTRACE_O_TRACEEXIT = 0x40
PTRACE_EVENT_EXIT = 6

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                        ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long


def hwm(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def main():
    out, argv = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        libc.ptrace(PTRACE_TRACEME, 0, None, None)
        os.execvp(argv[0], argv)
    _, status = os.waitpid(pid, 0)          # stopped at the exec
    libc.ptrace(PTRACE_SETOPTIONS, pid, None, PTRACE_O_TRACEEXIT)
    libc.ptrace(PTRACE_CONT, pid, None, None)
    peak = -1
    while True:
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) or os.WIFSIGNALED(status):
            break
        sig = os.WSTOPSIG(status)
        if sig == signal.SIGTRAP and status >> 16 == PTRACE_EVENT_EXIT:
            peak = hwm(pid)
            sig = 0
        libc.ptrace(PTRACE_CONT, pid, None, sig)
    with open(out, "w") as f:
        f.write("%d\n" % peak)
    if os.WIFSIGNALED(status):
        sys.exit(128 + os.WTERMSIG(status))
    sys.exit(os.WEXITSTATUS(status))


main()
