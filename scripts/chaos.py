#!/usr/bin/env python3
"""The chaos test: idp-tui processes share one state file and are killed (SIGKILL) at random moments.

    scripts/chaos.py --seed 7 --duration 60 --workers 8 --binary .build/release/idp-tui

Eight worker slots run the real binary over and over on one state file: flows (`run activate|login|logout|
payer-auth`, one or several per process), `history --json`, `history export ID --format json|mermaid` and, in
some rounds, `reset`. A controller kills a random share of the processes with SIGKILL at a random moment of
their life, and now and then every running process at once. The test is a series of rounds; each ends quietly
(no process left), is verified, and is followed by a reset that may itself be killed. What is verified, and
why "exact" means what it means here, is in docs/reliability.md ("Chaos"); in short:

- `PRAGMA integrity_check` is ok and no foreign key dangles;
- no partial flow: every flow has events 1…n, each as its columns say, beginning with the app's first call;
- no completed flow lost: every flow whose result line a process printed is in the history, with exactly the
  transcript the process printed, unless a reset that ran after it deleted it (then it must be gone);
- every other flow in the history is the flow a killed process was in the middle of (its printed events
  are a prefix of the transcript);
- counts exact: the IdP's count of wrong passwords equals the wrong passwords it answered, no two counted
  the same (no lost update), any difference accounted for by a killed process; the lock is on exactly when
  the count reached the policy's maximum; an activation code is used at most once;
- a killed reset left the file as it was or empty, nothing between; a completed reset left it empty.

The seed (printed first) fixes the plan: the n-th process started gets the same command, answers and kill
point, and the rounds the same kinds. The processes' timing is the machine's, so a replay repeats the plan,
not the exact interleaving. Exit status 0 when every check
passed, 1 when one failed (each failure is printed), 2 for bad arguments.

Python 3 standard library only.
"""

import argparse
import json
import os
import random
import re
import selectors
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

# The demo users (README) and one of our own, mallory, who only ever gives wrong passwords: the count the
# IdP keeps for her is the count under test.
USERS = {"alice": ("wonderland", "123456"), "bob": ("builder", "654321")}
MALLORY = "mallory"
MALLORY_PASSWORD = "not-a-guessable-password"
# Count rounds never reach the lock (at most 99 attempts are sent); lock rounds reach it after 10.
COUNT_ROUND_MAX_FAILURES = 100
LOCK_ROUND_MAX_FAILURES = 10
LOCK_SECONDS = 31536000  # a year: a lock never runs out during a test

CARDS = {"frictionless": "4000000000002701", "challenge": "4000000000002503"}
# The fields of an event that the history keeps, to compare a printed transcript with a recorded one.
EVENT_KEYS = ("step", "from", "to", "thread", "time", "duration", "status", "detail", "message")
# A flow's first call from the app (a logout on a device that was never started starts it first).
FIRST_STEP = {"activate": {"Start"}, "login": {"Start"}, "logout": {"Start", "Restart"}, "payer-auth": {"configure"}}
REFUSED = re.compile(r"lock|in use|busy|held|open by|another process", re.IGNORECASE)
ATTEMPTS_LEFT = re.compile(r"\((\d+) attempts? left before the account locks\)")


def now():
    return time.monotonic()


# MARK: - Processes


class Proc:
    """One idp-tui process: what it was asked to do, what it printed (each line with when it was read), how it
    ended."""

    def __init__(self, number, op, argv, stdin):
        self.number = number
        self.op = op  # dict: kind (run, history, export, reset) and what the kind needs
        self.argv = argv
        self.stdin = stdin
        self.kill_at = None  # a moment, or
        self.kill_after_lines = None  # a line count: kill once it printed this many
        self.kill_delay = 0.0  # and this long after
        self.popen = None
        self.spawned = None
        self.ended = None
        self.out = b""
        self.err = b""
        self.lines = []  # (time read, text)
        self.open_pipes = 0
        self.status = None
        self.hung = False
        self.aimed = False

    @property
    def killed(self):
        return self.status == -signal.SIGKILL

    def text(self):
        return self.out.decode("utf-8", "replace")

    def stderr(self):
        return self.err.decode("utf-8", "replace").strip()


