#!/usr/bin/env python3
"""Crash, power-loss and disk-full test of the pitlink journal.

Runs crash_child (rounds with bets, settlements, tickets, tips, hand-pays and SAS AFT cashless
transfers on the real writer thread) and kills it in every way a table controller can die:
  * SIGKILL at a random moment (the OS keeps what was written: a process crash), one in four
    of them just after a cashless transfer was acknowledged pending;
  * a power cut inside the power-loss VFS: writes not yet fsynced are each kept or lost;
  * a full disk: writes fail after a random number of them (the table must tilt, exit 4);
  * a real file-size limit (RLIMIT_FSIZE): the kernel refuses the write (EFBIG).
After every death it recovers the journal as pitlinkd starts (crash_child --recover: from the
last snapshots, the unfinished round finished) and checks it with its own code (it shares nothing with the daemon: its own SHA-256 chain check, its own
sums with sqlite3):
  * the chain is whole and every acknowledged step is in the journal;
  * every round has ended, exactly once; each standing bet was covered by exactly one settlement
    (its own, or its spot's in rounds opened with settle "spot") or returned once;
  * each station's credit records follow one from the other, never below zero, and so do its
    restricted and non-restricted promotional credits (the `credit` parts) and its cashable
    ones; a bet takes restricted credits first, then non-restricted; what a round gives back
    returns to the types its stakes took (schema/README.md "Credit types");
  * everything that came in (tickets, transfers in, bonuses) plus the game's net equals the
    credits held plus what left the table (tickets out, hand-pays, tips, transfers out);
  * cashless transfers (`aft.transfer`): each ID ends once, pending first or refused at once; a
    successful end moves exactly its `moved`, by the rules of a full or a partial transfer, in
    one `credit` (ref "aft ID") of its transaction; a refusal or a 9F moves nothing; a transfer
    pending at a start ends there as 9F before anything else happens; none is left pending but
    the last one begun; the host acknowledges a station's ended transfer before its next one;
    every step acknowledged as a transfer's is that step in the journal; each segment.carried
    carries the AFT state followed here;
  * the credits, the promotional credits, the transfer meters and the promotional credits
    played that the daemon recovered are the ones summed here.
The check is incremental, so that a death costs the same however long the journal: the checker
keeps what it has found (the chain hash of the last record checked, the stations' balances and
promotional credits, the money sums, each round's tally, each station's current transfer and the
transfer IDs ended) and reads only the records after the last one checked, once it
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
    names the standing `bets` of one station's spot and has their total as its stake). What its
    stakes took of promotional credits comes back to their types (schema/README.md "Credit
    types"): a withdrawn or voided stake all of it, a settled one what it paid back up to the
    stake, restricted first (a win is cashable)."""
    settle: str = "bet"                                        # "bet" or "spot", from round.opened
    bets: dict = dataclasses.field(default_factory=dict)      # bet -> (station, stake, spot)
    withdrawn: set = dataclasses.field(default_factory=set)
    ends: list = dataclasses.field(default_factory=list)      # round.settled / round.voided
    settled: dict = dataclasses.field(default_factory=dict)   # bet -> the station its settlement is for
    settlements: list = dataclasses.field(default_factory=list)  # (station, spot, stake, bets covered, returned)
    returned: dict = dataclasses.field(default_factory=dict)  # station -> sum of its bet.settled returned
    credits: dict = dataclasses.field(default_factory=dict)   # station -> credited once ended
    taken: dict = dataclasses.field(default_factory=dict)     # bet -> (restricted, non-restricted) its stake took
    parts: dict = dataclasses.field(default_factory=dict)     # station -> promotional parts credited once ended
    wagered: dict = dataclasses.field(default_factory=dict)   # station -> its settlement's wagered parts

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
            self.settlements.append((station, body["spot"], body["stake"], tuple(covered), body["returned"]))
            self.returned[station] = self.returned.get(station, 0) + body["returned"]
        elif kind == "credit":
            parts = (body.get("restricted", 0), body.get("nonrestricted", 0))
            bet = body.get("ref", "")[4:] if str(body.get("ref", "")).startswith("bet ") else None
            if body["reason"] == "bet" and bet is not None:
                self.taken[int(bet)] = (-parts[0], -parts[1])
            elif body["reason"] == "bet_return" and bet is not None and not self.ends:
                if parts != self.taken.get(int(bet), (0, 0)):
                    return f"bet {bet} returned {parts} of promotional credits, its stake took " \
                           f"{self.taken.get(int(bet))}"
            elif body["reason"] in ("settlement", "bet_return") and self.ends:
                self.credits[station] = self.credits.get(station, 0) + body["amount"]
                self.parts[station] = add_parts(self.parts.get(station, (0, 0)), parts)
                if body["reason"] == "settlement":
                    self.wagered[station] = (body.get("wagered_restricted", 0), body.get("wagered_nonrestricted", 0))
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
            for station, spot, stake, covered, _returned in self.settlements:
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
        return self.parts_problem(standing)

    def parts_problem(self, standing):
        """The promotional parts given back and, in a settlement, its wagered parts."""
        staked = {}
        for bet, (station, _stake, _spot) in standing.items():
            staked[station] = add_parts(staked.get(station, (0, 0)), self.taken.get(bet, (0, 0)))
        expected = {}
        if self.ends[0] == "round.settled":
            wagered = {s: p for s, p in self.wagered.items() if any(p)}
            if wagered != {s: p for s, p in staked.items() if any(p)}:
                return f"settled with wagered parts {wagered}, its stakes took {staked}"
            for station, _spot, stake, covered, returned in self.settlements:
                taken = (0, 0)
                for bet in covered:
                    taken = add_parts(taken, self.taken.get(bet, (0, 0)))
                back = (0, 0) if returned > stake else stake_taken(taken, returned)
                expected[station] = add_parts(expected.get(station, (0, 0)), back)
        else:
            expected = staked
        expected = {s: p for s, p in expected.items() if any(p)}
        credited = {s: p for s, p in self.parts.items() if any(p)}
        if expected != credited:
            return f"gave back {credited} of promotional credits, its stakes' types come to {expected}"
        return None


