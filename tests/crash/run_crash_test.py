#!/usr/bin/env python3
"""Crash, power-loss and disk-full test of the pitlink journal.

Runs crash_child (rounds with bets, settlements, tickets, tips, hand-pays on the real writer
thread) and kills it in every way a table controller can die:
  * SIGKILL at a random moment (the OS keeps what was written: a process crash);
  * a power cut inside the power-loss VFS: writes not yet fsynced are each kept or lost;
  * a full disk: writes fail after a random number of them (the table must tilt, exit 4);
  * a real file-size limit (RLIMIT_FSIZE): the kernel refuses the write (EFBIG).
After every death it recovers the journal as pitlinkd starts (crash_child --recover: from the
last snapshots, the unfinished round finished) and checks it with its own code (it shares nothing with the daemon: its own SHA-256 chain check, its own
sums with sqlite3):
  * the chain is whole and every acknowledged step is in the journal;
  * every round has ended, exactly once; each standing bet was covered by exactly one settlement
    (its own, or its spot's in rounds opened with settle "spot") or returned once;
  * each station's credit records follow one from the other, never below zero;
  * everything that came in (tickets) plus the game's net equals the credits held plus what
    left the table (tickets out, hand-pays, tips);
  * the credits the daemon recovered are the ones summed here.
The check is incremental, so that a death costs the same however long the journal: the checker
keeps what it has found (the chain hash of the last record checked, the stations' balances, the
money sums, each round's tally) and reads only the records after the last one checked, once it
has made sure that one is still there with the hash it had. Every --full-check-every deaths and
at the end, the whole journal is checked: by the daemon (crash_child --check: integrity scan of
every page, the chain from the first record, its full audit of meters against every snapshot
and of every round), and by a new checker from the first record, which must come to the same
state as the incremental one. An old record changed or removed behind the last one checked is
found there.
Usage: run_crash_test.py BUILD_DIR SOURCE_DIR [--kills N] [--power-cuts N] [--disk-full N] [--seed S]
                         [--full-check-every N] [--ack-log-padding BYTES]
The child's acknowledgements come back on its stdout (a pipe) and the driver keeps them in its own
ack log, so that the file-size limit set on the child binds the journal's files only (issue 31).
"""
import argparse
import dataclasses
import hashlib
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

# The segments found as an inspector finds them: tools/verify_journal.py, written from
# schema/README.md "Segments" alone (it shares no code with pitlink).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from verify_journal import segment_files  # noqa: E402

COLUMNS = "seq, at_ms, kind, round_id, station, body, hash"


def canonical(row):
    seq, at_ms, kind, round_id, station, body, _hash = row
    text = "\t".join([str(seq), str(at_ms), kind, "" if round_id is None else str(round_id),
                      "" if station is None else str(station), body])
    return text.encode("utf-8")


