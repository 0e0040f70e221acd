#!/usr/bin/env python3
"""An independent engine-link client that races pipelined requests against a running pitlinkd,
and a checker of what came back and of what the journal says.

Written from the public documents only (protocols/engine/README.md, schema/README.md,
docs/rules.md, etc/paytables/standard.yaml), with the Python standard library: nothing of
the project is imported. The drawing rules and the payouts are computed here.

One dealer connection runs the rounds of a reader table from its own shuffled 8-deck shoe: it
opens a round, lets the stations bet, then writes close_bets and the coup's cards without waiting
for the replies, sometimes with a fault: a card too many after the coup is complete, void_round
racing the last card, a void in the middle of the deal or while bets are open, card_unreadable
(re-scanned, or until the round is voided). Because one connection's requests are taken in the
order they were written, the dealer knows what each of its requests must get (accepted or refused)
and how each round must end; the checker holds the daemon to that.

Each station has its own connection and writes bursts of pipelined requests (bet, clear, undo,
repeat, double, raise, tip, cash_out, ticket_in) that race close_bets and the settlement. Their
replies cannot be predicted; what they say is checked against the journal and against each other.
Stakes are not multiples of 20, and a station builds a spot's stake in steps (a bet, another bet on
the same spot, raise, double), so that the paytable on a spot's total and on each addition rounded
down one by one pay differently.

Checks (Checker.findings): exactly one reply per request, in request order, per connection; the
dealer's predicted replies and round endings; each round ends exactly once (settled xor voided)
and has one `result` event; every accepted bet is settled, withdrawn or returned by the void
exactly once; settled rounds' cards form a complete coup that splits into the journaled hands;
every bet.settled and settlement credit equals what the paytable pays for those cards (computed
here), by the rule the round was opened under (schema/README.md): a round.opened without `settle`
is settled per bet (one bet.settled per bet, `bet`), one with `settle: "spot"` per spot (one
bet.settled per station and spot, `bets` naming the standing bets it covers, in the order the
spots were first bet, the paytable applied to the spot's total stake); each standing bet is
covered by exactly one settlement; each settlement credit is the sum of the station's returned;
each station's credit records chain and never go below zero; what each station was told
(tickets, tips, cash-outs, its slip after each bet, clear, undo, repeat, double, raise) matches the
journal; every refused request is journaled as refused (bet.refused, card.refused or
request.refused, with its station and the round then in progress); and per station the final
credits (status, and the journal's last balance) equal tickets in - tickets out - tips -
hand-pays + the returns computed here of its settled bets - their stakes.

Library: Race(...).run() then Checker(race, journal).findings(). As a program, against a reader
table between rounds (it deals, voids and cashes out, so a test table only):

    engine_race.py --socket engine.sock --journal journal.db --seed 7 --rounds 20 --clients 4
        [--control control.sock --ctl pitlinkctl]   (hand-pays reset by an attendant, as root)
"""
import argparse
import json
import random
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict

RANKS = "A23456789TJQK"
SUITS = "CDHS"

# etc/paytables/standard.yaml, as (numerator, denominator) "to one".
STANDARD = {
    "player": (1, 1), "banker": (19, 20), "tie": (8, 1), "player_pair": (11, 1), "banker_pair": (11, 1),
    "any_pair": (5, 1), "big": (1, 2), "small": (3, 2),
}
LUCKY_NINES = {"four_nines": 500, "three_nines_suited": 250, "three_nines": 20, "two_nines_suited": 8,
               "two_nines": 5, "one_nine_of_diamonds": 2, "one_nine": 1}
SPOTS = ["player", "banker", "tie", "player_pair", "banker_pair", "any_pair", "big", "small", "lucky_nines"]
SPOT_WEIGHTS = [5, 5, 2, 1, 1, 1, 1, 1, 1]
# Stakes that are not multiples of 20 (nor of 2): the paytable on a spot's total pays more than
# on each of its additions rounded down one by one (banker 110 + 130: 228, not 104 + 123).
STAKES = [100, 110, 130, 155, 205, 505, 1010, 2535]
# What a station adds to a spot it has bet already (bet again on the same spot), and its raise chips.
ADDITIONS = [5, 10, 15, 35, 110, 130]
CHIPS = [5, 10, 15, 25, 110]
# What each station op does to the slip of the open round, for the reply-order checks.
BET_OPS = ("bet", "clear", "undo", "repeat", "double", "raise")
STATION_OPS = BET_OPS + ("tip", "cash_out", "ticket_in")
# The ops that place chips: a refusal by a bet rule is journaled as bet.refused, any other as
# request.refused; both count as one kind here.
PLACING = ("bet", "repeat", "double", "raise")
DEALER_OPS = ("new_shoe", "open_round", "close_bets", "card", "card_unreadable", "void_round")


# ----------------------------------------------------------------------------------------------
# The rules (docs/rules.md "Cards, shoe, dealing"), computed here.

def value(card):
    rank = card[0]
    return 1 if rank == "A" else 0 if rank in "TJQK" else int(rank)


def total(cards):
    return sum(value(c) for c in cards) % 10


def banker_draws(banker, player_third):
    """Whether Banker (two-card total `banker`) draws; `player_third` is None when Player stood."""
    if player_third is None:
        return banker <= 5
    v = value(player_third)
    return (banker <= 2 or (banker == 3 and v != 8) or (banker == 4 and 2 <= v <= 7) or
            (banker == 5 and 4 <= v <= 7) or (banker == 6 and 6 <= v <= 7))


def cards_due(cards):
    """How many cards the coup that starts with `cards` (deal order) has in all, once known."""
    if len(cards) < 4:
        return None
    p, b = total([cards[0], cards[2]]), total([cards[1], cards[3]])
    if p >= 8 or b >= 8:
        return 4
    if p <= 5:
        if len(cards) < 5:
            return None
        return 6 if banker_draws(b, cards[4]) else 5
    return 5 if banker_draws(b, None) else 4


def split_coup(cards):
    """(player, banker) of a complete coup in deal order; None when `cards` is not exactly one coup."""
    for n in range(4, 7):
        if cards_due(cards[:n]) == n:
            if len(cards) != n:
                return None
            player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
            if n >= 5:
                if total(player) <= 5:
                    player.append(cards[4])
                    if n == 6:
                        banker.append(cards[5])
                else:
                    banker.append(cards[4])
            return player, banker
    return None


def deal_coup(draw):
    """Draws one legal coup from `draw()` (deal order)."""
    cards = [draw() for _ in range(4)]
    while cards_due(cards) is None or cards_due(cards) > len(cards):
        cards.append(draw())
    return cards