class Runner:
    """Starts processes, reads their output as it comes, kills them when told and reaps them."""

    def __init__(self, binary):
        self.binary = binary
        self.selector = selectors.DefaultSelector()
        self.running = {}
        self.count = 0

    def spawn(self, op, argv, stdin):
        self.count += 1
        proc = Proc(self.count, op, argv, stdin)
        proc.spawned = now()
        proc.popen = subprocess.Popen([self.binary] + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
        try:
            proc.popen.stdin.write(stdin.encode())
        except BrokenPipeError:
            pass
        try:
            proc.popen.stdin.close()
        except BrokenPipeError:
            pass
        for stream, name in ((proc.popen.stdout, "out"), (proc.popen.stderr, "err")):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ, (proc, name))
            proc.open_pipes += 1
        self.running[proc.number] = proc
        return proc

    def kill(self, proc):
        if proc.popen.poll() is None:
            try:
                os.kill(proc.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def pump(self, timeout):
        """Reads what is ready (waiting at most `timeout`), and returns the processes that ended."""
        for key, _ in self.selector.select(max(0.0, timeout)):
            proc, name = key.data
            try:
                chunk = os.read(key.fileobj.fileno(), 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.selector.unregister(key.fileobj)
                key.fileobj.close()
                proc.open_pipes -= 1
                continue
            if name == "err":
                proc.err += chunk
                continue
            read_at = now()
            start = proc.out.rfind(b"\n") + 1
            proc.out += chunk
            while True:
                end = proc.out.find(b"\n", start)
                if end < 0:
                    break
                proc.lines.append((read_at, proc.out[start:end].decode("utf-8", "replace")))
                start = end + 1
        ended = []
        for proc in list(self.running.values()):
            if proc.open_pipes == 0 and proc.popen.poll() is not None:
                proc.status = proc.popen.returncode
                proc.ended = now()
                del self.running[proc.number]
                ended.append(proc)
        return ended


# MARK: - The plan


def scenario(max_failures):
    users = [{"username": name, "password": password, "activationCode": code}
             for name, (password, code) in USERS.items()]
    users.append({"username": MALLORY, "password": "mallorys-real-password", "activationCode": "999999"})
    return {"scenario": 1, "name": "chaos (max %d failures)" % max_failures,
            "identityProvider": {"lockout": {"maxFailures": max_failures, "lockSeconds": LOCK_SECONDS},
                                 "tenants": [{"id": "demo", "users": users}]}}


class Planner:
    """Every choice the controller makes, from one seeded generator."""

    def __init__(self, seed, kill_share):
        # Separate streams, so that the n-th process started gets the same command, answers and kill whatever
        # the timing: the plan; the pauses between processes and the bursts of kills; the checks' samples;
        # the rounds with resets.
        self.rng = random.Random(seed)
        self.timing = random.Random(seed * 2 + 1)
        self.sampling = random.Random(seed * 3 + 2)
        self.rounds = random.Random(seed * 5 + 3)
        self.kill_share = kill_share

    def kill(self):
        """Whether and where a process is killed: None, or (mode, fraction, delay, aim).

        The mode is "time" (at a fraction of the process's expected life; past 1.0 it may be over already) or
        "lines" (once it printed that fraction of the lines it is expected to print, then `delay` later: a
        line is printed up to 5 ms after its event). Start-up is most of a short process's life, so counting
        lines lands kills on every step of a flow alike. `aim`: for a process that gives one wrong password,
        kill it instead just before the moment the IdP's answer comes out, less `delay`: the IdP's count and
        the history's write are under a millisecond apart, and aimed kills land between them now and then."""
        if self.rng.random() >= self.kill_share:
            return None
        return self.rng.choice(["time", "lines"]), self.rng.uniform(0.0, 1.3), self.rng.uniform(0.0, 0.005), self.rng.random() < 0.5

    def flow(self, round_):
        """One flow and its answers. Mallory's wrong passwords are budgeted in count rounds so that the count
        stays under the lock."""
        rng = self.rng
        choices = ["activate"] * 8 + ["login"] * 14 + ["logout"] * 8 + ["mallory"] * 14 + ["pay"] * 12 + ["cancel"] * 3
        kind = rng.choice(choices)
        if kind == "mallory" and round_.mallory_budget is not None and round_.mallory_sent >= round_.mallory_budget:
            kind = "login"
        latency = {"faults": {"addedLatencyMs": rng.choice([5, 10, 20, 40])}} if rng.random() < 0.5 else {}
        if kind == "activate":
            user = rng.choice(list(USERS))
            return "activate", dict(username=user, password=USERS[user][0], **{"activation-code": USERS[user][1]}, **latency), False
        if kind == "login":
            user = rng.choice(list(USERS))
            return "login", dict(username=user, password=USERS[user][0], **latency), False
        if kind == "logout":
            return "logout", {}, False
        if kind == "mallory":
            round_.mallory_sent += 1
            flow = rng.choice(["login", "activate"])
            answers = dict(username=MALLORY, password=MALLORY_PASSWORD, **latency)
            if flow == "activate":
                answers["activation-code"] = "000000"
            return flow, answers, True
        if kind == "pay":
            card = rng.choice(["frictionless", "challenge"])
            answers = {"card": CARDS[card], "expiry": "12/30"}
            if card == "challenge":
                answers["otp"] = "1234"
            if rng.random() < 0.3:
                answers["delay"] = rng.choice([0.05, 0.1, 0.2, 0.3])
            return "payer-auth", answers, False
        if rng.random() < 0.5:
            return "payer-auth", {"card": CARDS["challenge"], "expiry": "12/30", "cancel": rng.choice([True, "challenge"])}, False
        return rng.choice(["login", "activate"]), {"cancel": True}, False

    def operation(self, round_, state, known_ids):
        """The next process to start: (op, argv, stdin)."""
        rng = self.rng
        roll = rng.random()
        scenario_file = round_.scenario_file
        if round_.resets_allowed and roll < 0.006:
            return {"kind": "reset"}, ["reset", "--state", state], ""
        if roll < 0.10:
            return {"kind": "history"}, ["history", "--json", "--limit", "40", "--state", state], ""
        if roll < 0.22:
            listed_at, ids = known_ids
            if not ids:
                return {"kind": "history"}, ["history", "--json", "--limit", "40", "--state", state], ""
            flow_id = rng.choice(ids)
            fmt = rng.choice(["json", "mermaid"])
            op = {"kind": "export", "id": flow_id, "format": fmt, "listed_at": listed_at}
            return op, ["history", "export", str(flow_id), "--format", fmt, "--state", state], ""
        count = 1 if roll < 0.75 else rng.randint(2, 6)
        flows, answers, mallory = [], [], []
        for _ in range(count):
            flow, answer, is_mallory = self.flow(round_)
            flows.append(flow)
            answers.append(answer)
            mallory.append(is_mallory)
        seed = rng.randrange(1, 2**31)
        stdin = json.dumps(answers[0] if count == 1 else answers)
        argv = ["run"] + flows + ["--state", state, "--scenario", scenario_file, "--seed", str(seed)]
        return {"kind": "run", "flows": flows, "mallory": mallory}, argv, stdin


# MARK: - Bookkeeping


class Round:
    def __init__(self, number, kind, scenario_file, resets_allowed):
        self.number = number
        self.kind = kind  # "count" or "lock"
        self.max_failures = COUNT_ROUND_MAX_FAILURES if kind == "count" else LOCK_ROUND_MAX_FAILURES
        self.mallory_budget = COUNT_ROUND_MAX_FAILURES - 1 if kind == "count" else None
        self.mallory_sent = 0
        self.scenario_file = scenario_file
        self.resets_allowed = resets_allowed
        self.procs = []
        self.started = now()


class Failure(Exception):
    pass


class Chaos:
    def __init__(self, args):
        self.args = args
        self.planner = Planner(args.seed, args.kill_share)
        self.runner = Runner(args.binary)
        self.workdir = args.workdir or tempfile.mkdtemp(prefix="idp-tui-chaos-")
        os.makedirs(self.workdir, exist_ok=True)
        self.state = os.path.join(self.workdir, "state.sqlite")
        self.scenarios = {}
        for kind, maximum in (("count", COUNT_ROUND_MAX_FAILURES), ("lock", LOCK_ROUND_MAX_FAILURES)):
            path = os.path.join(self.workdir, "scenario-%s.json" % kind)
            with open(path, "w") as file:
                json.dump(scenario(maximum), file)
            self.scenarios[kind] = path
        self.failures = []
        self.resets = []  # every reset process: (spawned, ended, outcome)
        self.known_ids = (0.0, [])
        self.first_output_at = None
        self.average = defaultdict(lambda: 0.05)  # expected life of a process, by what it runs
        self.average_lines = defaultdict(lambda: 20.0)  # and the lines it prints
        self.answer_at = {}  # and when the IdP's answer to one wrong password comes out
        self.figures = Counter()
        self.checks = Counter()
        # The history keeps the newest 1,000 flows by default; so that "no completed flow lost" holds whatever
        # the machine's speed, the file keeps them all (the policy lives in the file and survives resets).
        for argv in (["run", "logout"], ["history", "prune", "--keep-flows", "1000000"], ["reset"]):
            subprocess.run([args.binary] + argv + ["--state", self.state], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    # MARK: reporting

    def fail(self, message):
        self.failures.append(message)
        print("FAIL: " + message, flush=True)

    def check(self, name, ok, message):
        if ok:
            self.checks[name] += 1
        else:
            self.fail(message)
        return ok

    # MARK: running a round

    def life_key(self, op):
        if op["kind"] == "run":
            return "run:" + ",".join(op["flows"])[:80]
        return op["kind"]

    def start(self, op, argv, stdin, kill):
        proc = self.runner.spawn(op, argv, stdin)
        if kill is not None:
            mode, fraction, delay, aim = kill
            key = self.life_key(op)
            if aim and op["kind"] == "run" and op["mallory"] == [True] and key in self.answer_at:
                proc.kill_at = proc.spawned + max(0.0, self.answer_at[key] - delay)
                proc.aimed = True
            elif mode == "time":
                proc.kill_at = proc.spawned + fraction * self.average[key]
            else:
                proc.kill_after_lines = max(1, round(fraction * self.average_lines[key]))
                proc.kill_delay = delay
        self.figures["processes"] += 1
        self.figures["processes " + op["kind"]] += 1
        return proc

    def kill_if_due(self, proc, t):
        if proc.kill_after_lines is not None and len(proc.lines) >= proc.kill_after_lines:
            proc.kill_at = t + proc.kill_delay
            proc.kill_after_lines = None
        if proc.kill_at is not None and t >= proc.kill_at:
            self.runner.kill(proc)
            proc.kill_at = None

    def learn(self, proc):
        """Counts a kill, or learns how long a process of its kind lives and how much it prints."""
        if proc.killed:
            self.figures["kills"] += 1
            self.figures["kills " + proc.op["kind"]] += 1
            self.figures["kills aimed at a wrong password's count"] += proc.aimed
            return
        key = self.life_key(proc.op)
        self.average[key] = 0.8 * self.average[key] + 0.2 * (proc.ended - proc.spawned)
        self.average_lines[key] = 0.8 * self.average_lines[key] + 0.2 * len(proc.lines)
        if proc.op["kind"] == "run" and proc.op["mallory"] == [True]:
            answer = next((read_at for read_at, line in proc.lines if '"status":"400"' in line and "513/4011" in line), None)
            if answer is not None:
                seen = answer - proc.spawned
                self.answer_at[key] = seen if key not in self.answer_at else 0.8 * self.answer_at[key] + 0.2 * seen

    def ended(self, proc):
        self.learn(proc)
        if proc.lines and self.first_output_at is None and proc.op["kind"] == "run":
            self.first_output_at = proc.lines[0][0]
        getattr(self, "ended_" + proc.op["kind"])(proc)

    def run_round(self, round_, busy_seconds):
        workers = [0.0] * self.args.workers  # when each slot may start its next process
        slots = [None] * self.args.workers
        busy_until = now() + busy_seconds
        next_burst = now() + self.planner.timing.expovariate(1.0 / self.args.burst_every)
        while True:
            t = now()
            busy = t < busy_until
            if busy:
                for index in range(len(slots)):
                    if slots[index] is None and t >= workers[index]:
                        op, argv, stdin = self.planner.operation(round_, self.state, self.known_ids)
                        slots[index] = self.start(op, argv, stdin, self.planner.kill())
                        round_.procs.append(slots[index])
                if t >= next_burst:
                    self.figures["burst kills"] += 1
                    for proc in list(self.runner.running.values()):
                        self.runner.kill(proc)
                    next_burst = t + self.planner.timing.expovariate(1.0 / self.args.burst_every)
            for proc in list(self.runner.running.values()):
                self.kill_if_due(proc, t)
                if t - proc.spawned > 60 and not proc.hung:
                    proc.hung = True
                    self.fail("process %d (%s) still running after 60 s: killed" % (proc.number, " ".join(proc.argv)))
                    self.runner.kill(proc)
            if not busy and not self.runner.running:
                return
            timeout = min([0.005] + [proc.kill_at - now() for proc in self.runner.running.values() if proc.kill_at is not None])
            # A reset that ended is on the books before whatever ended with it is judged.
            for proc in sorted(self.runner.pump(timeout), key=lambda proc: proc.op["kind"] != "reset"):
                self.ended(proc)
                for index, held in enumerate(slots):
                    if held is proc:
                        slots[index] = None
                        workers[index] = now() + self.planner.timing.uniform(0, 2 * self.args.think)

    def run_alone(self, op, argv, stdin, kill):
        """One process with nothing else running (the boundary reset, the checks' own commands)."""
        proc = self.start(op, argv, stdin, kill)
        while True:
            self.kill_if_due(proc, now())
            if now() - proc.spawned > 60 and not proc.hung:
                proc.hung = True
                self.fail("%s still running after 60 s: killed" % " ".join(argv))
                self.runner.kill(proc)
            if self.runner.pump(0.002):
                self.learn(proc)
                return proc

    # MARK: what each process printed

    def results(self, proc):
        """The result lines a run printed: (time read, raw line, parsed)."""
        found = []
        for read_at, line in proc.lines:
            if line.startswith('{"type":"result",'):
                found.append((read_at, line, json.loads(line)))
        return found

    def ended_run(self, proc):
        flows = proc.op["flows"]
        parsed = []
        for _, line in proc.lines:
            try:
                parsed.append(json.loads(line))
            except ValueError:
                self.fail("process %d printed a line that is not JSON: %r" % (proc.number, line[:200]))
                return
        proc.parsed = parsed
        results = [item for item in parsed if item.get("type") == "result"]
        self.figures["flows completed"] += len(results)
        for item in results:
            self.figures["flows completed: " + item["outcome"]] += 1
        for item in parsed:
            if item.get("status") == "HISTORY":
                self.fail("process %d: a flow was not saved to history: %s" % (proc.number, item.get("detail")))
        if proc.killed:
            if len(results) < len(flows):
                self.figures["flows cut short by a kill"] += 1
            return
        if proc.status not in (0, 1, 3):
            self.fail("process %d `%s` ended with status %s: %s" % (proc.number, " ".join(proc.argv), proc.status, proc.stderr()))
            return
        self.check("a run prints one result per flow", len(results) == len(flows),
                   "process %d printed %d results for %d flows" % (proc.number, len(results), len(flows)))
        outcomes = [item["outcome"] for item in results]
        expected = 1 if "failure" in outcomes else 3 if "cancelled" in outcomes else 0
        self.check("a run's exit status follows its outcomes", proc.status == expected,
                   "process %d exited %d for outcomes %s" % (proc.number, proc.status, outcomes))

    def ended_history(self, proc):
        if proc.killed:
            return
        self.figures["history listings"] += 1
        if proc.status == 2 and "does not exist yet" in proc.stderr():
            self.check("a listing finds no file only before the first flow",
                       self.first_output_at is None or self.first_output_at > proc.spawned,
                       "history found no state file after flows had run: " + proc.stderr())
            return
        if not self.check("history --json exits 0", proc.status == 0,
                          "history --json exited %s: %s" % (proc.status, proc.stderr())):
            return
        try:
            entries = [json.loads(line) for _, line in proc.lines]
        except ValueError:
            self.fail("history --json printed a line that is not JSON")
            return
        ids = [entry["id"] for entry in entries]
        self.check("history lists newest first", ids == sorted(ids, reverse=True), "history --json ids out of order: %s" % ids)
        if ids:
            self.known_ids = (proc.spawned, ids)

    def reset_may_have_run(self, since, until):
        """Whether a reset may have deleted something between `since` and `until` (one still running may
        have)."""
        return any(outcome in ("done", "killed") and ended > since and spawned < until
                   for spawned, ended, outcome in self.resets) or \
            any(proc.op["kind"] == "reset" and proc.spawned < until for proc in self.runner.running.values())

    def ended_export(self, proc):
        if proc.killed:
            return
        op = proc.op
        text = proc.text()
        # "no longer in": a flow whose id was given, then removed (by a reset here: "a reset removed it").
        if proc.status == 2 and ("there is no flow %d" % op["id"] in proc.stderr()
                                 or "flow %d is no longer in" % op["id"] in proc.stderr()):
            self.figures["exports of a flow reset away"] += 1
            self.check("an exported flow vanishes only by a reset", self.reset_may_have_run(op["listed_at"], proc.ended),
                       "history export %d: the flow was listed, then gone with no reset in between: %s" % (op["id"], proc.stderr()))
            return
        if not self.check("history export exits 0", proc.status == 0,
                          "history export %d --format %s exited %s: %s" % (op["id"], op["format"], proc.status, proc.stderr())):
            return
        self.figures["exports " + op["format"]] += 1
        if op["format"] == "mermaid":
            self.check("a Mermaid export is a sequence diagram", text.startswith("sequenceDiagram\n") and "participant App" in text,
                       "history export %d --format mermaid printed %r" % (op["id"], text[:120]))
            return
        try:
            record = json.loads(text)
        except ValueError:
            self.fail("history export %d --format json is not JSON: %r" % (op["id"], text[:120]))
            return
        sequences = [event["sequence"] for event in record.get("events", [])]
        self.check("an exported flow is whole", record.get("id") == op["id"] and sequences == list(range(1, len(sequences) + 1))
                   and len(sequences) > 0 and record["result"]["outcome"] == record["outcome"],
                   "history export %d --format json is not a whole flow: id %s, sequences %s" % (op["id"], record.get("id"), sequences))

    def ended_reset(self, proc):
        outcome = self.reset_outcome(proc)
        self.resets.append((proc.spawned, proc.ended, outcome))
        self.figures["resets mid-round " + outcome] += 1

    def reset_outcome(self, proc):
        if proc.killed:
            return "killed"
        text, err = proc.text(), proc.stderr()
        if proc.status == 0 and ("are reset" in text or "does not exist" in text):
            return "done"
        if proc.status == 2 and REFUSED.search(err + " " + text):
            return "refused"
        self.fail("reset ended with status %s: %s %s" % (proc.status, text.strip(), err))
        return "failed"

    # MARK: checks

    def snapshot(self):
        """How many rows each table holds (None: no file)."""
        if not os.path.exists(self.state):
            return None
        db = sqlite3.connect(self.state)
        try:
            # meta without the history's retention policy, a setting that a reset keeps.
            return tuple(db.execute("SELECT count(*) FROM %s" % table).fetchone()[0]
                         for table in ("flows", "flow_events", "device", "idp_bindings", "idp_users",
                                       "meta WHERE key NOT IN ('history_keep_flows', 'history_keep_days')"))
        finally:
            db.close()

    def read_state(self):
        db = sqlite3.connect(self.state)
        try:
            integrity = [row[0] for row in db.execute("PRAGMA integrity_check")]
            dangling = db.execute("PRAGMA foreign_key_check").fetchall()
            flows = db.execute("SELECT id, flow, user, outcome, status, result_json FROM flows ORDER BY id").fetchall()
            events = defaultdict(list)
            for flow_id, sequence, event_json, step in db.execute(
                    "SELECT flow_id, sequence, event_json, step FROM flow_events ORDER BY flow_id, sequence"):
                events[flow_id].append((sequence, event_json, step))
            users = {row[0]: row[1:] for row in db.execute(
                "SELECT username, failures, locked_until, activation_used FROM idp_users WHERE tenant = 'demo'")}
            bindings = {row[0]: row[1] for row in db.execute("SELECT ast_client_id, username FROM idp_bindings")}
        finally:
            db.close()
        return integrity, dangling, flows, events, users, bindings

    def verify(self, round_):
        """Everything a round must leave behind (nothing runs now)."""
        self.figures["verifications"] += 1
        if not os.path.exists(self.state):
            self.check("the file exists once a flow completed",
                       not any(self.results(proc) for proc in round_.procs if proc.op["kind"] == "run"),
                       "round %d: flows completed, but there is no state file" % round_.number)
            return
        integrity, dangling, flows, events, users, bindings = self.read_state()
        self.check("integrity_check", integrity == ["ok"], "round %d: PRAGMA integrity_check: %s" % (round_.number, integrity))
        self.check("foreign_key_check", not dangling, "round %d: PRAGMA foreign_key_check: %s" % (round_.number, dangling[:5]))

        # No partial flow: events 1…n, each what its columns say, the first the app's first call.
        rows = {}
        for flow_id, flow, user, outcome, status, result_json in flows:
            recorded = events.pop(flow_id, [])
            sequences = [sequence for sequence, _, _ in recorded]
            whole = bool(recorded) and sequences == list(range(1, len(recorded) + 1))
            parsed = []
            try:
                parsed = [json.loads(event_json) for _, event_json, _ in recorded]
                result = json.loads(result_json)
                whole = whole and all(event["sequence"] == sequence and event["step"] == step
                                      for event, (sequence, _, step) in zip(parsed, recorded))
                whole = whole and (result["flow"], result["outcome"], result["status"]) == (flow, outcome, status)
                # The flow's first call from the app, after the simulator's note of the faults it turned on.
                first = next(event for event in parsed if not (event["from"] == "simulator" and event["step"] in ("faults on", "fault injected")))
                whole = whole and first["from"] == "App" and first["step"] in FIRST_STEP.get(flow, ())
            except (ValueError, KeyError, StopIteration):
                whole = False
            if self.check("no partial flow", whole, "round %d: flow %d (%s) is not whole: sequences %s" % (
                    round_.number, flow_id, flow, sequences[:10] + (["…"] if len(sequences) > 10 else []))):
                rows[flow_id] = (flow, result_json, tuple(tuple(event.get(key) for key in EVENT_KEYS) for event in parsed))
        self.check("no events without a flow", not events, "round %d: events of flows that do not exist: %s" % (round_.number, sorted(events)[:10]))
        self.figures["history rows verified"] += len(rows)
        self.figures["history events verified"] += sum(len(row[2]) for row in rows.values())

        # The resets of this round that may have deleted something, and when.
        mid_resets = [(s, e, o) for s, e, o in self.resets if s >= round_.started and o in ("done", "killed")]
        disturbed = bool(mid_resets)
        if disturbed:
            self.figures["rounds with a mid-round reset"] += 1

        # Every completed flow: its fingerprint is its result line and its printed transcript.
        by_print = defaultdict(list)  # fingerprint → row ids
        for flow_id, (flow, result_json, transcript) in rows.items():
            by_print[(result_json, transcript)].append(flow_id)
        completed = []  # (proc, index, fingerprint, must)
        killed_open = []  # (proc, flow, printed prefix)
        for proc in round_.procs:
            if proc.op["kind"] != "run" or not hasattr(proc, "parsed"):
                continue
            results = [(read_at, line) for read_at, line in proc.lines if line.startswith('{"type":"result",')]
            for index, (read_at, line) in enumerate(results):
                flow_number = index + 1
                transcript = tuple(tuple(item.get(key) for key in EVENT_KEYS) for item in proc.parsed
                                   if item.get("type") == "event" and item.get("flowId") == flow_number)
                # The result names its history row (`historyId`), which the row's own copy, written before the id
                # existed, cannot: the fingerprint leaves it out, and the row found must be that one.
                history_id = re.search(r'"historyId":(\d+),', line)
                line = re.sub(r'"historyId":\d+,', "", line, count=1)
                fingerprint = ("{" + line[len('{"type":"result",'):], transcript, int(history_id.group(1)) if history_id else None)
                must = "present"
                if any(ended > proc.spawned for _, ended, _ in mid_resets):
                    must = "either"
                if any(outcome == "done" and spawned > read_at for spawned, _, outcome in mid_resets):
                    must = "absent"
                completed.append((proc, index, fingerprint, must))
                self.figures["completed flows that must be " + ("in the history" if must == "present" else
                                                                  "gone (reset after them)" if must == "absent" else
                                                                  "there or not (reset while they ran)")] += 1
            if proc.killed and len(results) < len(proc.op["flows"]):
                flow_number = len(results) + 1
                prefix = tuple(tuple(item.get(key) for key in EVENT_KEYS) for item in proc.parsed
                               if item.get("type") == "event" and item.get("flowId") == flow_number)
                killed_open.append((proc, proc.op["flows"][len(results)], prefix, proc.op["mallory"][len(results)]))

        matched = set()
        for proc, index, fingerprint, must in sorted(completed, key=lambda item: item[3] != "present"):
            candidates = [flow_id for flow_id in by_print.get(fingerprint[:2], []) if flow_id not in matched]
            if fingerprint[2] in candidates:
                candidates.remove(fingerprint[2])
                candidates.insert(0, fingerprint[2])
            if must == "absent":
                self.check("a reset deletes what came before it", not candidates,
                           "round %d: process %d's flow %d is in the history, though a reset started after its result: row %s"
                           % (round_.number, proc.number, index + 1, candidates))
                continue
            if candidates:
                matched.add(candidates[0])
                self.checks["completed flow in history, transcript exact"] += 1
                self.check("a result's historyId names its history row", candidates[0] == fingerprint[2],
                           "round %d: process %d's flow %d printed historyId %s but is row %s"
                           % (round_.number, proc.number, index + 1, fingerprint[2], candidates[0]))
            elif must == "present":
                self.fail("round %d: LOST: process %d (`%s`) printed the result of flow %d, which is not in the history: %s"
                          % (round_.number, proc.number, " ".join(proc.argv[:8]), index + 1, fingerprint[0][:300]))
        self.figures["completed flows found in history"] += len(matched)

        # The rest of the history: flows that killed processes were in the middle of.
        # How a flow ends depends on how it went: its status, the step that failed, the payment's callback.
        def ending(flow, result_json):
            result = json.loads(result_json)
            return flow, result["status"], result.get("failedStep"), (result.get("payment") or {}).get("callback")

        last_events = defaultdict(set)
        for flow_id in matched:
            flow, result_json, transcript = rows[flow_id]
            last_events[ending(flow, result_json)].add(transcript[-1][:3] + transcript[-1][6:7])
        unused = list(killed_open)
        for flow_id in sorted(set(rows) - matched):
            flow, result_json, transcript = rows[flow_id]
            owner = None
            for candidate in sorted(unused, key=lambda item: -len(item[2])):
                _, kind, prefix, _ = candidate
                if kind == flow and transcript[:len(prefix)] == prefix:
                    owner = candidate
                    break
            if owner is None and disturbed:
                continue  # a flow that straddled a mid-round reset may be anyone's
            if not self.check("every other flow is a killed process's", owner is not None,
                              "round %d: flow %d (%s) is in the history, but no process printed it and no killed process "
                              "was running it" % (round_.number, flow_id, flow)):
                continue
            unused.remove(owner)
            self.figures["flows committed by a killed process"] += 1
            known = last_events.get(ending(flow, result_json))
            if known:
                end = transcript[-1][:3] + transcript[-1][6:7]
                self.check("a killed process's flow has its last event", end in known,
                           "round %d: flow %d (%s) ends with %s, unlike the completed flows that ended as it did (%s)"
                           % (round_.number, flow_id, flow, end, sorted(known)))

        self.verify_counts(round_, rows, completed, matched, killed_open, users, bindings, disturbed)
        self.verify_commands(round_, rows)

    def verify_counts(self, round_, rows, completed, matched, killed_open, users, bindings, disturbed):
        maximum = round_.max_failures
        failures, locked_until, _ = users.get(MALLORY, (0, None, 0))
        self.figures["mallory's highest count"] = max(self.figures["mallory's highest count"], failures)
        self.check("the count stays within the policy", 0 <= failures <= maximum,
                   "round %d: mallory's failures %d, the policy's maximum %d" % (round_.number, failures, maximum))
        self.check("locked exactly at the maximum", (locked_until is not None) == (failures == maximum),
                   "round %d: mallory's failures %d (maximum %d), locked_until %s" % (round_.number, failures, maximum, locked_until))
        for name in USERS:
            count, until, _ = users.get(name, (0, None, 0))
            self.check("right passwords are never counted", count == 0 and until is None,
                       "round %d: %s has failures %d, locked_until %s" % (round_.number, name, count, until))

        def counted(result_json):
            result = json.loads(result_json)
            error = result.get("error") or {}
            if error.get("code") != 4011:
                return None
            found = ATTEMPTS_LEFT.search(error.get("message", ""))
            return maximum - int(found.group(1)) if found else None

        # Completed flows that counted, and that must be in this life of the file.
        present = [counted(fingerprint[0]) for _, _, fingerprint, must in completed if must == "present"]
        present = [value for value in present if value is not None]
        self.check("no two wrong passwords counted the same", len(present) == len(set(present)),
                   "round %d: completed flows saw the same count twice (a lost update): %s"
                   % (round_.number, sorted(value for value, n in Counter(present).items() if n > 1)))
        self.check("the count covers every completed wrong password", all(1 <= value <= min(failures, maximum - 1) for value in present),
                   "round %d: a completed flow saw count %s, but the file holds %d" % (round_.number, max(present or [0]), failures))
        if any(json.loads(fingerprint[0]).get("status") == "TEMPORARY_LOCKED" for _, _, fingerprint, must in completed if must == "present"):
            self.check("a lock a flow saw is kept", failures == maximum and locked_until is not None,
                       "round %d: a flow was refused as locked, but the file holds failures %d, locked_until %s"
                       % (round_.number, failures, locked_until))
        if disturbed:
            return
        # Exact: the history's counts are distinct values 1…failures, and whatever is missing was counted for a
        # wrong password whose process was killed before its flow was recorded.
        in_history = [counted(result_json) for flow, result_json, _ in rows.values()]
        in_history = [value for value in in_history if value is not None]
        self.check("the history holds each count once", len(in_history) == len(set(in_history)),
                   "round %d: two flows in the history counted the same wrong password: %s"
                   % (round_.number, sorted(value for value, n in Counter(in_history).items() if n > 1)))
        self.check("the history's counts are within the file's", all(1 <= value <= failures for value in in_history),
                   "round %d: the history counted up to %s, the file holds %d" % (round_.number, max(in_history or [0]), failures))
        killed_mallory = sum(1 for _, _, _, is_mallory in killed_open if is_mallory)
        unaccounted = min(failures, maximum - 1) - len(set(in_history))
        self.figures["wrong passwords counted, their flow killed before it was recorded"] += max(0, unaccounted)
        self.check("every count is a recorded flow or a killed one", 0 <= unaccounted <= killed_mallory,
                   "round %d: mallory's count is %d; the history accounts for %d and only %d of her flows were killed"
                   % (round_.number, failures, len(set(in_history)), killed_mallory))
        for proc, _, prefix, is_mallory in killed_open:
            for event in prefix:
                found = ATTEMPTS_LEFT.search(event[7] or "") if event[6] == "513/4011" else None
                if found:
                    self.check("a count a killed process saw is kept", maximum - int(found.group(1)) <= failures,
                               "round %d: killed process %d saw count %d, the file holds %d"
                               % (round_.number, proc.number, maximum - int(found.group(1)), failures))
        self.figures["exact rounds"] += 1
        # An activation code works once, and its binding and spent flag are there.
        activations = Counter()
        for flow, result_json, _ in rows.values():
            result = json.loads(result_json)
            if flow == "activate" and result["outcome"] == "success":
                activations[result["user"]] += 1
                self.check("an activation's binding is kept", bindings.get(result["astClientId"]) == result["user"],
                           "round %d: %s's activation as %s has no binding" % (round_.number, result["user"], result["astClientId"]))
                self.check("an activation spends its code", users.get(result["user"], (0, None, 0))[2] == 1,
                           "round %d: %s activated, but the code is not spent" % (round_.number, result["user"]))
        self.check("an activation code works once", all(n == 1 for n in activations.values()),
                   "round %d: activations per user: %s" % (round_.number, dict(activations)))
        self.check("one device, one activation", len(activations) <= 1,
                   "round %d: the one device was activated for %s (two activations at once both succeeded)"
                   % (round_.number, sorted(activations)))

    def verify_commands(self, round_, rows):
        """The binary's own view of the file agrees: history --json lists every row, an export is the row."""
        listing = self.run_alone({"kind": "check"}, ["history", "--json", "--limit", "100000", "--state", self.state], "", None)
        if self.check("history --json after a round", listing.status == 0, "history --json exited %s: %s" % (listing.status, listing.stderr())):
            ids = [json.loads(line)["id"] for _, line in listing.lines]
            self.check("history --json lists every flow", ids == sorted(rows, reverse=True),
                       "round %d: history --json lists %d flows, the file has %d whole ones" % (round_.number, len(ids), len(rows)))
        for flow_id in self.planner.sampling.sample(sorted(rows), min(3, len(rows))):
            flow, result_json, transcript = rows[flow_id]
            export = self.run_alone({"kind": "check"}, ["history", "export", str(flow_id), "--format", "json", "--state", self.state], "", None)
            try:
                record = json.loads(export.text())
                same = (json.dumps(record["result"], sort_keys=True) == json.dumps(json.loads(result_json), sort_keys=True)
                        and tuple(tuple(event.get(key) for key in EVENT_KEYS) for event in record["events"]) == transcript)
            except (ValueError, KeyError):
                same = False
            self.check("an export is the recorded flow", export.status == 0 and same,
                       "round %d: history export %d differs from the file (status %s)" % (round_.number, flow_id, export.status))

    # MARK: the boundary reset

    def boundary_reset(self, round_number):
        """Resets with nothing else running; a killed reset must leave the file as it was or empty."""
        refusals = 0
        while True:
            before = self.snapshot()
            proc = self.run_alone({"kind": "reset"}, ["reset", "--state", self.state], "", self.planner.kill())
            outcome = self.reset_outcome(proc)
            self.resets.append((proc.spawned, proc.ended, outcome))
            self.figures["resets between rounds " + outcome] += 1
            after = self.snapshot()
            empty = after is None or after == (0,) * 6
            if outcome == "killed":
                self.check("a killed reset is all or nothing", after == before or empty,
                           "after round %d: a killed reset left %s (before: %s)" % (round_number, after, before))
                if after is not None:
                    integrity = sqlite3.connect(self.state)
                    try:
                        result = [row[0] for row in integrity.execute("PRAGMA integrity_check")]
                    finally:
                        integrity.close()
                    self.check("integrity_check", result == ["ok"], "after a killed reset: integrity_check %s" % result)
                continue
            if outcome == "refused":
                refusals += 1
                if refusals < 10:
                    time.sleep(0.2)
                    continue
                self.fail("after round %d: reset refused 10 times with no other process running: %s" % (round_number, proc.stderr()))
                return False
            if outcome == "failed":
                return False
            return self.check("a reset empties the file", empty, "after round %d: reset left %s" % (round_number, after))

    # MARK: the whole test

    def run(self):
        args = self.args
        print("chaos: seed %d, %d s, %d workers, binary %s, state %s" % (args.seed, args.duration, args.workers, args.binary, self.state),
              flush=True)
        for path in self.scenarios.values():
            check = subprocess.run([args.binary, "scenario", "check", path], capture_output=True, text=True)
            if check.returncode != 0:
                raise Failure("the chaos scenario %s is refused: %s" % (path, check.stdout + check.stderr))
        started = now()
        number = 0
        while now() - started < args.duration and (not self.failures or args.keep_going):
            number += 1
            kind = "lock" if number % 3 == 0 else "count"
            resets_allowed = self.planner.rounds.random() < args.reset_rounds
            round_ = Round(number, kind, self.scenarios[kind], resets_allowed)
            busy = min(args.round, max(1.0, args.duration - (now() - started)))
            self.run_round(round_, busy)
            self.figures["rounds"] += 1
            self.verify(round_)
            if self.failures and not args.keep_going:
                break  # the file stays as the round left it, for a look
            runs = [proc for proc in round_.procs if proc.op["kind"] == "run"]
            print("round %d (%s%s): %d processes, %d killed, %d flows completed, mallory's count %s; %d checks so far, %d failures"
                  % (number, kind, ", resets" if resets_allowed else "", len(round_.procs), sum(proc.killed for proc in round_.procs),
                     sum(len(self.results(proc)) for proc in runs), self.last_count(), sum(self.checks.values()), len(self.failures)),
                  flush=True)
            if not self.boundary_reset(number):
                break
        self.figures["seconds"] = round(now() - started)
        self.report()
        return 0 if not self.failures else 1

    def last_count(self):
        if not os.path.exists(self.state):
            return 0
        db = sqlite3.connect(self.state)
        try:
            row = db.execute("SELECT failures FROM idp_users WHERE username = ?", (MALLORY,)).fetchone()
        finally:
            db.close()
        return row[0] if row else 0

    def report(self):
        print("\nchaos: seed %d" % self.args.seed)
        for key in sorted(self.figures):
            print("  %-52s %s" % (key, self.figures[key]))
        print("  checks passed: %d" % sum(self.checks.values()))
        for key in sorted(self.checks):
            print("    %-50s %d" % (key, self.checks[key]))
        if self.args.report:
            with open(self.args.report, "w") as file:
                json.dump({"seed": self.args.seed, "duration": self.args.duration, "workers": self.args.workers,
                           "figures": dict(self.figures), "checks": dict(self.checks), "failures": self.failures}, file, indent=2)
        if self.failures:
            print("\nchaos: %d FAILURES (replay with --seed %d):" % (len(self.failures), self.args.seed))
            for message in self.failures[:50]:
                print("  " + message)
        else:
            print("\nchaos: every check passed")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    default_binary = next((path for path in (os.path.join(root, ".build/release/idp-tui"), os.path.join(root, ".build/debug/idp-tui"))
                           if os.path.exists(path)), None)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None, help="the plan's seed (default: a random one, printed)")
    parser.add_argument("--duration", type=float, default=60, help="seconds of chaos (rounds start until then)")
    parser.add_argument("--workers", type=int, default=8, help="processes at once on the state file")
    parser.add_argument("--binary", default=default_binary, help="idp-tui (default: .build/release, else .build/debug)")
    parser.add_argument("--round", type=float, default=20, help="seconds of each round's busy phase")
    parser.add_argument("--think", type=float, default=0.15, help="mean seconds a worker waits between processes")
    parser.add_argument("--kill-share", type=float, default=0.3, help="share of processes killed at a random moment")
    parser.add_argument("--burst-every", type=float, default=15, help="mean seconds between kills of every running process")
    parser.add_argument("--reset-rounds", type=float, default=0.3, help="share of rounds that also reset in their busy phase")
    parser.add_argument("--workdir", help="where the state file goes (default: a new temporary folder, kept on failure)")
    parser.add_argument("--report", help="also write the figures as JSON to this file")
    parser.add_argument("--keep-going", action="store_true", help="start new rounds after a failure")
    args = parser.parse_args()
    if not args.binary or not os.access(args.binary, os.X_OK):
        parser.error("no idp-tui binary: build it (scripts/build-release.sh) or name it with --binary")
    args.binary = os.path.abspath(args.binary)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 2**31)
    chaos = Chaos(args)
    try:
        status = chaos.run()
    except Failure as error:
        print("chaos: " + str(error))
        status = 1
    if status == 0 and not args.workdir:
        for name in os.listdir(chaos.workdir):
            os.remove(os.path.join(chaos.workdir, name))
        os.rmdir(chaos.workdir)
    elif status != 0:
        print("chaos: the state file is kept in %s" % chaos.workdir)
    sys.exit(status)


if __name__ == "__main__":
    main()
