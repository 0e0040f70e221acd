#!/usr/bin/env python3
"""Pipelined requests raced against the real pitlinkd (a reader table on a temporary directory,
real SQLite journal, real Unix socket), by an independent client (engine_race.py: standard
library, the public protocol and the documented journal schema only).

1. Issue 15 exactly: a natural's four cards, a card too many and void_round written at once.
2. Several seeds of one dealer and several stations, each on its own connection, writing bursts
   without waiting; every reply, round, bet, credit and settlement checked by engine_race.Checker.
   The stations build spots in steps with stakes that are not multiples of 20 (issue 30): the
   rounds are settled per spot, and somewhere a spot's total pays more than its additions would
   one by one.
3. The checker's checks are live: a journal doctored as issue 15 shows, and one where a spot is
   paid per addition (the rule before issue 30) in a round opened to be settled per spot.

Usage: test_engine_race.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import os
import subprocess
import sys
import tempfile
import time
import unittest
from collections import Counter

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_race  # noqa: E402

DAEMON = os.path.join(BUILD, "daemon", "app", "pitlinkd")
CTL = os.path.join(BUILD, "daemon", "ctl", "pitlinkctl")
PAYTABLE = os.path.join(SOURCE, "etc", "paytables", "standard.yaml")
SEEDS = [int(s) for s in os.environ.get("ENGINE_RACE_SEEDS", "11,23,37").split(",")]
ROUNDS = int(os.environ.get("ENGINE_RACE_ROUNDS", "20"))
CLIENTS = 5


class ReaderTable:
    """pitlinkd on a reader table in `directory`; local tickets, so stations are funded by ticket_in."""

    def __init__(self, directory, stations=4, cashier=""):
        self.dir = directory
        self.config = os.path.join(directory, "pitlink.yaml")
        with open(self.config, "w") as f:
            f.write("table:\n  source: reader\n  stations: %d\n  decks: 8\n  rescan_attempts: 3\n  paytable: %s\n"
                    "rounds:\n  bets_open_ms: 60000\n  last_bets_ms: 1000\n"
                    "cashier:\n  ticket_in_local: true\n%s"
                    "engine:\n  socket: engine.sock\ncontrol:\n  socket: control.sock\n"
                    "journal:\n  path: journal.db\n" % (stations, PAYTABLE, cashier))
        self.socket = os.path.join(directory, "engine.sock")
        self.control = os.path.join(directory, "control.sock")
        self.db = os.path.join(directory, "journal.db")
        self.log = os.path.join(directory, "pitlinkd.log")
        self.proc = None

    def start(self):
        self.output = open(self.log, "w")
        self.proc = subprocess.Popen([DAEMON, "--config", self.config], stdout=self.output, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while not os.path.exists(self.socket):
            if self.proc.poll() is not None or time.time() > deadline:
                raise AssertionError("pitlinkd did not open its engine socket:\n" + self.tail())
            time.sleep(0.02)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.output.close()
        return self.proc.returncode

    def tail(self, lines=30):
        with open(self.log) as f:
            return "".join(f.readlines()[-lines:])


def records(db, kind, round_id=None):
    journal = engine_race.Journal(db)
    return [r for r in journal.records if r["kind"] == kind and (round_id is None or r["round"] == round_id)]


def spots_built_in_steps(journal):
    """The bet.settled records of spots built from two additions or more, each with the bet
    indexes, stakes and returns (per the paytable, computed by engine_race) of its additions paid
    one by one: [(record, [(bet, stake, returned)])]."""
    accepted = {(r["round"], r["body"]["bet"]): r["body"] for r in journal.records if r["kind"] == "bet.accepted"}
    hands = {r["round"]: (r["body"]["player"], r["body"]["banker"]) for r in journal.records
             if r["kind"] == "round.settled"}
    built = []
    for r in journal.records:
        bets = r["body"].get("bets") if r["kind"] == "bet.settled" else None
        if isinstance(bets, list) and len(bets) >= 2 and r["round"] in hands:
            additions = []
            for bet in bets:
                stake = accepted[(r["round"], bet)]["stake"]
                additions.append((bet, stake, engine_race.settle(r["body"]["spot"], stake, *hands[r["round"]])[1]))
            built.append((r, additions))
    return built


class EngineRace(unittest.TestCase):
    def test_issue_15_a_card_too_many_and_a_void_written_behind_a_natural(self):
        """One bet of 1,000 on Player at a station with 10,000; the natural's four cards, one card too
        many and void_round written at once: settled once (11,000), both refused and journaled as
        refused, the six replies in request order."""
        with tempfile.TemporaryDirectory() as d:
            table = ReaderTable(d)
            table.start()
            problems = []
            try:
                c = engine_race.Connection(table.socket, "engine")
                for op, fields in [("ticket_in", {"station": 1, "validation": "150000000001", "amount": 10_000}),
                                   ("new_shoe", {}), ("open_round", {}),
                                   ("bet", {"station": 1, "spot": "player", "stake": 1000}), ("close_bets", {})]:
                    reply = c.request(op, **fields)
                    self.assertTrue(reply and reply["ok"], (op, reply))
                    if op == "open_round":
                        round_id = reply["data"]["round"]
                # Player 9S KD = 9, Banker 2H 4C = 6: a natural, Player wins. Then 5D and a void.
                burst = [("card", {"card": card}) for card in ("9S", "2H", "KD", "4C")]
                burst += [("card", {"card": "5D"}), ("void_round", {"reason": "issue 15: void behind the natural"})]
                ids = c.send_burst(burst)
                replies = c.wait_replies(ids, 10)
                answered = [rid for rid in c.reply_order if rid in ids]
                if answered != ids:
                    problems.append("replies came in the order %s, the requests were %s" % (answered, ids))
                problems += c.order_findings()
                for position, reply in enumerate(replies[:4], 1):
                    if not (reply and reply["ok"] and reply["data"].get("position") == position):
                        problems.append("card %d %s: %s" % (position, burst[position - 1][1]["card"], reply))
                if not replies[4] or replies[4]["ok"]:
                    problems.append("the card too many was not refused: %s" % replies[4])
                if not replies[5] or replies[5]["ok"]:
                    problems.append("void_round after the complete coup was not refused: %s" % replies[5])
                c.wait_event(lambda e: e.get("event") == "result" and e.get("round") == round_id, 10)
                time.sleep(0.3)  # room for a second result, if the round ends twice
                results = [e for e in c.events if e.get("event") == "result" and e.get("round") == round_id]
                if [(e.get("voided", False), e.get("winner")) for e in results] != [(False, "player")]:
                    problems.append("result events of round %d: %s" % (round_id, results))
                status = c.request("status")
                credits = status["data"]["stations"][0]["credits"]
                if credits != 11_000:
                    problems.append("station 1 has %s credits, 10,000 - 1,000 + 2,000 = 11,000 expected" % credits)
                c.close()
            finally:
                code = table.stop()
            self.assertEqual(code, 0, table.tail())
            settled = records(table.db, "round.settled", round_id)
            voided = records(table.db, "round.voided", round_id)
            if len(settled) != 1 or voided:
                problems.append("round %d: %d round.settled and %d round.voided (%s)" % (
                    round_id, len(settled), len(voided), "; ".join(v["body"].get("reason", "") for v in voided)))
            paid = [(r["body"].get("result"), r["body"].get("returned")) for r in records(table.db, "bet.settled", round_id)]
            if paid != [("win", 2000)]:
                problems.append("bet.settled of round %d: %s, one win returning 2,000 expected" % (round_id, paid))
            dealt = [r["body"]["card"] for r in records(table.db, "card.dealt", round_id)]
            if dealt != ["9S", "2H", "KD", "4C"]:
                problems.append("card.dealt of round %d: %s" % (round_id, dealt))
            refused = records(table.db, "request.refused")
            by_op = Counter(r["body"].get("op") for r in refused)
            if by_op != Counter({"card": 1, "void_round": 1}):
                problems.append("request.refused records by op: %s, one card and one void_round expected" % dict(by_op))
            for r, reply in ((r, replies[4] if r["body"].get("op") == "card" else replies[5]) for r in refused
                             if r["body"].get("op") in ("card", "void_round")):
                body = r["body"]
                if reply and body.get("error") != reply.get("error"):
                    problems.append("request.refused %s says error %r, the reply %r" % (body["op"], body.get("error"),
                                                                                     reply.get("error")))
                if not isinstance(body.get("message"), str) or not body.get("message"):
                    problems.append("request.refused %s has no message: %s" % (body["op"], body))
                if r["station"] is not None or r["round"] not in (round_id, None):
                    problems.append("request.refused %s: station %r, round %r" % (body["op"], r["station"], r["round"]))
            self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_racing_dealer_and_stations_with_pipelined_requests(self):
        """A dealer and several stations, each on its own connection, write bursts of requests without
        waiting; the dealer's faults (a card too many, void racing the last card or in the deal,
        unreadable cards) race the stations' bets, cash-outs and tickets. Checked per seed."""
        rounding = 0  # spots whose total pays otherwise than their additions one by one
        for seed in SEEDS:
            with self.subTest(seed=seed), tempfile.TemporaryDirectory() as d:
                # Small ticket and jackpot limits: some cash-outs and wins are hand-pays, paid by
                # the attendant (pitlinkctl) while the race goes on.
                table = ReaderTable(d, stations=CLIENTS + 1, cashier="  ticket_limit: 60000\n  jackpot_limit: 20000\n")
                table.start()
                began = time.time()
                try:
                    ctl = CTL if os.getuid() == 0 and os.path.exists(CTL) else None
                    race = engine_race.Race(table.socket, seed, ROUNDS, CLIENTS, control=table.control, ctl=ctl).run()
                finally:
                    code = table.stop()
                self.assertEqual(code, 0, table.tail())
                journal = engine_race.Journal(table.db)
                findings = engine_race.Checker(race, journal).findings()
                summary = engine_race.summary(race, journal)
                print("seed %d (%.1f s): %s" % (seed, time.time() - began, summary), file=sys.stderr)
                self.assertEqual(findings, [], "seed %d: %s\n%s" % (seed, summary, "\n".join(findings)))
                # Not a vacuous race: rounds were played and bets were settled and withdrawn.
                kinds = Counter(r["kind"] for r in journal.records)
                self.assertEqual(len(race.dealer.plans), ROUNDS, summary)
                self.assertGreater(kinds["bet.settled"], ROUNDS, summary)
                self.assertGreater(kinds["bet.withdrawn"], 0, summary)
                # Every round this version opens is settled per spot, and stakes were built in steps.
                marks = Counter(r["body"].get("settle") for r in journal.records if r["kind"] == "round.opened")
                self.assertEqual(set(marks), {"spot"}, summary)
                built = spots_built_in_steps(journal)
                self.assertTrue(built, "seed %d: no spot was built in steps: %s" % (seed, summary))
                rounding += sum(1 for r, additions in built if r["body"]["returned"] != sum(b for _, _, b in additions))
                print("seed %d: %d spots built in steps, %d settled spots" % (
                    seed, len(built), kinds["bet.settled"]), file=sys.stderr)
        # Not a vacuous workload: per-addition rounding would have paid some spot otherwise.
        self.assertGreater(rounding, 0, "no spot of these seeds pays otherwise per addition than on its total")

    def test_the_checker_reports_issue_15_as_a_daemon_with_it_journals_and_answers_it(self):
        """The checks are live: a real race's replies and journal, doctored the way issue 15 shows
        (a settled round then voided as a misdeal with its stakes returned again, and a refusal
        answered before the acceptance ahead of it), are reported for exactly that."""
        with tempfile.TemporaryDirectory() as d:
            table = ReaderTable(d, stations=CLIENTS + 1)
            table.start()
            try:
                race = engine_race.Race(table.socket, 5, 12, CLIENTS).run()
            finally:
                table.stop()
            journal = engine_race.Journal(table.db)
            before = set(engine_race.Checker(race, journal).findings())
            plan = next(p for p in race.dealer.plans if p.expected_end == "settled" and
                        any(r["kind"] == "bet.settled" and r["round"] == p.round_id for r in journal.records))
            standing = Counter()
            for r in journal.records:
                if r["kind"] == "bet.settled" and r["round"] == plan.round_id:
                    standing[r["station"]] += r["body"]["stake"]
            balance = {}
            for r in journal.records:
                if r["kind"] == "credit":
                    balance[r["station"]] = r["body"]["balance"]
            seq = journal.records[-1]["seq"]
            journal.records.append(dict(seq=seq + 1, kind="round.voided", round=plan.round_id, station=None,
                                        body={"reason": "misdeal: no card is due", "by": "table"}))
            for n, (station, stake) in enumerate(sorted(standing.items()), seq + 2):
                balance[station] += stake
                journal.records.append(dict(seq=n, kind="credit", round=plan.round_id, station=station,
                                            body={"amount": stake, "balance": balance[station], "reason": "bet_return"}))
            for st in race.status_after["stations"]:
                st["credits"] = balance.get(st["station"], st["credits"])
            conn = race.stations[0].conn
            conn.reply_order[0], conn.reply_order[1] = conn.reply_order[1], conn.reply_order[0]
            race.findings = race.dealer.findings + [f for c in race.connections() for f in c.order_findings()]
            new = set(engine_race.Checker(race, journal).findings()) - before
            expected = ["round %d ends 2 times in the journal" % plan.round_id,
                        "round %d was settled and then voided" % plan.round_id,
                        "station 1: replies out of order: reply 1 is to #2"]
            expected += ["station %d: status says %d credits" % (s, balance[s]) for s in standing]
            for start in expected:
                self.assertTrue(any(f.startswith(start) for f in new), "%r not in\n%s" % (start, "\n".join(sorted(new))))

    def test_the_checker_reports_a_spot_paid_per_addition_in_a_round_settled_per_spot(self):
        """Issue 30: the rule before it, each addition to a spot paid on its own and rounded down,
        put back into a real race's journal (a spot round's settlement of a spot built in steps,
        and its station's credits, rewritten so) is reported: the spot settled in pieces, the
        credit short of what the paytable pays on the spot's total, and the station's money."""
        found = None
        for seed in (5, 6, 7, 8, 9):
            with tempfile.TemporaryDirectory() as d:
                table = ReaderTable(d, stations=CLIENTS + 1)
                table.start()
                try:
                    race = engine_race.Race(table.socket, seed, 12, CLIENTS).run()
                finally:
                    table.stop()
                journal = engine_race.Journal(table.db)
            short = [(r, additions) for r, additions in spots_built_in_steps(journal)
                     if sum(b for _, _, b in additions) < r["body"]["returned"]]
            if short:
                found = (race, journal, short[0])
                break
        self.assertIsNotNone(found, "no race of seeds 5-9 built a spot that per-addition rounding pays less")
        race, journal, (unit, additions) = found
        before = set(engine_race.Checker(race, journal).findings())
        rnd, station = unit["round"], unit["station"]
        delta = unit["body"]["returned"] - sum(b for _, _, b in additions)
        pieces = []
        for k, (bet, stake, back) in enumerate(additions):
            result = "win" if back > stake else "push" if back == stake else "loss"
            body = dict(unit["body"], bets=[bet], stake=stake, returned=back, result=result,
                        win=back - stake if result == "win" else 0)
            # Between the record and the next whatever the number of additions (a slow machine's race
            # can build a spot of ten or more, and k / 10 then reached the next record's seq).
            pieces.append(dict(unit, seq=unit["seq"] + (k + 1) / (len(additions) + 1), body=body))
        at = journal.records.index(unit)
        journal.records[at:at + 1] = pieces
        credited = False
        for r in journal.records:
            if r["kind"] == "credit" and r["station"] == station and r["seq"] > unit["seq"]:
                if not credited and r["round"] == rnd and r["body"].get("reason") == "settlement":
                    r["body"] = dict(r["body"], amount=r["body"]["amount"] - delta)
                    credited = True
                r["body"] = dict(r["body"], balance=r["body"]["balance"] - delta)
        self.assertTrue(credited)
        for st in race.status_after["stations"]:
            if st["station"] == station:
                st["credits"] -= delta
        new = set(engine_race.Checker(race, journal).findings()) - before
        what = "round %d: station %d's %s spot" % (rnd, station, unit["body"]["spot"])
        expected = ["%s (bets %s" % (what, [bet for bet, _, _ in additions]),
                    "round %d (round.settled) station %d: credits after its end" % (rnd, station),
                    "station %d: status says" % station]
        for start in expected:
            self.assertTrue(any(f.startswith(start) for f in new), "%r not in\n%s" % (start, "\n".join(sorted(new))))
        self.assertTrue(any("settled by %d bet.settled records" % len(additions) in f for f in new), "\n".join(new))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