def lucky_nines_tier(player, banker):
    """docs/rules.md: nines among the four initial cards; only the highest line pays."""
    nines = [c for c in (player[0], banker[0], player[1], banker[1]) if c[0] == "9"]
    suited = len({c[1] for c in nines}) == 1
    if len(nines) == 4:
        return "four_nines"
    if len(nines) == 3:
        return "three_nines_suited" if suited else "three_nines"
    if len(nines) == 2:
        return "two_nines_suited" if suited else "two_nines"
    if len(nines) == 1:
        return "one_nine_of_diamonds" if nines[0][1] == "D" else "one_nine"
    return None


def settle(spot, stake, player, banker):
    """(result, returned) of a bet on the standard paytable: returned = stake + floor(stake x ratio)."""
    p, b = total(player), total(banker)
    winner = "player" if p > b else "banker" if b > p else "tie"
    pair_p, pair_b = player[0][0] == player[1][0], banker[0][0] == banker[1][0]
    cards = len(player) + len(banker)
    if spot in ("player", "banker"):
        if winner == "tie":
            return "push", stake
        won = winner == spot
    elif spot == "tie":
        won = winner == "tie"
    elif spot == "player_pair":
        won = pair_p
    elif spot == "banker_pair":
        won = pair_b
    elif spot == "any_pair":
        won = pair_p or pair_b
    elif spot == "big":
        won = cards >= 5
    elif spot == "small":
        won = cards == 4
    elif spot == "lucky_nines":
        tier = lucky_nines_tier(player, banker)
        return ("win", stake + stake * LUCKY_NINES[tier]) if tier else ("loss", 0)
    else:
        raise ValueError("unknown spot %r" % spot)
    if not won:
        return "loss", 0
    num, den = STANDARD[spot]
    return "win", stake + stake * num // den


class Shoe:
    """The dealer's physical shoe: `decks` decks shuffled by the run's seed."""

    def __init__(self, rng, decks=8):
        self.cards = [r + s for r in RANKS for s in SUITS] * decks
        rng.shuffle(self.cards)

    def draw(self):
        return self.cards.pop()

    def __len__(self):
        return len(self.cards)


# ----------------------------------------------------------------------------------------------
# One engine-link connection: requests written in bursts, a reader thread that keeps every line.

class Connection:
    def __init__(self, address, name, connect_for=10.0):
        deadline = time.time() + connect_for
        while True:
            family = socket.AF_INET if isinstance(address, tuple) else socket.AF_UNIX
            self.sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                self.sock.connect(address)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.name = name
        self.lock = threading.Condition()
        self.next_id = 1
        self.sent = []            # (id, op, fields) in the order written
        self.requests = {}        # id -> (op, fields)
        self.replies = {}         # id -> the first reply with that id
        self.reply_order = []     # ids in the order their replies arrived
        self.events = []          # every event, in arrival order
        self.problems = []        # lines that break the protocol
        self.closed = False
        self.reader = threading.Thread(target=self._read, name="read-" + name, daemon=True)
        self.reader.start()

    def _read(self):
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    self._take(line)
        except OSError:
            pass
        with self.lock:
            self.closed = True
            self.lock.notify_all()

    def _take(self, line):
        try:
            message = json.loads(line)
        except ValueError:
            with self.lock:
                self.problems.append("%s: a line that is not JSON: %r" % (self.name, line[:200]))
            return
        with self.lock:
            if not isinstance(message, dict):
                self.problems.append("%s: a line that is not an object: %r" % (self.name, line[:200]))
            elif "event" in message:
                self.events.append(message)
            elif "id" in message:
                rid = message["id"]
                if not isinstance(rid, int) or rid not in self.requests:
                    self.problems.append("%s: a reply to no request of ours: %r" % (self.name, message))
                elif rid in self.replies:
                    self.problems.append("%s: a second reply to #%d %s: %r" % (self.name, rid, self.requests[rid][0], message))
                else:
                    self.replies[rid] = message
                    self.reply_order.append(rid)
            else:
                self.problems.append("%s: a line that is neither a reply nor an event: %r" % (self.name, message))
            self.lock.notify_all()

    def send_burst(self, requests):
        """Writes [(op, fields)] in one write, without waiting; returns their ids."""
        ids, data = [], b""
        with self.lock:
            for op, fields in requests:
                rid = self.next_id
                self.next_id += 1
                self.sent.append((rid, op, fields))
                self.requests[rid] = (op, fields)
                ids.append(rid)
                data += (json.dumps(dict(fields, id=rid, op=op)) + "\n").encode()
        self.sock.sendall(data)
        return ids

    def request(self, op, timeout=10.0, **fields):
        rid = self.send_burst([(op, fields)])[0]
        return self.wait_replies([rid], timeout)[0]

    def wait_replies(self, ids, timeout=10.0):
        """The replies to `ids` (None for one that did not come within `timeout`)."""
        deadline = time.time() + timeout
        with self.lock:
            while not all(i in self.replies for i in ids) and not self.closed:
                left = deadline - time.time()
                if left <= 0:
                    break
                self.lock.wait(left)
            return [self.replies.get(i) for i in ids]

    def outstanding(self):
        with self.lock:
            return len(self.requests) - len(self.replies)

    def wait_all(self, timeout=10.0):
        with self.lock:
            ids = list(self.requests)
        return self.wait_replies(ids, timeout)

    def wait_event(self, predicate, timeout=10.0):
        deadline = time.time() + timeout
        with self.lock:
            while True:
                for event in self.events:
                    if predicate(event):
                        return event
                left = deadline - time.time()
                if left <= 0 or self.closed:
                    return None
                self.lock.wait(left)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.reader.join(5)

    def order_findings(self):
        """Exactly one reply per request, in the order the requests were written."""
        found = list(self.problems)
        with self.lock:
            expected = [rid for rid, _, _ in self.sent]
            got = list(self.reply_order)
            missing = [rid for rid in expected if rid not in self.replies]
        for rid in missing:
            found.append("%s: no reply to #%d %s" % (self.name, rid, self.requests[rid][0]))
        answered = [rid for rid in expected if rid in self.replies]
        if got != answered:
            for position, (want, came) in enumerate(zip(answered, got)):
                if want != came:
                    ahead = self.replies[came]
                    found.append("%s: replies out of order: reply %d is to #%d %s (%s) while #%d %s is still unanswered"
                                 % (self.name, position + 1, came, self.requests[came][0], brief(ahead), want,
                                    self.requests[want][0]))
                    break
            overtaken = sum(1 for a, b in zip(got, got[1:]) if b < a)
            found.append("%s: replies out of order %d times" % (self.name, overtaken))
        return found


def brief(reply):
    if reply is None:
        return "no reply"
    return "ok" if reply.get("ok") else "refused %s" % reply.get("error")


# ----------------------------------------------------------------------------------------------
# The dealer: rounds with predictions.

FAULTS = [("clean", 40), ("extra_card", 10), ("void_race", 10), ("extra_then_void", 6), ("void_mid", 8),
          ("void_betting", 5), ("unreadable", 12), ("unreadable_exhaust", 5), ("close_race", 4)]