# SAS AFT (schema/README.md `aft.transfer`): the transfer types and their credit's reason, the
# statuses, and the meters of each type's parts (by `moved`: cashable, restricted, non-restricted).
TRANSFER_REASONS = {0: "transfer_in", 16: "bonus", 128: "transfer_out"}
PENDING, FULL, PARTIAL, POWER_LOST = 64, 0, 1, 159
TYPE_NAMES = ("cashable", "restricted", "non-restricted")
TRANSFER_METERS = {0: ("transfer_in_cashable", "transfer_in_restricted", "transfer_in_nonrestricted"),
                   16: ("bonus_cashable", None, "bonus_nonrestricted"),
                   128: ("transfer_out_cashable", "transfer_out_restricted", "transfer_out_nonrestricted")}
AFT_METER_NAMES = [m for names in TRANSFER_METERS.values() for name in names if name for m in (name, name + "_count")]
# Money in and out of the table by credit reason (the rest is the game's).
MONEY_IN = ("ticket_in", "transfer_in", "bonus", "legacy_bonus")
MONEY_OUT = ("ticket_out", "handpay", "jackpot", "tip", "transfer_out", "restricted_expired", "bonus_handpay")
GAME = ("bet", "settlement", "bet_return", "resettlement")


def add_parts(a, b):
    return a[0] + b[0], a[1] + b[1]


def amounts(body):
    """An `asked` or `moved` of an aft.transfer body: (cashable, restricted, non-restricted)."""
    return body["cashable"], body["restricted"], body["nonrestricted"]


def stake_taken(held, stake):
    """What a stake takes of promotional credits `held` (restricted, non-restricted): restricted
    first, then non-restricted; the rest is cashable."""
    restricted = min(held[0], stake)
    return restricted, min(held[1], stake - restricted)


