#!/usr/bin/env python3
"""Crash, power-loss and disk-full test of the pitlink journal.

Runs crash_child (rounds with bets, settlements, tickets, tips, hand-pays on the real writer
thread) and kills it in every way a table controller can die:
  * SIGKILL at a random moment (the OS keeps what was written: a process crash);
  * a power cut inside the power-loss VFS: writes not yet fsynced are each kept or lost;
  * a full disk: writes fail after a random number of them (the table must tilt, exit 4);
  * a real file-size limit (RLIMIT_FSIZE): the kernel refuses the write (EFBIG).
After every death it restarts recovery and checks the journal with its own code (it shares
nothing with the daemon: its own SHA-256 chain check, its own sums with sqlite3):
  * the chain is whole and every acknowledged step is in the journal;
  * every round has ended, exactly once; each bet was settled or returned exactly once;
  * each station's credit records follow one from the other, never below zero;
  * everything that came in (tickets) plus the game's net equals the credits held plus what
    left the table (tickets out, hand-pays, tips);
  * the daemon's own audit (chain, meters against snapshots, rounds) agrees.
Usage: run_crash_test.py BUILD_DIR SOURCE_DIR [--kills N] [--power-cuts N] [--disk-full N] [--seed S]
"""
import argparse
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


def canonical(row):
    seq, at_ms, kind, round_id, station, body, _hash = row
    text = "\t".join([str(seq), str(at_ms), kind, "" if round_id is None else str(round_id),
                      "" if station is None else str(station), body])
    return text.encode("utf-8")


