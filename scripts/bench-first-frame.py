#!/usr/bin/env python3
"""Time from spawn to the first frame's bytes, without a terminal emulator in the way.

ttyprobe.py (the issue's measure) feeds every byte to pyte, a terminal emulator written in Python, before it
looks for its marker: its figure is the program's start-up plus pyte's time to parse the frame, which grows with
the frame's size (about 1.3 µs a byte on these VMs). This script reads the pseudo-terminal's raw bytes and stops
the clock when the marker's bytes arrive, so that it measures the program alone. A and B run alternately
(A B A B …); it prints the medians, the minimums and the ratio A / B.

    scripts/bench-first-frame.py --pairs 41 --marker 'What would you like' \\
        --vs 'whiptail --passwordbox Password 8 40' --vs-marker Password -- .build/release/idp-tui --ephemeral
"""
import argparse
import fcntl
import os
import pty
import select
import shlex
import signal
import statistics
import struct
import termios
import time


def one(argv, marker, cols, rows, term):
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        # The environment ttyprobe.py gives both programs.
        os.environ.update({"TERM": term, "LANG": os.environ.get("LANG", "C.UTF-8"),
                           "COLUMNS": str(cols), "LINES": str(rows)})
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    seen, found, total = b"", None, 0
    deadline = start + 10
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        total += len(chunk)
        seen = (seen + chunk)[-4096:]
        if found is None and marker in seen:
            found = (time.monotonic() - start) * 1000
            break
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
    os.close(fd)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=41)
    parser.add_argument("--marker", required=True)
    parser.add_argument("--vs", required=True, help="the other command (B)")
    parser.add_argument("--vs-marker", help="B's marker (default: --marker)")
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--term", default="xterm-256color")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("the command (A) goes after --")
    other = shlex.split(args.vs)
    a_marker, b_marker = args.marker.encode(), (args.vs_marker or args.marker).encode()
    a, b = [], []
    for _ in range(args.pairs):
        a.append(one(command, a_marker, args.cols, args.rows, args.term))
        b.append(one(other, b_marker, args.cols, args.rows, args.term))
    a = [t for t in a if t is not None]
    b = [t for t in b if t is not None]
    if not a or not b:
        raise SystemExit("bench-first-frame: a marker never arrived")
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"A {' '.join(command)}: median {ma:.2f} ms, min {min(a):.2f} ms ({len(a)} runs)")
    print(f"B {args.vs}: median {mb:.2f} ms, min {min(b):.2f} ms ({len(b)} runs)")
    print(f"ratio A/B (medians): {ma / mb:.3f}")


if __name__ == "__main__":
    main()