def moved_problem(t, status, moved):
    """What is wrong with what an ended transfer moved (None: nothing). A full transfer moves what
    it asked; a partial one part of it, to the station restricted first, then non-restricted, then
    cashable, to the host cashable first, then non-restricted, then restricted (each type taken
    only once the ones before it give all they were asked, or all the station held of them);
    anything else moves nothing."""
    if status not in (FULL, PARTIAL):
        return f"moved {moved} with status {status}" if any(moved) else None
    if t.type not in TRANSFER_REASONS:
        return f"of type {t.type} succeeded"
    if not any(moved) or any(m < 0 for m in moved):
        return f"succeeded moving {moved}"
    if status == FULL:
        return None if moved == t.asked else f"a full transfer moved {moved}, asked {t.asked}"
    if t.code != 1 or moved == t.asked or any(m > a for m, a in zip(moved, t.asked)):
        return f"a partial transfer (code {t.code}) moved {moved}, asked {t.asked}"
    # (cashable, restricted, non-restricted) in the order a partial transfer fills them.
    order = (1, 2, 0) if t.type != 128 else (0, 2, 1)
    held = t.held if t.type == 128 else t.asked
    for i, before in enumerate(order):
        for after in order[i + 1:]:
            if moved[after] > 0 and moved[before] < min(t.asked[before], held[before]):
                return f"a partial transfer moved {moved} of {t.asked} (cashable, restricted, non-restricted): " \
                       f"{TYPE_NAMES[after]} credits before all of the {TYPE_NAMES[before]} ones"
    return None