class RoundPlan:
    def __init__(self, round_id, fault):
        self.round_id = round_id
        self.fault = fault
        self.coup = []            # the legal coup drawn for it
        self.expected_end = None  # "settled" or "voided"
        self.rescanned = None     # (position, re-scans) of the card read after re-scans


class Dealer:
    def __init__(self, address, rng, log, decks=8, rescan_attempts=3):
        self.conn = Connection(address, "dealer")
        self.rng = rng
        self.log = log
        self.decks = decks
        self.rescan_attempts = rescan_attempts
        self.shoe = None
        self.plans = []
        self.findings = []

    def check(self, rid, op, reply, expect_ok, note):
        if reply is None:
            return  # counted by the order check
        if bool(reply.get("ok")) != expect_ok:
            self.findings.append("dealer: #%d %s (%s) should be %s, got %s: %s" % (
                rid, op, note, "accepted" if expect_ok else "refused", brief(reply), reply.get("message", reply.get("data"))))

    def play(self, rounds):
        for _ in range(rounds):
            self.play_round()

    def play_round(self):
        c, rng = self.conn, self.rng
        if self.shoe is None or len(self.shoe) < 30:
            self.shoe = Shoe(rng, self.decks)
            reply = c.request("new_shoe")
            if not (reply and reply.get("ok")):
                self.findings.append("dealer: new_shoe between rounds: %s" % brief(reply))
        reply = c.request("open_round")
        if not (reply and reply.get("ok")):
            self.findings.append("dealer: open_round between rounds: %s %s" % (brief(reply), (reply or {}).get("message")))
            return
        fault = rng.choices([f for f, _ in FAULTS], [w for _, w in FAULTS])[0]
        plan = RoundPlan(reply["data"]["round"], fault)
        self.plans.append(plan)
        time.sleep(rng.uniform(0.01, 0.05))  # the stations' bets

        plan.coup = deal_coup(self.shoe.draw)
        steps = []  # (op, fields, expect_ok, note)
        live = True
        if fault == "void_betting":
            steps.append(("void_round", {"reason": "race: void while bets are open"}, True, "void while betting"))
            live = False
        steps.append(("close_bets", {}, live, "close"))
        void_at = rng.randrange(len(plan.coup)) if fault == "void_mid" else None
        unreadable_at = rng.randrange(len(plan.coup)) if fault.startswith("unreadable") else None
        for i, card in enumerate(plan.coup):
            if i == void_at:
                steps.append(("void_round", {"reason": "race: void in the deal"}, live, "void before card %d" % (i + 1)))
                live = False
            if i == unreadable_at:
                scans = rng.randint(1, self.rescan_attempts) if fault == "unreadable" else self.rescan_attempts + 1
                for n in range(1, scans + 1):
                    rescan = n <= self.rescan_attempts
                    steps.append(("card_unreadable", {}, live and rescan, "unreadable %d before card %d" % (n, i + 1)))
                    if not rescan:
                        live = False
                if live:
                    plan.rescanned = (i + 1, scans)
            steps.append(("card", {"card": card}, live, "card %d %s" % (i + 1, card)))
        if live:
            plan.expected_end = "settled"
        else:
            plan.expected_end = "voided"
            plan.rescanned = None
        if fault in ("extra_card", "extra_then_void"):
            steps.append(("card", {"card": self.shoe.draw()}, False, "a card after the complete coup"))
        if fault in ("void_race", "extra_then_void"):
            steps.append(("void_round", {"reason": "race: void after the last card"}, False, "void after the last card"))
        if fault == "close_race":
            steps.append(("close_bets", {}, False, "close_bets again after the coup"))

        # Written in one to three bursts, a few milliseconds apart.
        cuts = sorted(rng.sample(range(1, len(steps)), min(len(steps) - 1, rng.randint(0, 2))))
        ids = []
        for start, end in zip([0] + cuts, cuts + [len(steps)]):
            ids += c.send_burst([(op, fields) for op, fields, _, _ in steps[start:end]])
            time.sleep(rng.uniform(0, 0.004))
        replies = c.wait_replies(ids, 15)
        for rid, (op, fields, expect_ok, note), reply in zip(ids, steps, replies):
            self.check(rid, op, reply, expect_ok, note)
            if op == "card" and expect_ok and reply and reply.get("ok"):
                position = int(note.split()[1])
                if reply["data"].get("position") != position:
                    self.findings.append("dealer: #%d card %s answered position %r, it is card %d of round %d"
                                         % (rid, fields["card"], reply["data"].get("position"), position, plan.round_id))
        ended = c.wait_event(lambda e: e.get("event") == "result" and e.get("round") == plan.round_id, 10)
        if ended is None:
            self.findings.append("dealer: round %d (%s) has no result event 10 s after its last request"
                                 % (plan.round_id, fault))
            c.request("void_round", reason="race: the round never ended")
        self.log("round %d %s: %s" % (plan.round_id, fault, "voided" if ended and ended.get("voided") else
                                      "settled %s" % " ".join(plan.coup) if ended else "no result"))


# ----------------------------------------------------------------------------------------------
# Stations: bursts of pipelined requests that race the dealer.

class Station:
    def __init__(self, address, number, rng, tag):
        self.number = number
        self.conn = Connection(address, "station %d" % number)
        self.rng = rng
        self.tag = tag
        self.tickets = 0
        self.last_spot = None  # the spot of its last bet: a stake is built in steps on it

    def ticket(self):
        self.tickets += 1
        return {"station": self.number, "validation": "%03d%02d%07d" % (self.tag % 1000, self.number, self.tickets),
                "amount": self.rng.choice([5000, 10000, 20000, 30000])}

    def last_credits(self):
        with self.conn.lock:
            for rid in reversed(self.conn.reply_order):
                data = self.conn.replies[rid].get("data") or {}
                if "credits" in data:
                    return data["credits"]
                if "ticket" in data or "handpay" in data:
                    return 0
        return 0

    def next_burst(self):
        rng, n = self.rng, self.number
        burst = []
        if self.conn.outstanding() == 0 and self.last_credits() < 3000:
            burst.append(("ticket_in", self.ticket()))
        for _ in range(rng.randint(1, 5)):
            op = rng.choices(["bet", "again", "clear", "undo", "repeat", "double", "raise", "tip", "cash_out",
                              "ticket_in"], [45, 20, 3, 8, 8, 6, 10, 4, 1, 2])[0]
            if op == "again" and self.last_spot:
                # Again on the spot of its last bet: one spot, its stake built in steps (taken
                # below the spot's minimum when that bet was not placed or went with its round).
                burst.append(("bet", {"station": n, "spot": self.last_spot, "stake": rng.choice(ADDITIONS)}))
            elif op in ("bet", "again"):
                self.last_spot = rng.choices(SPOTS, SPOT_WEIGHTS)[0]
                burst.append(("bet", {"station": n, "spot": self.last_spot, "stake": rng.choice(STAKES)}))
            elif op == "raise":
                burst.append(("raise", {"station": n, "chip": rng.choice(CHIPS)}))
            elif op == "tip":
                burst.append(("tip", {"station": n, "amount": rng.choice([100, 200])}))
            elif op == "ticket_in":
                burst.append(("ticket_in", self.ticket()))
            else:
                burst.append((op, {"station": n}))
        return burst

    def play(self, stop):
        while not stop.is_set():
            if self.conn.outstanding() < 16:
                self.conn.send_burst(self.next_burst())
            time.sleep(self.rng.uniform(0.002, 0.02))


