#!/usr/bin/env python3
"""Start-up against the scenario's size (issue 16, point 5): `idp-tui run logout` on the demo scenario and on a
scenario of N more users, run in alternating pairs; prints the medians and their ratio.

    swift build -c release --product idp-tui
    python3 scripts/bench-scenario-size.py --binary .build/release/idp-tui --users 10000 --pairs 201

The users are spread over tenants of 1,000 (the scenario format's limit per tenant), each with a password and an
activation code, added to docs/scenarios/default.json. On these VMs a median of 31 pairs moves by about 0.05 in
ratio from one run to the next; 201 pairs (about 10 s) by about 0.01, and the ratios of each half's medians are
printed beside it to show how far. The binary is timed from a fresh copy: the same bytes started 2-3.5 ms
(15-20 %) slower from a file that had been on the machine for an hour than from a copy made that minute (the page
cache's state of an 88 MB executable), which moves the ratio by 0.05.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/idp-tui")
    parser.add_argument("--users", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=201)
    parser.add_argument("--command", default="run logout", help="the idp-tui command to time (default: run logout)")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    scenario = json.load(open(os.path.join(here, "..", "docs", "scenarios", "default.json")))
    tenants = scenario["identityProvider"]["tenants"]
    for start in range(0, args.users, 1000):
        users = [{"username": f"user{n:05d}", "password": f"password-{n:05d}", "activationCode": f"{n % 1000000:06d}"}
                 for n in range(start, min(start + 1000, args.users))]
        tenants.append({"id": f"tenant{start // 1000}", "users": users})
    folder = tempfile.mkdtemp(prefix="idp-tui-bench-")
    binary = os.path.join(folder, "idp-tui")
    shutil.copy2(args.binary, binary)
    big = os.path.join(folder, "big.json")
    with open(big, "w") as file:
        json.dump(scenario, file)
    demo = os.path.join(here, "..", "docs", "scenarios", "default.json")

    def timed(path):
        begin = time.perf_counter()
        subprocess.run([binary] + args.command.split() + ["--ephemeral", "--scenario", path],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return (time.perf_counter() - begin) * 1000

    timed(demo), timed(big)  # warm the page cache
    small, large = [], []
    for _ in range(args.pairs):
        small.append(timed(demo))
        large.append(timed(big))
    size = os.path.getsize(big)
    shutil.rmtree(folder)
    a, b = statistics.median(small), statistics.median(large)
    half = args.pairs // 2
    halves = [statistics.median(large[part]) / statistics.median(small[part]) for part in (slice(0, half), slice(half, None))]
    print(f"{args.command}: demo scenario {a:.2f} ms, {args.users:,}-user scenario ({size:,} bytes) "
          f"{b:.2f} ms: ratio {b / a:.3f} (medians of {args.pairs} alternating pairs; each half's: "
          f"{halves[0]:.3f}, {halves[1]:.3f})")

if __name__ == "__main__":
    sys.exit(main())