@dataclasses.dataclass
class Transfer:
    """A station's current aft.transfer (its last), as its records leave it."""
    id: str
    type: int
    code: int
    asked: tuple
    pending: object = None    # seq of its pending record (None: refused at once)
    end: object = None        # seq of its end
    status: int = PENDING
    held: tuple = (0, 0, 0)   # what the station held of each type when it ended (before its credit)
    acknowledged: bool = False


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
        self.promo = {}           # station -> [restricted, non-restricted] of its credits
        self.played = {}          # station -> [restricted, non-restricted] its settled stakes took
        self.expired = {}         # station -> restricted credits gone at their expiry (meter restricted_expired)
        self.transfers = {}       # station -> Transfer, its current (last) one
        self.ended = set()        # IDs of the transfers ended (refused at once or not)
        self.last_begun = None    # ID of the last transfer begun
        self.pending_at_start = {}  # station -> (ID, seq of the daemon.started it was pending at)
        self.expect_credit = None   # (seq, station, ID, moved) of the credit a successful end needs next
        self.aft_meters = {}      # station -> {meter: value} from the ends' `moved`
        self.history = {}         # station -> (entries, newest ID) of its history (acknowledged successes)
        self.outcomes = {}        # how transfers ended -> how many

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
        first = self.checked + 1
        self.check_chain(rows)
        records = [(seq, kind, round_id, station, json.loads(body))
                   for seq, _at_ms, kind, round_id, station, body, _hash in rows]
        self.check_acks(records, first)
        self.check_rounds(records)
        self.check_credits(records)
        return {"records": self.checked, "acked": self.acked, "rounds": len(self.rounds),
                "held": sum(self.balance.values()), "balances": dict(self.balance),
                "promo": {s: tuple(p) for s, p in self.promo.items() if any(p)},
                "played": {s: tuple(p) for s, p in self.played.items() if any(p)},
                "expired": {s: (e,) for s, e in self.expired.items() if e},
                "aft_meters": {s: {k: v for k, v in m.items() if v}
                               for s, m in self.aft_meters.items() if any(m.values())},
                "outcomes": dict(self.outcomes)}

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

    def check_acks(self, records, first):
        """2. Every step acknowledged since the last check is in the journal (the ones before
        were checked against records that are still there), and a transfer's step is that step:
        aft.pending its pending record, aft.transfer its end (a refusal at once, or the end and
        its credit), aft.ack an aft.acknowledged."""
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
            seq, step = line.split()[:2]
            seq = int(seq)
            if seq > self.checked:
                self.fail(f"acknowledged record {seq} lost (journal ends at {self.checked})")
            if step.startswith("aft.") and seq >= first:
                self.check_transfer_ack(records, seq - first, step)
            self.acked += 1
        self.ack_offset += len(whole)

    def check_transfer_ack(self, records, index, step):
        """The step a transfer's acknowledgement names is the record it was given for: its
        transaction's last (a snapshot may close it, snapshot_every: the one before it), the end's
        credit standing for the end."""
        while records[index][1] == "meters.snapshot" and index > 0:
            index -= 1
        seq, kind, _round_id, _station, body = records[index]
        while kind == "credit" and str(body.get("ref", "")).startswith("aft ") and index > 0:
            index -= 1
            seq, kind, _round_id, _station, body = records[index]
        if kind == "aft.transfer":
            found = "aft.pending" if body["status"] == PENDING else "aft.transfer"
        else:
            found = {"aft.acknowledged": "aft.ack"}.get(kind)
        if found != step:
            self.fail(f"step {step} acknowledged at record {seq}, a {kind} {body}")

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
        """4. Credits: each record follows the one before; 5. conservation; 6. cashless transfers,
        which meet the credits as they stood at each of their records."""
        for seq, kind, round_id, station, body in records:
            self.check_transfer_step(seq, kind, round_id, station, body)
            if kind != "credit":
                continue
            before = self.balance.get(station, 0)
            if before + body["amount"] != body["balance"] or body["balance"] < 0:
                self.fail(f"credit record {seq} of station {station}: {before} + {body['amount']} != {body['balance']}")
            if body["reason"] not in MONEY_IN + MONEY_OUT + GAME:
                self.fail(f"credit record {seq} of station {station}: reason {body['reason']!r}")
            held = self.promo.setdefault(station, [0, 0])
            problem = self.parts_problem(body, held)
            restricted, nonrestricted = body.get("restricted", 0), body.get("nonrestricted", 0)
            held[0] += restricted
            held[1] += nonrestricted
            if problem or min(held) < 0 or body["balance"] - sum(held) < 0:
                self.fail(f"credit record {seq} of station {station} {body}: {problem or 'a type below zero'} "
                          f"(restricted {held[0]}, non-restricted {held[1]}, cashable {body['balance'] - sum(held)} "
                          f"after it)")
            if body["reason"] == "restricted_expired":
                self.expired[station] = self.expired.get(station, 0) - body["amount"]
            if body["reason"] == "settlement":
                played = self.played.setdefault(station, [0, 0])
                played[0] += body.get("wagered_restricted", 0)
                played[1] += body.get("wagered_nonrestricted", 0)
            self.balance[station] = body["balance"]
            self.totals[body["reason"]] = self.totals.get(body["reason"], 0) + body["amount"]
        totals = self.totals
        came_in = sum(totals.get(k, 0) for k in MONEY_IN)
        game_net = sum(totals.get(k, 0) for k in GAME)
        left = -sum(totals.get(k, 0) for k in MONEY_OUT)
        held = sum(self.balance.values())
        if came_in + game_net != held + left:
            self.fail(f"money not conserved: in {came_in} + game {game_net} != held {held} + left {left}")
        if -totals.get("bet", 0) != self.stakes:
            self.fail(f"bets debited {-totals.get('bet', 0)} != stakes accepted {self.stakes}")
        if self.expect_credit:
            self.fail(f"transfer {self.expect_credit[2]} succeeded without its credit")
        pending = [t.id for t in self.transfers.values() if t.end is None]
        if pending and pending != [self.last_begun]:
            self.fail(f"transfers {pending} left pending (only the last one begun, {self.last_begun}, may be)")

    @staticmethod
    def parts_problem(body, held):
        """The credit types' rules for one credit's promotional parts (schema/README.md "Credit
        types"), the station holding `held` before it; what a round gives back of its stakes'
        types is checked with the round (RoundTally)."""
        why, amount = body["reason"], body["amount"]
        parts = (body.get("restricted", 0), body.get("nonrestricted", 0))
        cashable = amount - sum(parts)
        if why == "bet":
            taken = stake_taken(held, -amount)
            return None if parts == (-taken[0], -taken[1]) else f"a stake takes {taken} of promotional credits first"
        if why in ("settlement", "bet_return"):
            return None if min(parts) >= 0 else "gives back negative parts"
        if why == "transfer_in":
            return None if min(parts) >= 0 and cashable >= 0 else "brings negative parts"
        if why == "bonus":
            ok = parts[0] == 0 and parts[1] >= 0 and cashable >= 0
            return None if ok else "a bonus is cashable or non-restricted"
        if why == "transfer_out":
            return None if max(parts) <= 0 and cashable <= 0 else "takes negative parts"
        if why in ("ticket_out", "bonus_handpay"):
            return None if parts[0] == 0 and parts[1] <= 0 else "takes cashable and non-restricted credits only"
        if why == "restricted_expired":
            return None if parts == (amount, 0) else "expires restricted credits only"
        if why == "resettlement":
            return None
        return None if parts == (0, 0) else "moves cashable credits only"

    def check_transfer_step(self, seq, kind, round_id, station, body):
        """One record as cashless transfers see it (schema/README.md `aft.transfer`,
        `aft.acknowledged`), before the credits move by it."""
        if self.expect_credit and seq == self.expect_credit[0]:
            self.check_transfer_credit(seq, kind, station, body)
        elif kind == "aft.transfer":
            self.transfer_record(seq, station, body)
        elif kind == "aft.acknowledged":
            t = self.transfers.get(station)
            if t is None or t.id != body["id"] or t.end is None or t.pending is None or t.acknowledged:
                self.fail(f"record {seq}: station {station}'s aft.acknowledged of {body['id']}, its current "
                          f"transfer {t} (acknowledged once, ended, and taken pending first)")
            t.acknowledged = True
            if t.status in (FULL, PARTIAL):
                self.history[station] = (min(self.history.get(station, (0, None))[0] + 1, 127), t.id)
        elif kind == "segment.carried":
            # What the next segment's start resumes (the 9F of a pending one) is what the journal says.
            carried = {int(s): a for s, a in body.get("sas", {}).get("aft", {}).items()}
            for s, t in self.transfers.items():
                aft = carried.get(s, {})
                found = (aft.get("current", {}).get("id"), aft.get("current", {}).get("status"),
                         aft.get("acknowledged"), len(aft.get("history", [])),
                         (aft.get("history") or [{}])[-1].get("id"))
                wanted = (t.id, t.status, t.acknowledged or t.pending is None, *self.history.get(s, (0, None)))
                if found != wanted:
                    self.fail(f"record {seq}: segment.carried's AFT state of station {s} (current, status, "
                              f"acknowledged, history, newest) {found} != {wanted}")
        elif kind == "credit" and (body["reason"] in TRANSFER_REASONS.values() or
                                   str(body.get("ref", "")).startswith("aft ")):
            self.fail(f"credit record {seq} {body} of station {station} is not in the end of its transfer "
                      f"(credited twice, or before it ended)")
        elif kind == "daemon.started":
            for s, t in self.transfers.items():
                if t.end is None:
                    self.pending_at_start.setdefault(s, (t.id, seq))
        elif kind == "round.opened" and self.pending_at_start:
            self.fail(f"round {round_id} opened (record {seq}) before the transfers pending at the start "
                      f"were ended (9F): {self.pending_at_start}")

    def transfer_record(self, seq, station, body):
        tid, status, moved = body["id"], body["status"], amounts(body["moved"])
        t = self.transfers.get(station)
        if t is not None and t.id == tid and t.end is None:
            # The end of the station's pending transfer: the same request.
            if (body["type"], body["code"], amounts(body["asked"])) != (t.type, t.code, t.asked) or status == PENDING:
                self.fail(f"record {seq}: transfer {tid} ends as another request or pending again: {body}")
            at_start = self.pending_at_start.get(station, (None,))[0] == tid
            if at_start != (status == POWER_LOST) or (at_start and any(moved)):
                self.fail(f"record {seq}: transfer {tid} pending at the start at record "
                          f"{self.pending_at_start.get(station, (None, None))[1]} ends with status {status}, moving "
                          f"{moved} (a transfer pending at a start ends there 9F, moving nothing; only it)")
            self.pending_at_start.pop(station, None)
            t.held = (self.balance.get(station, 0) - sum(self.promo.get(station, (0, 0))),
                      *self.promo.get(station, (0, 0)))
            outcome = {FULL: "full", PARTIAL: "partial", POWER_LOST: "9F at a start"}.get(status, "refused when ended")
        else:
            if tid in self.ended or any(o.id == tid for o in self.transfers.values() if o.end is None):
                self.fail(f"record {seq}: transfer {tid} of station {station} ends again (or begins again)")
            if t is not None and (t.end is None or (t.pending is not None and not t.acknowledged)):
                self.fail(f"record {seq}: station {station} begins transfer {tid} while {t.id} is pending or "
                          f"unacknowledged")
            if self.pending_at_start:
                self.fail(f"record {seq}: transfer {tid} begins before those pending at the start were ended: "
                          f"{self.pending_at_start}")
            t = Transfer(tid, body["type"], body["code"], amounts(body["asked"]))
            self.transfers[station] = t
            self.last_begun = tid
            if status == PENDING:
                if any(moved):
                    self.fail(f"record {seq}: transfer {tid} pending with {moved} moved")
                t.pending = seq
                return
            if status in (FULL, PARTIAL, POWER_LOST):
                self.fail(f"record {seq}: transfer {tid} ends with status {status} without being pending first")
            outcome = "refused at once"
        t.end, t.status = seq, status
        self.ended.add(tid)
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        problem = moved_problem(t, status, moved)
        if problem:
            self.fail(f"record {seq}: transfer {tid} of station {station} {problem}")
        if status in (FULL, PARTIAL):
            self.expect_credit = (seq + 1, station, tid, moved)

    def check_transfer_credit(self, seq, kind, station, body):
        """A successful end's credit, the next record of its transaction: the station's, ref
        "aft ID", its type's reason, moving exactly `moved` of each type (to the host, negative)."""
        _seq, s, tid, moved = self.expect_credit
        self.expect_credit = None
        t = self.transfers[s]
        sign = -1 if t.type == 128 else 1
        expected = {"reason": TRANSFER_REASONS[t.type], "ref": f"aft {tid}", "amount": sign * sum(moved),
                    "restricted": sign * moved[1], "nonrestricted": sign * moved[2]}
        found = {k: body.get(k, 0) for k in expected} if kind == "credit" else None
        if station != s or found != expected:
            self.fail(f"record {seq} after the end of transfer {tid} (station {s}, moved {moved}) is not its credit "
                      f"{expected}: {kind} of station {station} {body}")
        for name, part in zip(TRANSFER_METERS[t.type], moved):
            if name and part:
                meters = self.aft_meters.setdefault(s, {})
                meters[name] = meters.get(name, 0) + part
                meters[name + "_count"] = meters.get(name + "_count", 0) + 1


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
            stations = {int(k): v for k, v in report["meters"]["stations"].items()}
            daemon_credits = {k: v["credits"] for k, v in stations.items()}
            if {k: v for k, v in daemon_credits.items() if v or k in state["balances"]} != state["balances"]:
                raise AssertionError(f"{label}: daemon credits {daemon_credits} != {state['balances']}")
            # Its promotional credits, the transfer meters and the promotional credits played.
            promo = {k: (v["promo"]["restricted"], v["promo"]["nonrestricted"])
                     for k, v in stations.items() if "promo" in v}
            played = {k: (v["meters"].get("restricted_played", 0), v["meters"].get("nonrestricted_played", 0))
                      for k, v in stations.items()}
            aft_meters = {k: {m: v["meters"][m] for m in AFT_METER_NAMES if v["meters"].get(m)}
                          for k, v in stations.items()}
            expired = {k: (v["meters"].get("restricted_expired", 0),) for k, v in stations.items()}
            for what, daemon, mine in (("promotional credits", promo, state["promo"]),
                                       ("promotional credits played", played, state["played"]),
                                       ("restricted credits expired", expired, state["expired"]),
                                       ("transfer meters", aft_meters, state["aft_meters"])):
                daemon = {k: v for k, v in daemon.items() if any(v.values() if isinstance(v, dict) else v)}
                if daemon != mine:
                    raise AssertionError(f"{label}: daemon {what} {daemon} != {mine}")
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
                # One kill in four is the child's own, once a transfer is acknowledged pending and
                # before it is carried out (unless the timed one comes first): a timed kill rarely
                # falls there, and the next start must end it 9F.
                pending = ["--kill-after-pending", str(rng.randint(1, 2))] if rng.random() < 0.25 else []
                proc = subprocess.Popen(base() + ["--rounds", "1000000"] + pending, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
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
              f"death and undone at the next start; transfers ended: "
              f"{', '.join(f'{n} {how}' for how, n in sorted(state['outcomes'].items()))}")
        if args.kills + args.power_cuts >= 40 and segments < 3:
            raise AssertionError(f"the journal was rotated only {segments - 1} times: the rotation went untested")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        sys.exit(1)