class Attendant:
    """Watches `status` on its own connection and pays pending hand-pays with pitlinkctl."""

    def __init__(self, address, control, ctl):
        self.conn = Connection(address, "attendant")
        self.control, self.ctl = control, ctl
        self.resets = []  # (station, pitlinkctl exit code, stderr)

    def sweep(self):
        reply = self.conn.request("status")
        for st in ((reply or {}).get("data") or {}).get("stations", []):
            if st.get("handpay") and self.ctl and self.control:
                done = subprocess.run([self.ctl, "handpay", "reset", str(st["station"]), "--socket", self.control],
                                      capture_output=True, text=True, timeout=10)
                self.resets.append((st["station"], done.returncode, done.stderr.strip()))

    def play(self, stop):
        while not stop.is_set():
            self.sweep()
            time.sleep(0.05)


class Race:
    def __init__(self, address, seed, rounds, clients, decks=8, rescan_attempts=3, control=None, ctl=None,
                 log=lambda line: None):
        self.address, self.seed, self.rounds, self.clients = address, seed, rounds, clients
        self.decks, self.rescan_attempts = decks, rescan_attempts
        self.control, self.ctl, self.log = control, ctl, log
        self.dealer = None
        self.stations = []
        self.attendant = None
        self.status_before = None
        self.status_after = None
        self.findings = []

    def connections(self):
        conns = [self.dealer.conn] + [s.conn for s in self.stations]
        return conns + ([self.attendant.conn] if self.attendant else [])

    def run(self):
        master = random.Random(self.seed)
        probe = Connection(self.address, "probe")
        self.status_before = probe.request("status")["data"]
        probe.close()
        if self.status_before.get("phase") != "idle" or self.status_before.get("source") not in (None, "reader"):
            raise RuntimeError("engine_race needs a reader table between rounds; status says %r"
                               % {k: self.status_before.get(k) for k in ("source", "phase", "round")})
        if len(self.status_before["stations"]) < self.clients:
            raise RuntimeError("the table has %d stations" % len(self.status_before["stations"]))
        self.dealer = Dealer(self.address, random.Random(master.random()), self.log, self.decks, self.rescan_attempts)
        self.stations = [Station(self.address, n, random.Random(master.random()), self.seed)
                         for n in range(1, self.clients + 1)]
        self.attendant = Attendant(self.address, self.control, self.ctl)
        stop = threading.Event()
        threads = [threading.Thread(target=s.play, args=(stop,), daemon=True) for s in self.stations]
        threads.append(threading.Thread(target=self.attendant.play, args=(stop,), daemon=True))
        for t in threads:
            t.start()
        try:
            self.dealer.play(self.rounds)
        finally:
            stop.set()
            for t in threads:
                t.join(20)
        for conn in self.connections():
            conn.wait_all(15)
        # Rounds end after their last reply (the settlement commits then): give a late second
        # ending, if there is one, the time to show up before anything is read.
        time.sleep(0.3)
        probe = Connection(self.address, "final status")
        self.status_after = probe.request("status")["data"]
        probe.close()
        for conn in self.connections():
            conn.close()
        self.findings += self.dealer.findings
        for conn in self.connections():
            self.findings += conn.order_findings()
        return self


# ----------------------------------------------------------------------------------------------
# The checker: the replies and the journal, read with sqlite3.

class Journal:
    def __init__(self, path, after_seq=0):
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        try:
            self.records = [dict(seq=seq, kind=kind, round=rnd, station=st, body=json.loads(body))
                            for seq, kind, rnd, st, body in
                            db.execute("SELECT seq, kind, round_id, station, body FROM record ORDER BY seq")]
        finally:
            db.close()
        self.after = after_seq

    def of(self, *kinds, scope=True):
        return [r for r in self.records if r["kind"] in kinds and (not scope or r["seq"] > self.after)]