@dataclasses.dataclass
class RoundTally:
    """What the checker has seen of one round, from every record that names it.

    The round is settled by the rule its round.opened names (schema/README.md): without `settle`
    per bet (each bet.settled names its `bet`), with `settle: "spot"` per spot (each bet.settled
    names the standing `bets` of one station's spot and has their total as its stake)."""
    settle: str = "bet"                                        # "bet" or "spot", from round.opened
    bets: dict = dataclasses.field(default_factory=dict)      # bet -> (station, stake, spot)
    withdrawn: set = dataclasses.field(default_factory=set)
    ends: list = dataclasses.field(default_factory=list)      # round.settled / round.voided
    settled: dict = dataclasses.field(default_factory=dict)   # bet -> the station its settlement is for
    settlements: list = dataclasses.field(default_factory=list)  # (station, spot, stake, bets covered)
    returned: dict = dataclasses.field(default_factory=dict)  # station -> sum of its bet.settled returned
    credits: dict = dataclasses.field(default_factory=dict)   # station -> credited once ended

    def add(self, kind, station, body):
        """Takes one record of the round; returns a problem, or None."""
        if kind == "round.opened":
            if "settle" in body and body["settle"] != "spot":
                return f"opened with settle {body['settle']!r} (none: per bet, or \"spot\")"
            self.settle = body.get("settle", "bet")
        elif kind == "bet.accepted":
            self.bets[body["bet"]] = (station, body["stake"], body["spot"])
        elif kind == "bet.withdrawn":
            self.withdrawn.add(body["bet"])
        elif kind in ("round.settled", "round.voided"):
            self.ends.append(kind)
        elif kind == "bet.settled":
            if self.settle == "spot":
                covered = body.get("bets")
                if "bet" in body or not isinstance(covered, list) or not covered or covered != sorted(set(covered)):
                    return f"bet.settled {body} of a round settled per spot: bets must name its bets, ascending"
            else:
                if "bets" in body or not isinstance(body.get("bet"), int):
                    return f"bet.settled {body} of a round settled per bet: bet must name its one bet"
                covered = [body["bet"]]
            for bet in covered:
                if bet in self.settled:
                    return f"bet {bet} settled twice"
                self.settled[bet] = station
            self.settlements.append((station, body["spot"], body["stake"], tuple(covered)))
            self.returned[station] = self.returned.get(station, 0) + body["returned"]
        elif kind == "credit" and body["reason"] in ("settlement", "bet_return") and self.ends:
            self.credits[station] = self.credits.get(station, 0) + body["amount"]
        return None

    def problem(self):
        """Ended exactly once; each standing bet covered by exactly one settlement (per bet, or
        its station's spot's one settlement) or returned, and credited so."""
        if len(self.ends) != 1:
            return f"ended {len(self.ends)} times after recovery"
        standing = {b: v for b, v in self.bets.items() if b not in self.withdrawn}
        expected = {}
        if self.ends[0] == "round.settled":
            if set(self.settled) != set(standing):
                return f"settled bets {sorted(self.settled)} != standing {sorted(standing)}"
            spots = set()
            for station, spot, stake, covered in self.settlements:
                bets = [standing[b] for b in covered]
                if any((s, p) != (station, spot) for s, _, p in bets):
                    return f"the settlement of bets {list(covered)} (station {station}, {spot}) covers {bets}"
                if stake != sum(st for _, st, _ in bets):
                    return f"the settlement of bets {list(covered)} has stake {stake}, they add up to " \
                           f"{sum(st for _, st, _ in bets)}"
                if self.settle == "spot":
                    if (station, spot) in spots:
                        return f"station {station}'s {spot} is settled twice"
                    spots.add((station, spot))
            if self.settle == "spot":
                unsettled = {(s, p) for s, _, p in standing.values()} - spots
                if unsettled:
                    return f"spots {sorted(unsettled)} have bets standing and no settlement"
            expected = dict(self.returned)
        else:
            if self.settled:
                return "voided with settled bets"
            for station, stake, _spot in standing.values():
                expected[station] = expected.get(station, 0) + stake
        if expected != self.credits:
            return f"credited {self.credits} != due {expected}"
        return None


