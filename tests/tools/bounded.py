#!/usr/bin/env python3
"""bounded.py SECONDS MEGABYTES CMD...: run CMD in bounded time and memory.

CMD inherits standard input, output and error. It is killed after SECONDS
(exit 124), and may use at most MEGABYTES: where it is not built with
AddressSanitizer (whose shadow memory needs terabytes of address space)
its address space is capped to that (RLIMIT_AS), so that a regression
fails instead of eating the machine's memory; in both builds its peak
resident memory is checked afterwards (exit 125 when over). Otherwise
exits with CMD's status. So a test of an endless or huge input stays a
test, not an outage.
"""
import os
import resource
import subprocess
import sys


def sanitized(path):
    try:
        out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    except OSError:
        return False
    return "libasan" in out


def main():
    seconds, mb, cmd = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    limit = mb << 20
    asan = sanitized(cmd[0])

    def cap():
        if not asan:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    try:
        # close_fds=False: a <(...) input is a descriptor of ours
        rc = subprocess.run(cmd, preexec_fn=cap, timeout=seconds,
                            close_fds=False).returncode
    except subprocess.TimeoutExpired:
        print("bounded: %s did not end within %g s" % (cmd[0], seconds),
              file=sys.stderr)
        sys.exit(124)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB
    if peak > limit >> 10:
        print("bounded: %s used %d MiB, more than %d" % (cmd[0], peak >> 10, mb),
              file=sys.stderr)
        sys.exit(125)
    sys.exit(rc if rc >= 0 else 128 - rc)


if __name__ == "__main__":
    main()