def last_seq(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return db.execute("SELECT coalesce(max(seq), 0) FROM record").fetchone()[0]
    finally:
        db.close()


def slip_total(reply):
    return sum((reply.get("data") or {}).get("slip", {}).values())


class Checker:
    LIMIT = 12  # findings shown per kind of finding

    def __init__(self, race, journal):
        self.race, self.j = race, journal
        self.found = defaultdict(list)

    def add(self, what, message):
        self.found[what].append(message)

    def findings(self):
        for message in self.race.findings:
            self.add("replies", message)
        self.rounds()
        self.bets_and_settlements()
        self.credit_chains()
        self.station_replies()
        self.refusals()
        self.money()
        out = []
        for what, messages in self.found.items():
            out += messages[:self.LIMIT]
            if len(messages) > self.LIMIT:
                out.append("... and %d more %s findings" % (len(messages) - self.LIMIT, what))
        return out

    # Rounds: one end each, as the dealer's requests say, cards legal and as dealt.
    def rounds(self):
        j = self.j
        self.opened = {r["round"]: r for r in j.of("round.opened")}
        # The rule each round is settled under, named when it opened: no `settle`, per bet (rounds
        # opened before settlement by spot); `settle: "spot"`, per spot. Anything else is malformed.
        self.rule = {}
        for rnd, opened in self.opened.items():
            mark = opened["body"].get("settle")
            if "settle" in opened["body"] and mark != "spot":
                self.add("rounds", "round %d: round.opened names settle %r (none, or \"spot\")" % (rnd, mark))
            self.rule[rnd] = "spot" if mark == "spot" else "bet"
        self.covers = {}  # seq of a bet.settled -> the bet indexes it covers
        self.ends = defaultdict(list)
        for r in j.of("round.settled", "round.voided"):
            self.ends[r["round"]].append(r)
        self.cards = defaultdict(list)
        for r in j.of("card.dealt"):
            self.cards[r["round"]].append(r)
        self.closed = {r["round"]: r["seq"] for r in j.of("round.closed")}
        for rnd in sorted(set(self.ends) | set(self.cards)):
            if rnd not in self.opened:
                self.add("rounds", "round %s ends or has cards in the journal but was never opened" % rnd)
        for rnd, opened in sorted(self.opened.items()):
            ends = self.ends.get(rnd, [])
            kinds = [e["kind"] for e in ends]
            if len(ends) != 1:
                self.add("rounds", "round %d ends %d times in the journal: %s" % (
                    rnd, len(ends), ", ".join("%s (seq %d%s)" % (e["kind"], e["seq"], ", %s" % e["body"].get("reason")
                                                                   if e["kind"] == "round.voided" else "")
                                              for e in ends) or "never"))
            if "round.settled" in kinds and "round.voided" in kinds:
                self.add("rounds", "round %d was settled and then voided" % rnd)
            end_seq = ends[0]["seq"] if ends else None
            dealt = sorted(self.cards.get(rnd, []), key=lambda r: r["seq"])
            positions = [r["body"]["position"] for r in dealt]
            if positions != list(range(1, len(dealt) + 1)):
                self.add("rounds", "round %d: card positions %s" % (rnd, positions))
            for r in dealt:
                if rnd in self.closed and r["seq"] < self.closed[rnd]:
                    self.add("rounds", "round %d: card %s journaled before the round closed" % (rnd, r["body"]["card"]))
                if end_seq is not None and r["seq"] > end_seq:
                    self.add("rounds", "round %d: card %s journaled after the round ended" % (rnd, r["body"]["card"]))
            if kinds and kinds[0] == "round.settled":
                cards = [r["body"]["card"] for r in dealt]
                hands = split_coup(cards)
                body = ends[0]["body"]
                if hands is None:
                    self.add("rounds", "round %d settled on cards %s, which are not one complete coup" % (rnd, cards))
                elif [body.get("player"), body.get("banker")] != list(hands):
                    self.add("rounds", "round %d: settled hands %s / %s, the cards %s make %s / %s" % (
                        rnd, body.get("player"), body.get("banker"), cards, hands[0], hands[1]))
        self.plan_checks()

    def plan_checks(self):
        events = defaultdict(list)
        for e in self.race.dealer.conn.events:
            if e.get("event") == "result":
                events[e.get("round")].append(e)
        for plan in self.race.dealer.plans:
            rnd = plan.round_id
            kinds = [e["kind"] for e in self.ends.get(rnd, [])]
            want = "round." + plan.expected_end
            if kinds[:1] != [want]:
                self.add("rounds", "round %d (%s): should end %s, the journal has %s" % (
                    rnd, plan.fault, want, kinds or "no end"))
            if plan.expected_end == "settled":
                cards = [r["body"]["card"] for r in sorted(self.cards.get(rnd, []), key=lambda r: r["seq"])]
                if cards != plan.coup:
                    self.add("rounds", "round %d (%s): dealt %s, the journal has %s" % (rnd, plan.fault, plan.coup, cards))
            if plan.rescanned:
                position, scans = plan.rescanned
                for r in self.cards.get(rnd, []):
                    if r["body"]["position"] == position and r["body"].get("rescans") != scans:
                        self.add("rounds", "round %d: card %d was read after %d re-scans, card.dealt says rescans %r"
                                 % (rnd, position, scans, r["body"].get("rescans")))
            shown = events.get(rnd, [])
            if len(shown) != 1:
                self.add("events", "round %d (%s): %d result events: %s" % (
                    rnd, plan.fault, len(shown), ", ".join("voided (%s)" % e.get("reason") if e.get("voided")
                                                          else "settled, %s wins" % e.get("winner") for e in shown)))

    def covered(self, r):
        """The indexes of the bets a bet.settled covers, read by its round's rule: `bet` in a round
        settled per bet, `bets` (ascending, no `bet`) in a round settled per spot. A record of the
        wrong shape is reported once, and read for what it names."""
        if r["seq"] in self.covers:
            return self.covers[r["seq"]]
        body, rnd = r["body"], r["round"]
        bet, bets = body.get("bet"), body.get("bets")
        if self.rule.get(rnd, "bet") == "spot":
            well = ("bet" not in body and isinstance(bets, list) and bets and all(isinstance(i, int) for i in bets)
                    and bets == sorted(set(bets)))
            named = [i for i in bets if isinstance(i, int)] if isinstance(bets, list) else []
            if not named and isinstance(bet, int):
                named = [bet]
        else:
            well = "bets" not in body and isinstance(bet, int)
            named = [bet] if isinstance(bet, int) else []
            if not named and isinstance(bets, list):
                named = [i for i in bets if isinstance(i, int)]
        if not well:
            self.add("settlements", "round %s: bet.settled seq %d has bet %r and bets %r; a round settled per %s "
                     "names %s" % (rnd, r["seq"], bet, bets, self.rule.get(rnd, "bet"),
                                   "the ascending indexes of the spot's bets in bets, and no bet"
                                   if self.rule.get(rnd, "bet") == "spot" else "its one bet in bet"))
        self.covers[r["seq"]] = named
        return named

    def settled_hands(self, rnd):
        """(player, banker) of a round settled on a complete coup, else None."""
        ends = self.ends.get(rnd, [])
        if not ends or ends[0]["kind"] != "round.settled":
            return None
        return split_coup([c["body"]["card"] for c in sorted(self.cards.get(rnd, []), key=lambda c: c["seq"])])

    # Bets: each accepted bet ends once; every settlement recomputed from the cards.
    def bets_and_settlements(self):
        j = self.j
        # Bets are taken and withdrawn only until the round closes (or ends, voided while open).
        no_more_bets = {rnd: min([self.closed.get(rnd, float("inf"))] + [e["seq"] for e in ends])
                        for rnd, ends in self.ends.items()}
        no_more_bets.update(self.closed)
        self.bets = {}  # (round, bet) -> accepted record
        for r in j.of("bet.accepted"):
            key = (r["round"], r["body"]["bet"])
            if key in self.bets:
                self.add("bets", "round %d: bet %d accepted twice" % key)
            self.bets[key] = r
            if r["seq"] > no_more_bets.get(r["round"], float("inf")):
                self.add("bets", "round %d: bet %d of station %s accepted after the round closed"
                         % (r["round"], r["body"]["bet"], r["station"]))
        endings = defaultdict(list)
        for r in j.of("bet.withdrawn"):
            key = (r["round"], r["body"]["bet"])
            endings[key].append(("withdrawn", r))
            if r["seq"] > no_more_bets.get(r["round"], float("inf")):
                self.add("bets", "round %d: bet %d withdrawn after the round closed" % key)
        self.settled_bets = []  # (station, stake, my returned): per bet, or per spot in spot rounds
        for r in j.of("bet.settled"):
            for index in self.covered(r):
                endings[(r["round"], index)].append(("settled", r))
        for key in endings:
            if key not in self.bets:
                self.add("bets", "round %d: bet %d is %s but was never accepted" % (key + (endings[key][0][0],)))
        void_seq = {rnd: ends[0]["seq"] for rnd, ends in self.ends.items() if ends[0]["kind"] == "round.voided"}
        standing = defaultdict(int)  # (round, station) -> stakes not withdrawn
        spots = defaultdict(list)  # spot rounds: (round, station, spot) -> indexes of its bets not withdrawn
        self.unfinished = defaultdict(int)  # station -> stakes standing in rounds that never ended
        for key, accepted in sorted(self.bets.items()):
            rnd, station, stake = key[0], accepted["station"], accepted["body"]["stake"]
            ways = [kind for kind, _ in endings.get(key, [])]
            ended = self.ends.get(rnd)
            withdrawn = [r for kind, r in endings.get(key, []) if kind == "withdrawn"]
            if rnd in void_seq and not [w for w in withdrawn if w["seq"] < void_seq[rnd]]:
                ways.append("returned by the void")
            if len(ways) != 1:
                self.add("bets", "round %d: bet %d (station %d, %s %d) %s" % (
                    rnd, key[1], station, accepted["body"]["spot"], stake,
                    "ends %d times: %s" % (len(ways), ", ".join(ways)) if ways else
                    "is never settled or returned" + ("" if ended else " (its round never ended)")))
            if not ways and not ended:
                self.unfinished[station] += stake
            if not withdrawn:
                standing[(rnd, station)] += stake
                if self.rule.get(rnd) == "spot":
                    spots[(rnd, station, accepted["body"]["spot"])].append(key[1])
        # Settlements: every bet.settled recomputed from the round's cards, with the paytable
        # applied per bet in rounds opened without a rule, and to each spot's total stake in
        # rounds opened with settle "spot" (a spot is one bet however its stake was built).
        wagered, returned, won_on_top = defaultdict(int), defaultdict(int), defaultdict(int)
        self.journal_returned = defaultdict(int)  # (round, station) -> sum of its bet.settled returned
        per_spot = defaultdict(list)  # spot rounds: (round, station, spot) -> its bet.settled records
        for r in j.of("bet.settled"):
            self.journal_returned[(r["round"], r["station"])] += r["body"].get("returned", 0)
            if self.rule.get(r["round"]) == "spot":
                per_spot[(r["round"], r["station"], r["body"].get("spot"))].append(r)
                continue
            if not self.covered(r):
                continue  # a malformed record, reported
            key = (r["round"], self.covered(r)[0])
            accepted = self.bets.get(key)
            body = r["body"]
            if accepted is None:
                continue
            if (body.get("spot"), body.get("stake"), r["station"]) != (accepted["body"]["spot"], accepted["body"]["stake"],
                                                                      accepted["station"]):
                self.add("settlements", "round %d: bet %d settled as %s %s at station %s, accepted as %s %s at station %s"
                         % (key + (body.get("spot"), body.get("stake"), r["station"], accepted["body"]["spot"],
                                   accepted["body"]["stake"], accepted["station"])))
            hands = self.settled_hands(r["round"])
            if hands is None:
                self.add("settlements", "round %d: bet %d settled in a round that was not settled on a complete coup" % key)
                continue
            spot, stake = accepted["body"]["spot"], accepted["body"]["stake"]
            result, back = settle(spot, stake, *hands)
            if (body.get("result"), body.get("returned")) != (result, back):
                self.add("settlements", "round %d: bet %d (%s %d on %s / %s): journal says %s returned %s, the paytable "
                         "says %s returned %d" % (key + (spot, stake, " ".join(hands[0]), " ".join(hands[1]),
                                                          body.get("result"), body.get("returned"), result, back)))
            if body.get("win") != back - stake and result == "win" or result != "win" and body.get("win") != 0:
                self.add("settlements", "round %d: bet %d: win %r with returned %r" % (key + (body.get("win"), body.get("returned"))))
            self.settled_bets.append((accepted["station"], stake, back))
            wagered[(r["round"], accepted["station"])] += stake
            returned[(r["round"], accepted["station"])] += back
            won_on_top[(r["round"], accepted["station"])] += max(0, back - stake)
        for unit in sorted(set(per_spot) | {u for u in spots if self.settled_hands(u[0]) is not None}, key=str):
            rnd, station, spot = unit
            records, indexes = per_spot.get(unit, []), spots.get(unit, [])
            what = "round %d: station %s's %s spot" % (rnd, station, spot)
            hands = self.settled_hands(rnd)
            if hands is None:
                self.add("settlements", "%s settled in a round that was not settled on a complete coup" % what)
                continue
            if not records:
                continue  # its bets are reported as never settled
            for r in records:
                covered = self.covered(r)
                accepted = [self.bets.get((rnd, i)) for i in covered]
                if None in accepted:
                    continue  # reported as never accepted
                stakes = sum(a["body"]["stake"] for a in accepted)
                if any((a["station"], a["body"]["spot"]) != (station, spot) for a in accepted):
                    self.add("settlements", "%s: bet.settled seq %d covers bets %s, accepted as %s" % (
                        what, r["seq"], covered, ", ".join("%s at station %s" % (a["body"]["spot"], a["station"])
                                                           for a in accepted)))
                if r["body"].get("stake") != stakes:
                    self.add("settlements", "%s: bet.settled seq %d has stake %r, the bets it covers (%s) add up to %d"
                             % (what, r["seq"], r["body"].get("stake"), covered, stakes))
                if covered != indexes:
                    self.add("settlements", "%s: bet.settled seq %d covers bets %s, the bets standing on the spot are %s"
                             % (what, r["seq"], covered, indexes))
            if not indexes:
                self.add("settlements", "%s is settled but has no bet standing on it" % what)
                continue
            stake = sum(self.bets[(rnd, i)]["body"]["stake"] for i in indexes)
            result, back = settle(spot, stake, *hands)
            told = "%s (bets %s, %d in all, on %s / %s)" % (what, indexes, stake, " ".join(hands[0]), " ".join(hands[1]))
            if len(records) != 1:
                paid = sum(r["body"].get("returned", 0) for r in records)
                self.add("settlements", "%s is settled by %d bet.settled records returning %d in all; one settlement "
                         "of the spot's total expected, returning %d" % (told, len(records), paid, back))
            else:
                body = records[0]["body"]
                if (body.get("result"), body.get("returned")) != (result, back):
                    self.add("settlements", "%s: journal says %s returned %s, the paytable on the spot's total says %s "
                             "returned %d" % (told, body.get("result"), body.get("returned"), result, back))
                if body.get("win") != (back - stake if result == "win" else 0):
                    self.add("settlements", "%s: win %r with returned %r" % (told, body.get("win"), body.get("returned")))
            self.settled_bets.append((station, stake, back))
            wagered[(rnd, station)] += stake
            returned[(rnd, station)] += back
            won_on_top[(rnd, station)] += max(0, back - stake)
        # In a spot round, one bet.settled per spot, in the order each spot was first bet.
        firsts = defaultdict(list)
        for r in j.of("bet.settled"):
            if self.rule.get(r["round"]) == "spot" and self.covered(r):
                firsts[r["round"]].append(self.covered(r)[0])
        for rnd, order in sorted(firsts.items()):
            if order != sorted(order):
                self.add("settlements", "round %d: spots settled in the order of their first bets %s, not in the "
                         "order they were first bet" % (rnd, order))
        # The credits of each ended round: one settlement credit per station with bets, or one
        # return of the stakes standing when it was voided; nothing else after its end.
        jackpots = {(r["round"], r["station"]): r["body"].get("amount") for r in j.of("handpay.pending")
                    if r["body"].get("kind") == "jackpot"}
        late = defaultdict(list)
        for r in j.of("credit"):
            rnd = r["round"]
            if rnd in self.ends and r["seq"] > self.ends[rnd][0]["seq"]:
                late[(rnd, r["station"])].append(r)
        for rnd, ends in sorted(self.ends.items()):
            first = ends[0]
            stations = {s for (x, s) in standing if x == rnd and standing[(x, s)] > 0} | {s for (x, s) in late if x == rnd}
            for station in sorted(stations):
                credits = [(c["body"].get("reason"), c["body"].get("amount")) for c in late.get((rnd, station), [])]
                if first["kind"] == "round.settled":
                    want = [("settlement", returned[(rnd, station)])] if standing[(rnd, station)] else []
                    # A win at the jackpot limit leaves the credit meter in the same transaction:
                    # it is hand-paid (protocols/sas/README.md "Meters").
                    won = won_on_top[(rnd, station)]  # the winning bets' wins on top of their stakes
                    if want and (rnd, station) in jackpots:
                        want.append(("jackpot", -won))
                        if jackpots[(rnd, station)] != won:
                            self.add("settlements", "round %d station %d: a jackpot hand-pay of %d for a win of %d"
                                     % (rnd, station, jackpots[(rnd, station)], won))
                    settle_credits = [c for c in late.get((rnd, station), []) if c["body"].get("reason") == "settlement"]
                    if settle_credits and settle_credits[0]["body"].get("wagered") != standing[(rnd, station)]:
                        self.add("settlements", "round %d station %d: settlement credit says wagered %r, its bets "
                                 "standing are %d" % (rnd, station, settle_credits[0]["body"].get("wagered"),
                                                      standing[(rnd, station)]))
                    # The credit is what the round's bet.settled records of the station return, in
                    # either rule (and what the paytable says, above).
                    paid = self.journal_returned[(rnd, station)]
                    if settle_credits and settle_credits[0]["body"].get("amount") != paid:
                        self.add("settlements", "round %d station %d: settlement credit of %r, its bet.settled records "
                                 "return %d" % (rnd, station, settle_credits[0]["body"].get("amount"), paid))
                else:
                    want = [("bet_return", standing[(rnd, station)])] if standing[(rnd, station)] else []
                if credits != want:
                    self.add("settlements", "round %d (%s) station %d: credits after its end %s, should be %s" % (
                        rnd, first["kind"], station, credits, want))

    # Each station's credit records chain and never go below zero.
    def credit_chains(self):
        self.balance = {}
        for r in self.j.of("credit", scope=False):
            st, body = r["station"], r["body"]
            before = self.balance.get(st, 0)
            if body.get("balance") != before + body.get("amount", 0):
                self.add("credits", "station %s: credit seq %d (%s %s) has balance %s after %d" % (
                    st, r["seq"], body.get("reason"), body.get("amount"), body.get("balance"), before))
            if body.get("balance", 0) < 0:
                self.add("credits", "station %s: balance %s below zero at seq %d" % (st, body.get("balance"), r["seq"]))
            self.balance[st] = body.get("balance", 0)

    # What each station was told matches the journal, and its replies follow each other.
    def station_replies(self):
        j = self.j
        per_station = defaultdict(lambda: defaultdict(list))
        for kind in ("ticket.redeemed", "ticket.issued", "tip", "handpay.pending"):
            for r in j.of(kind):
                per_station[r["station"]][kind].append(r["body"])
        placed, withdrawn = Counter(), Counter()
        for r in j.of("bet.accepted"):
            placed[(r["station"], r["round"])] += r["body"]["stake"]
        for r in j.of("bet.withdrawn"):
            bet = self.bets.get((r["round"], r["body"]["bet"]))
            if bet:
                withdrawn[(bet["station"], r["round"])] += bet["body"]["stake"]
        balances = defaultdict(set)
        for r in j.of("credit"):
            balances[r["station"]].add(r["body"].get("balance"))
        for station in self.race.stations:
            n, conn = station.number, station.conn
            told = defaultdict(list)
            told_placed, told_withdrawn = Counter(), Counter()
            slips = {}
            for rid, op, fields in conn.sent:
                reply = conn.replies.get(rid)
                if not reply or not reply.get("ok"):
                    continue
                data = reply.get("data") or {}
                if "credits" in data and data["credits"] not in balances[n]:
                    self.add("station replies", "station %d: #%d %s answered credits %s, never a balance in the journal"
                             % (n, rid, op, data["credits"]))
                if op == "ticket_in":
                    told["ticket.redeemed"].append({"validation": fields["validation"], "amount": fields["amount"]})
                elif op == "tip":
                    told["tip"].append({"amount": fields["amount"]})
                elif op == "cash_out" and "ticket" in data:
                    told["ticket.issued"].append({"validation": data["ticket"].get("validation"),
                                                  "amount": data["ticket"].get("amount")})
                elif op == "cash_out":
                    told["handpay.pending"].append({"amount": data.get("handpay")})
                elif op in BET_OPS:
                    rnd = data.get("round")
                    before, after = slips.get(rnd, 0), slip_total(reply)
                    raised = after - before
                    fits = {"bet": after == before + fields.get("stake", 0), "double": after == 2 * before,
                            "clear": after == 0, "undo": 0 <= after < before, "repeat": after > before,
                            "raise": raised > 0 and raised % fields.get("chip", 1) == 0}[op]
                    if not fits:
                        self.add("station replies", "station %d: #%d %s in round %s answered a slip of %d after %d"
                                 % (n, rid, op, rnd, after, before))
                    if after > before:
                        told_placed[(n, rnd)] += after - before
                    else:
                        told_withdrawn[(n, rnd)] += before - after
                    slips[rnd] = after
            for kind in ("ticket.redeemed", "tip", "ticket.issued", "handpay.pending"):
                fields = {"ticket.redeemed": ("validation", "amount"), "tip": ("amount",),
                          "ticket.issued": ("validation", "amount"), "handpay.pending": ("amount",)}[kind]
                journaled = [{k: b.get(k) for k in fields} for b in per_station[n][kind]
                             if kind != "handpay.pending" or b.get("kind") == "cancelled_credit"]
                if journaled != told[kind]:
                    self.add("station replies", "station %d: accepted replies say %s %s, the journal has %s"
                             % (n, kind, told[kind][:6], journaled[:6]))
            for key in sorted(set(told_placed) | {k for k in placed if k[0] == n}, key=str):
                if told_placed[key] != placed[key]:
                    self.add("station replies", "station %d round %s: accepted replies placed %d, bet.accepted %d"
                             % (n, key[1], told_placed[key], placed[key]))
            for key in sorted(set(told_withdrawn) | {k for k in withdrawn if k[0] == n}, key=str):
                if told_withdrawn[key] != withdrawn[key]:
                    self.add("station replies", "station %d round %s: accepted replies withdrew %d, bet.withdrawn %d"
                             % (n, key[1], told_withdrawn[key], withdrawn[key]))

    # Every refusal is journaled as refused (protocols/engine/README.md): bet.refused with its rule
    # for a bet, card.refused for a misdeal, request.refused with op and error for anything else;
    # and each request.refused names the station of a station op and the round in progress.
    def refusals(self):
        j = self.j
        placing = "bet, repeat, double or raise"
        told = Counter()
        for conn in self.race.connections():
            for rid, op, fields in conn.sent:
                reply = conn.replies.get(rid)
                if reply is not None and not reply.get("ok"):
                    told[(fields.get("station"), placing if op in PLACING else op,
                          reply.get("error"))] += 1
        ours = set(STATION_OPS) | set(DEALER_OPS) | {"status"}
        records = [r for r in j.of("request.refused") if r["body"].get("op") in ours]
        journaled = Counter((r["station"], placing if r["body"]["op"] in PLACING else r["body"]["op"],
                             r["body"].get("error")) for r in records)
        for r in j.of("bet.refused"):
            journaled[(r["station"], placing, r["body"].get("rule", r["body"].get("reason")))] += 1
        journaled[(None, "card", "card_refused")] += len(j.of("card.refused"))
        for key in sorted(set(told) | set(journaled), key=str):
            if told[key] != journaled[key]:
                station, op, error = key
                self.add("refusals", "%s%s refused %s: %d replies, %d journaled as refused" % (
                    "" if station is None else "station %d: " % station, op, error, told[key], journaled[key]))
        station_numbers = {st["station"] for st in self.race.status_before["stations"]}
        spans = [(self.opened[rnd]["seq"], ends[0]["seq"] if ends else float("inf"), rnd)
                 for rnd, ends in ((rnd, self.ends.get(rnd)) for rnd in self.opened)]
        for r in records:
            body = r["body"]
            if not all(isinstance(body.get(k), str) for k in ("op", "error", "message")):
                self.add("refusals", "request.refused seq %d lacks op, error or message: %s" % (r["seq"], body))
            if body.get("op") in STATION_OPS and r["station"] not in station_numbers:
                self.add("refusals", "request.refused seq %d of station op %s has station %r" % (r["seq"], body.get("op"), r["station"]))
            if body.get("op") in DEALER_OPS and r["station"] is not None:
                self.add("refusals", "request.refused seq %d of %s has a station" % (r["seq"], body.get("op")))
            live = [rnd for start, end, rnd in spans if start < r["seq"] < end]
            if r["round"] is not None and r["round"] not in live:
                self.add("refusals", "request.refused seq %d (%s %s) names round %s, not in progress then" % (
                    r["seq"], body.get("op"), body.get("error"), r["round"]))
            if r["round"] is None and live:
                self.add("refusals", "request.refused seq %d (%s %s) has no round while round %s was in progress" % (
                    r["seq"], body.get("op"), body.get("error"), live[0]))

    # Money: per station, final credits from the journal's facts and the paytable computed here.
    def money(self):
        j = self.j
        start = {}
        for r in j.of("credit", scope=False):
            if r["seq"] <= j.after:
                start[r["station"]] = r["body"].get("balance", 0)
        final = {st["station"]: st["credits"] for st in self.race.status_after["stations"]}
        sums = defaultdict(lambda: defaultdict(int))
        for kind in ("ticket.redeemed", "ticket.issued", "tip", "handpay.reset"):
            for r in j.of(kind):
                if kind == "handpay.reset" and r["body"].get("kind") == "jackpot":
                    continue  # its credits left at the lock, below
                sums[r["station"]][kind] += r["body"].get("amount", 0)
        for r in j.of("handpay.pending"):
            if r["body"].get("kind") == "jackpot":
                sums[r["station"]]["handpay.reset"] += r["body"].get("amount", 0)
        games = defaultdict(int)
        for station, stake, back in self.settled_bets:
            games[station] += back - stake
        for st in self.race.stations:
            n = st.number
            s = sums[n]
            expected = (start.get(n, 0) + s["ticket.redeemed"] - s["ticket.issued"] - s["tip"] - s["handpay.reset"]
                        + games[n] - self.unfinished[n])
            if final.get(n) != expected or self.balance.get(n, 0) != expected:
                self.add("money", "station %d: status says %s credits, the journal's last balance %s; expected %d = "
                         "%d at start + %d tickets in - %d tickets out - %d tips - %d hand-pays %+d on settled bets "
                         "(paytable computed here)%s" % (
                             n, final.get(n), self.balance.get(n, 0), expected, start.get(n, 0), s["ticket.redeemed"],
                             s["ticket.issued"], s["tip"], s["handpay.reset"], games[n],
                             " - %d standing in unfinished rounds" % self.unfinished[n] if self.unfinished[n] else ""))


def summary(race, journal):
    counts = Counter(r["kind"] for r in journal.of("round.settled", "round.voided", "bet.accepted", "bet.settled",
                                                   "bet.withdrawn", "request.refused", "handpay.reset", "ticket.issued"))
    requests = sum(len(c.sent) for c in race.connections())
    faults = Counter(p.fault for p in race.dealer.plans)
    return ("%d requests on %d connections; rounds %d settled, %d voided; bets %d accepted, %d settled, %d withdrawn; "
            "%d tickets out, %d hand-pays reset, %d request.refused; faults %s" % (
                requests, len(race.connections()), counts["round.settled"], counts["round.voided"],
                counts["bet.accepted"], counts["bet.settled"], counts["bet.withdrawn"], counts["ticket.issued"],
                counts["handpay.reset"], counts["request.refused"], dict(faults)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socket", required=True, help="pitlinkd's engine socket (or HOST:PORT for TCP)")
    parser.add_argument("--journal", help="the daemon's journal (read only); without it only the replies are checked")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=4, help="station connections (stations 1..N)")
    parser.add_argument("--decks", type=int, default=8, help="table.decks of the daemon")
    parser.add_argument("--rescan-attempts", type=int, default=3, help="table.rescan_attempts of the daemon")
    parser.add_argument("--control", help="control socket, to reset hand-pays with pitlinkctl")
    parser.add_argument("--ctl", help="pitlinkctl")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    address = args.socket
    if ":" in address and not address.startswith("/"):
        host, port = address.rsplit(":", 1)
        address = (host, int(port))
    after = last_seq(args.journal) if args.journal else 0
    race = Race(address, args.seed, args.rounds, args.clients, args.decks, args.rescan_attempts, args.control,
                args.ctl, log=print if args.verbose else lambda line: None).run()
    if args.journal:
        journal = Journal(args.journal, after)
        findings = Checker(race, journal).findings()
        print(summary(race, journal))
    else:
        findings = list(race.findings)
    for line in findings:
        print("FINDING: " + line)
    print("%d findings" % len(findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