class Checker:
    """Checks the journal from the last record it checked on; a new Checker checks all of it."""

    def __init__(self, db_path, ack_path):
        self.db_path = db_path
        self.ack_path = ack_path
        self.checked = 0          # seq of the last record checked
        self.link = bytes(32)     # its chain hash, recomputed here
        self.ack_offset = 0       # bytes of the ack log checked, whole lines only
        self.acked = 0
        self.rounds = {}          # round_id -> RoundTally
        self.balance = {}         # station -> its credits after its last credit record
        self.totals = {}          # credit reason -> sum of the amounts
        self.stakes = 0           # sum of the stakes of the bets accepted

    def state(self):
        """What the checker carries from one check to the next."""
        return {name: value for name, value in vars(self).items() if name not in ("db_path", "ack_path")}

    def fail(self, message):
        raise AssertionError(message)

    def check(self):
        files = segment_files(self.db_path)
        found = self.checked == 0
        if not found:
            # The last record checked is in one of the newest segments: start there, not at the
            # first of the hundreds a long run seals (opening each of them made every death
            # slower as the run went on).
            files = files[self.first_segment_holding(files, self.checked):]
        rows = []
        for path in files:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                if not found:
                    found = self.check_unchanged(db)
                    if not found and path != files[-1]:
                        continue
                    if not found:
                        self.fail(f"the journal shrank: record {self.checked}, checked before, is gone")
                part = db.execute(f"SELECT {COLUMNS} FROM record WHERE seq > ? ORDER BY seq", (self.checked,)).fetchall()
            finally:
                db.close()
            if part and part[0][2] == "segment.sealed":
                # The seal names the last record and link of the segment before it.
                seal = json.loads(part[0][5])
                last_seq, last_link = (rows[-1][0], None) if rows else (self.checked, self.link)
                if seal["last_seq"] != last_seq or (last_link is not None and bytes.fromhex(seal["last_hash"]) != last_link):
                    self.fail(f"{path}: its seal does not name the last record of the segment before it")
            rows += part
        self.check_chain(rows)
        self.check_acks()
        records = [(seq, kind, round_id, station, json.loads(body))
                   for seq, _at_ms, kind, round_id, station, body, _hash in rows]
        self.check_rounds(records)
        self.check_credits(records)
        return {"records": self.checked, "acked": self.acked, "rounds": len(self.rounds),
                "held": sum(self.balance.values()), "balances": dict(self.balance)}

    @staticmethod
    def first_segment_holding(files, seq):
        """The index of the newest segment whose first record is at or before `seq` (0 if none)."""
        for index in range(len(files) - 1, -1, -1):
            db = sqlite3.connect(f"file:{files[index]}?mode=ro", uri=True)
            try:
                first = db.execute("SELECT min(seq) FROM record").fetchone()[0]
            finally:
                db.close()
            if first is not None and first <= seq:
                return index
        return 0

    def check_unchanged(self, db):
        """The last record checked is still there with the hash it had: a recovery may append
        records, never change or remove one. (A change further back leaves that hash as it is;
        the check of the whole journal every --full-check-every deaths and at the end finds it.)"""
        last = db.execute("SELECT hash FROM record WHERE seq = ?", (self.checked,)).fetchone()
        if last is None:
            return False  # in another segment
        if last[0] != self.link:
            self.fail(f"record {self.checked} changed since it was checked")
        return True

    def check_chain(self, rows):
        """1. The chain, recomputed here from the last link checked."""
        previous = self.link
        for expected, row in enumerate(rows, start=self.checked + 1):
            if row[0] != expected:
                self.fail(f"record {expected} missing")
            link = hashlib.sha256(previous + canonical(row)).digest()
            if link != row[6]:
                self.fail(f"record {row[0]} breaks the chain")
            previous = link
        if rows:
            self.checked, self.link = rows[-1][0], previous

    def check_acks(self):
        """2. Every step acknowledged since the last check is in the journal (the ones before
        were checked against records that are still there)."""
        if not os.path.exists(self.ack_path):
            return
        with open(self.ack_path, "rb") as f:
            f.seek(self.ack_offset)
            added = f.read()
        # A line cut by SIGKILL was never acknowledged in full; the next run's line completes it.
        whole = added[:added.rfind(b"\n") + 1]
        for line in whole.decode().split("\n")[:-1]:
            if line.startswith("#"):
                continue  # --ack-log-padding
            seq = int(line.split()[0])
            if seq > self.checked:
                self.fail(f"acknowledged record {seq} lost (journal ends at {self.checked})")
            self.acked += 1
        self.ack_offset += len(whole)

    def check_rounds(self, records):
        """3. Rounds: each ended once; bets settled or returned once. Only the rounds with new
        records can have changed."""
        touched = set()
        for seq, kind, round_id, station, body in records:
            if round_id is None:
                continue
            tally = self.rounds.setdefault(round_id, RoundTally())
            if kind == "bet.accepted":
                replaced = tally.bets.get(body["bet"])  # a bet number accepted again replaces its stake
                self.stakes += body["stake"] - (replaced[1] if replaced else 0)
            problem = tally.add(kind, station, body)
            if problem:
                self.fail(f"round {round_id} {problem}")
            touched.add(round_id)
        for round_id in sorted(touched):
            problem = self.rounds[round_id].problem()
            if problem:
                self.fail(f"round {round_id}: {problem}")

    def check_credits(self, records):
        """4. Credits: each record follows the one before; 5. conservation."""
        for seq, kind, round_id, station, body in records:
            if kind != "credit":
                continue
            before = self.balance.get(station, 0)
            if before + body["amount"] != body["balance"] or body["balance"] < 0:
                self.fail(f"credit record {seq} of station {station}: {before} + {body['amount']} != {body['balance']}")
            self.balance[station] = body["balance"]
            self.totals[body["reason"]] = self.totals.get(body["reason"], 0) + body["amount"]
        totals = self.totals
        came_in = totals.get("ticket_in", 0)
        game_net = sum(totals.get(k, 0) for k in ("bet", "settlement", "bet_return", "resettlement"))
        left = -sum(totals.get(k, 0) for k in ("ticket_out", "handpay", "jackpot", "tip"))
        held = sum(self.balance.values())
        if came_in + game_net != held + left:
            self.fail(f"money not conserved: in {came_in} + game {game_net} != held {held} + left {left}")
        if -totals.get("bet", 0) != self.stakes:
            self.fail(f"bets debited {-totals.get('bet', 0)} != stakes accepted {self.stakes}")


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("source_dir")
    parser.add_argument("--kills", type=int, default=25)
    parser.add_argument("--power-cuts", type=int, default=15)
    parser.add_argument("--disk-full", type=int, default=4)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--full-check-every", type=int, default=20, metavar="N",
                        help="check the whole journal after every Nth death (and always at the end)")
    parser.add_argument("--ack-log-padding", type=int, default=0, metavar="BYTES",
                        help="start with an ack log of this many bytes (comment lines), as a long run's is: "
                             "the file-size death must still reach the journal")
    args = parser.parse_args()
    if args.full_check_every < 1:
        parser.error("--full-check-every must be at least 1")
    child = os.path.join(args.build_dir, "tests", "crash", "crash_child")
    paytable = os.path.join(args.source_dir, "etc", "paytables", "standard.yaml")
    rng = random.Random(args.seed)
    print(f"crash test seed {args.seed}", flush=True)

    with tempfile.TemporaryDirectory(prefix="pitlink-crash-") as tmp:
        db = os.path.join(tmp, "journal.db")
        ack = os.path.join(tmp, "ack.log")
        if args.ack_log_padding > 0:
            with open(ack, "w") as f:
                line = "# padding: a long run's acknowledgements\n"
                f.write(line * (args.ack_log_padding // len(line) + 1))
        checker = Checker(db, ack)
        seeds = iter(range(args.seed * 1000 + 1, args.seed * 1000 + 100000))

        def base(segments=True):
            # Segments of ~150 kB: a rotation every few deaths, some of them cut.
            # The acknowledgements come back on the child's stdout (a pipe) and the driver keeps
            # them in its own ack log: a file-size limit set on the child binds only the journal.
            return [child, "--journal", db, "--ack-fd", "1", "--paytable", paytable, "--seed", str(next(seeds)),
                    "--segment-bytes", str(150000 if segments else 0)]

        def keep_acks(stdout):
            with open(ack, "a") as f:
                f.write(stdout)

        def check_whole_journal():
            # A new checker, from the first record on, must come to what the incremental one has.
            whole = Checker(db, ack)
            whole.check()
            kept = checker.state()
            differ = [name for name, value in whole.state().items() if kept[name] != value]
            if differ:
                raise AssertionError(f"the incremental check and a check of the whole journal differ in {differ}")

        tidied = []  # what the start-ups did to rotations a death cut

        def after_death(label, full):
            # The daemon recovers the journal as it would start (or checks all of it when `full`),
            # then the checker here reads what it has not checked yet.
            result = run([child, "--journal", db, "--check" if full else "--recover"])
            if result.returncode != 0:
                what = "audit" if full else "recovery"
                raise AssertionError(f"{label}: daemon {what} failed ({result.returncode}): {result.stdout} {result.stderr}")
            report = json.loads(result.stdout)
            tidied.extend(report.get("tidied", []))
            try:
                state = checker.check()
                if full:
                    check_whole_journal()
            except AssertionError as error:
                raise AssertionError(f"{label}: {error}") from None
            # The daemon's meters, recomputed by its recovery or audit, against the sums made here.
            daemon_credits = {int(k): v["credits"] for k, v in report["meters"]["stations"].items()}
            if {k: v for k, v in daemon_credits.items() if v or k in state["balances"]} != state["balances"]:
                raise AssertionError(f"{label}: daemon credits {daemon_credits} != {state['balances']}")
            return state, report

        deaths = []
        if args.ack_log_padding and args.kills + args.power_cuts + args.disk_full == 0:
            # The regression of issue 31 alone: a short journal, an ack log larger than it.
            print(f"ack log padded to {os.path.getsize(ack)} bytes", flush=True)
        deaths += [("kill", i) for i in range(args.kills)]
        deaths += [("power", i) for i in range(args.power_cuts)]
        deaths += [("full", i) for i in range(args.disk_full)]
        rng.shuffle(deaths)
        deaths.append(("fsize", 0))
        # The pace is printed for each quarter of the deaths: apart from the checks of the whole
        # journal, it must not fall as the journal grows.
        quarter_ends = {len(deaths) * q // 4 for q in range(1, 5)} - {0}
        quarter_from, quarter_started, full_seconds = 0, time.monotonic(), 0.0
        for number, (how, i) in enumerate(deaths, start=1):
            label = f"death {number} ({how} #{i})"
            if how == "kill":
                proc = subprocess.Popen(base() + ["--rounds", "1000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
                time.sleep(rng.uniform(0.05, 0.6))
                proc.send_signal(signal.SIGKILL)
                stdout, stderr = proc.communicate()
                keep_acks(stdout)
                if proc.returncode != -signal.SIGKILL:
                    raise AssertionError(f"{label}: the child ended before it was killed, exit {proc.returncode}: {stderr}")
            elif how == "power":
                result = run(base() + ["--rounds", "1000000", "--power-cut-after-writes", str(rng.randint(1, 400)),
                                       "--keep", str(rng.choice([0.0, 0.3, 0.7, 1.0]))])
                keep_acks(result.stdout)
                if result.returncode != 42:
                    raise AssertionError(f"{label}: child should have lost power, exit {result.returncode}: {result.stderr}")
            elif how == "full":
                result = run(base() + ["--rounds", "1000000", "--fail-writes-after", str(rng.randint(1, 300))])
                keep_acks(result.stdout)
                if result.returncode != 4 or "tilt" not in result.stderr:
                    raise AssertionError(f"{label}: a full disk must tilt (exit 4), got {result.returncode}: {result.stderr}")
            else:
                # The limit binds every file the child writes: 64 KiB above the active segment (the
                # link's target) and its WAL together, so that the journal's next growth meets it;
                # the child's acknowledgements leave through a pipe, which the limit does not bind,
                # however long the driver's own ack log has grown.
                real = os.path.realpath(db)
                size = os.path.getsize(real) + (os.path.getsize(real + "-wal") if os.path.exists(real + "-wal") else 0)
                limit = size + 64 * 1024

                def limit_file_size():
                    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

                result = run(base(segments=False) + ["--rounds", "1000000"], preexec_fn=limit_file_size)
                keep_acks(result.stdout)
                if result.returncode != 4 or "tilt" not in result.stderr:
                    raise AssertionError(f"{label}: the file-size limit must tilt (exit 4), got {result.returncode}: {result.stderr}")
            full = number % args.full_check_every == 0
            checking = time.monotonic()
            state, report = after_death(label, full)
            if full:
                full_seconds += time.monotonic() - checking
            if number in quarter_ends:
                now = time.monotonic()
                print(f"deaths {quarter_from + 1}-{number} of {len(deaths)}: "
                      f"{(number - quarter_from) * 60 / (now - quarter_started):.1f} per minute "
                      f"({full_seconds:.1f} s of {now - quarter_started:.1f} s in checks of the whole journal), "
                      f"journal at {state['records']} records", flush=True)
                quarter_from, quarter_started, full_seconds = number, now, 0.0
        # A clean finish on the same journal: the table goes on after all of it.
        result = run(base() + ["--rounds", str(report["meters"]["table"]["rounds_settled"] +
                                               report["meters"]["table"]["rounds_voided"] + 20)])
        keep_acks(result.stdout)
        if result.returncode != 0:
            raise AssertionError(f"final run failed: {result.stderr}")
        state, report = after_death("final", full=True)
        segments = len(segment_files(db))
        print(f"ok: {len(deaths)} deaths, {state['rounds']} rounds, {state['records']} records, "
              f"{state['acked']} acknowledged steps, {report['snapshots_compared']} snapshots compared, "
              f"credits held {state['held']}; {segments} journal segments, {len(tidied)} rotations cut by a "
              f"death and undone at the next start")
        if args.kills + args.power_cuts >= 40 and segments < 3:
            raise AssertionError(f"the journal was rotated only {segments - 1} times: the rotation went untested")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        sys.exit(1)