class Checker:
    def __init__(self, db_path, ack_path):
        self.db_path = db_path
        self.ack_path = ack_path

    def fail(self, message):
        raise AssertionError(message)

    def check(self):
        db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        rows = db.execute("SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq").fetchall()
        # 1. The chain, recomputed here.
        previous = bytes(32)
        for expected, row in enumerate(rows, start=1):
            if row[0] != expected:
                self.fail(f"record {expected} missing")
            link = hashlib.sha256(previous + canonical(row)).digest()
            if link != row[6]:
                self.fail(f"record {row[0]} breaks the chain")
            previous = row[6]
        tip = rows[-1][0] if rows else 0
        # 2. Every acknowledged step is there, as the kind of record it acknowledged.
        acked = 0
        if os.path.exists(self.ack_path):
            with open(self.ack_path) as f:
                for line in f:
                    if not line.endswith("\n"):
                        continue  # a line cut by SIGKILL was never acknowledged in full
                    seq = int(line.split()[0])
                    if seq > tip:
                        self.fail(f"acknowledged record {seq} lost (journal ends at {tip})")
                    acked += 1
        bodies = [(r[0], r[2], r[3], r[4], json.loads(r[5])) for r in rows]
        # 3. Rounds: each ended once; bets settled or returned once.
        rounds = {}
        for seq, kind, round_id, station, body in bodies:
            if round_id is None:
                continue
            r = rounds.setdefault(round_id, {"bets": {}, "ends": [], "settled": {}, "credits": {}, "withdrawn": set()})
            if kind == "bet.accepted":
                r["bets"][body["bet"]] = (station, body["stake"])
            elif kind == "bet.withdrawn":
                r["withdrawn"].add(body["bet"])
            elif kind in ("round.settled", "round.voided"):
                r["ends"].append(kind)
            elif kind == "bet.settled":
                if body["bet"] in r["settled"]:
                    self.fail(f"round {round_id} bet {body['bet']} settled twice")
                r["settled"][body["bet"]] = (station, body["returned"])
            elif kind == "credit" and body["reason"] in ("settlement", "bet_return") and r["ends"]:
                r["credits"][station] = r["credits"].get(station, 0) + body["amount"]
        for round_id, r in rounds.items():
            if len(r["ends"]) != 1:
                self.fail(f"round {round_id} ended {len(r['ends'])} times after recovery")
            standing = {b: v for b, v in r["bets"].items() if b not in r["withdrawn"]}
            expected = {}
            if r["ends"][0] == "round.settled":
                if set(r["settled"]) != set(standing):
                    self.fail(f"round {round_id}: settled bets {sorted(r['settled'])} != standing {sorted(standing)}")
                for station, returned in r["settled"].values():
                    expected[station] = expected.get(station, 0) + returned
            else:
                if r["settled"]:
                    self.fail(f"round {round_id} voided with settled bets")
                for station, stake in standing.values():
                    expected[station] = expected.get(station, 0) + stake
            if expected != r["credits"]:
                self.fail(f"round {round_id}: credited {r['credits']} != due {expected}")
        # 4. Credits: each record follows the one before; 5. conservation.
        balance = {}
        totals = {}
        for seq, kind, round_id, station, body in bodies:
            if kind != "credit":
                continue
            before = balance.get(station, 0)
            if before + body["amount"] != body["balance"] or body["balance"] < 0:
                self.fail(f"credit record {seq} of station {station}: {before} + {body['amount']} != {body['balance']}")
            balance[station] = body["balance"]
            totals[body["reason"]] = totals.get(body["reason"], 0) + body["amount"]
        came_in = totals.get("ticket_in", 0)
        game_net = sum(totals.get(k, 0) for k in ("bet", "settlement", "bet_return", "resettlement"))
        left = -sum(totals.get(k, 0) for k in ("ticket_out", "handpay", "jackpot", "tip"))
        held = sum(balance.values())
        if came_in + game_net != held + left:
            self.fail(f"money not conserved: in {came_in} + game {game_net} != held {held} + left {left}")
        stakes = sum(stake for r in rounds.values() for stake in [v[1] for v in r["bets"].values()])
        if -totals.get("bet", 0) != stakes:
            self.fail(f"bets debited {-totals.get('bet', 0)} != stakes accepted {stakes}")
        db.close()
        return {"records": tip, "acked": acked, "rounds": len(rounds), "held": held, "balances": balance}


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
    args = parser.parse_args()
    child = os.path.join(args.build_dir, "tests", "crash", "crash_child")
    paytable = os.path.join(args.source_dir, "etc", "paytables", "standard.yaml")
    rng = random.Random(args.seed)
    print(f"crash test seed {args.seed}", flush=True)

    with tempfile.TemporaryDirectory(prefix="pitlink-crash-") as tmp:
        db = os.path.join(tmp, "journal.db")
        ack = os.path.join(tmp, "ack.log")
        checker = Checker(db, ack)
        seeds = iter(range(args.seed * 1000 + 1, args.seed * 1000 + 100000))

        def base():
            return [child, "--journal", db, "--ack-log", ack, "--paytable", paytable, "--seed", str(next(seeds))]

        def after_death(label):
            result = run([child, "--journal", db, "--check"])
            if result.returncode != 0:
                raise AssertionError(f"{label}: daemon audit failed ({result.returncode}): {result.stdout} {result.stderr}")
            report = json.loads(result.stdout)
            state = checker.check()
            # The daemon's meters, recomputed by its audit, against the sums made here.
            daemon_credits = {int(k): v["credits"] for k, v in report["meters"]["stations"].items()}
            if {k: v for k, v in daemon_credits.items() if v or k in state["balances"]} != state["balances"]:
                raise AssertionError(f"{label}: daemon credits {daemon_credits} != {state['balances']}")
            return state, report

        deaths = []
        deaths += [("kill", i) for i in range(args.kills)]
        deaths += [("power", i) for i in range(args.power_cuts)]
        deaths += [("full", i) for i in range(args.disk_full)]
        rng.shuffle(deaths)
        deaths.append(("fsize", 0))
        last = None
        for how, i in deaths:
            label = f"{how} #{i}"
            if how == "kill":
                proc = subprocess.Popen(base() + ["--rounds", "1000000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                time.sleep(rng.uniform(0.05, 0.6))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
            elif how == "power":
                result = run(base() + ["--rounds", "1000000", "--power-cut-after-writes", str(rng.randint(1, 400)),
                                       "--keep", str(rng.choice([0.0, 0.3, 0.7, 1.0]))])
                if result.returncode != 42:
                    raise AssertionError(f"{label}: child should have lost power, exit {result.returncode}: {result.stderr}")
            elif how == "full":
                result = run(base() + ["--rounds", "1000000", "--fail-writes-after", str(rng.randint(1, 300))])
                if result.returncode != 4 or "tilt" not in result.stderr:
                    raise AssertionError(f"{label}: a full disk must tilt (exit 4), got {result.returncode}: {result.stderr}")
            else:
                size = os.path.getsize(db) + os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else os.path.getsize(db)
                limit = size + 64 * 1024

                def limit_file_size():
                    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

                result = run(base() + ["--rounds", "1000000"], preexec_fn=limit_file_size)
                if result.returncode != 4 or "tilt" not in result.stderr:
                    raise AssertionError(f"{label}: the file-size limit must tilt (exit 4), got {result.returncode}: {result.stderr}")
            state, report = after_death(label)
            if last is not None and state["records"] < last["records"]:
                raise AssertionError(f"{label}: the journal shrank")
            last = state
        # A clean finish on the same journal: the table goes on after all of it.
        result = run(base() + ["--rounds", str(report["meters"]["table"]["rounds_settled"] +
                                               report["meters"]["table"]["rounds_voided"] + 20)])
        if result.returncode != 0:
            raise AssertionError(f"final run failed: {result.stderr}")
        state, report = after_death("final")
        print(f"ok: {len(deaths)} deaths, {state['rounds']} rounds, {state['records']} records, "
              f"{state['acked']} acknowledged steps, {report['snapshots_compared']} snapshots compared, "
              f"credits held {state['held']}")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        sys.exit(1)
