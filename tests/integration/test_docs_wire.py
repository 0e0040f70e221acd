#!/usr/bin/env python3
"""The engine link's README against the wire (issue 30): the fields protocols/engine/README.md
documents for the replies of `status`, `limits` (and `denomination`, `limit_level`, which answer
as it), `roads` and `bet_list`, and for every event, compared with what a real pitlinkd sends.

The README's tables are read here with a small parser of their own notation (written down in
the README above the requests' table): a field is in backticks; `{...}` after a field lists
that object's fields, `[{...}]` those of each element of that array; `a`/`b` share what follows;
`{spot: ...}` is an object keyed by something else than field names; parentheses hold comments
or values, never fields; `; or` separates the shapes of one message. Three daemons are then
driven through rounds with bets (a reader table in the multiplayer confirmation mode on a copy
of the schema-2 fixture journal, so that its bet list has rounds settled per bet too; an RNG
table in the single-player DEAL mode; a table with a SAS link for the `station` event), and
every reply and event they send is checked:

- each message fits one documented shape: every field it sends is documented there;
- every documented field of every shape is sent by at least one message of that shape, and
  the same, recursively, for the documented fields of its objects and arrays;
- every documented event is seen, and no undocumented one.

So renaming a field on either side fails it. The two rules the README states for refusals and
for `confirm` are checked in the journal too.

Usage: test_docs_wire.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import grp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_table import BANKER_WINS, CTL, PLAYER_WINS, SOURCE, Daemon, ok  # noqa: E402

README = os.path.join(SOURCE, "protocols", "engine", "README.md")
FIXTURE = os.path.join(SOURCE, "tests", "fixtures", "journal", "v2.db")

# The ops whose reply `data` this test checks (the rest of the requests' table is prose).
CHECKED_OPS = ("status", "limits", "denomination", "limit_level", "roads", "bet_list", "join", "leave", "hello")

# ---------------------------------------------------------------------------------------------
# The README's tables


def split_row(line):
    """The cells of a Markdown table row; a `|` inside backticks does not split."""
    cells, cell, code = [], "", False
    for ch in line.strip().strip("|"):
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += ch
    cells.append(cell.strip())
    return cells


def markdown_tables(path):
    """{section heading: [rows]} for every table under a `## ` heading; a row is its list of cells
    (the header row and the |---| line left out)."""
    tables, section, in_table = {}, None, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                section, in_table = line[3:].strip(), False
                continue
            if line.startswith("|"):
                if not in_table:
                    in_table = True  # the header row
                    continue
                if re.match(r"^\|[\s|:-]+\|\s*$", line):
                    continue
                tables.setdefault(section, []).append(split_row(line))
            else:
                in_table = False
    return tables


class Obj:
    """A documented object: its shapes (usually one), each {field: Obj, Map or None (a value)}."""

    def __init__(self, shapes):
        self.shapes = shapes

    def __repr__(self):
        return "Obj(%r)" % self.shapes


class Map:
    """An object keyed by spot, station, ...: each of its values is `value`."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "Map(%r)" % self.value


TOKEN = re.compile(r"`([^`]*)`|([{}\[\]()/;])|([^`{}\[\]()/;]+)")
FIELD = re.compile(r"^[a-z_][a-z0-9_]*$")


def tokenize(text):
    out = []
    for code, punct, other in TOKEN.findall(text):
        if punct:
            out.append(("punct", punct))
        elif other:
            out.append(("text", other))
        else:
            out.append(("code", code))
    return out


def skip_parens(tokens, pos):
    """`tokens[pos]` is "(": the position after its matching ")"."""
    depth = 0
    while pos < len(tokens):
        if tokens[pos] == ("punct", "("):
            depth += 1
        elif tokens[pos] == ("punct", ")"):
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    raise ValueError("unbalanced parentheses")


def parse_fields(tokens, pos=0, closer=None):
    """Reads fields up to `closer` (or the end). Returns (shapes, anonymous, position after): the
    shapes ({field: structure}), and the structure of a `{...}` that no field named (the
    values of a keyed object, or an array's element)."""
    shapes = [{}]
    group = []  # the fields the next {...} or [...] belongs to
    last = None  # "field", "slash" or None
    anonymous = None
    while pos < len(tokens):
        kind, value = tokens[pos]
        if kind == "punct" and value == closer:
            return shapes, anonymous, pos + 1
        if kind == "punct" and value == "(":
            pos = skip_parens(tokens, pos)  # a comment or values: transparent
            continue
        pos += 1
        if kind == "code":
            name = value.split(":")[0].strip()
            if not FIELD.match(name):
                last, group = None, []
                continue
            group = group + [name] if last == "slash" else [name]
            shapes[-1].setdefault(name, None)
            last = "field"
        elif kind == "punct" and value == "/":
            last = "slash" if last == "field" else None
        elif kind == "punct" and value in "{[":
            inner, inner_anonymous, pos = parse_fields(tokens, pos, "}" if value == "{" else "]")
            fields = {}
            for shape in inner:
                fields.update(shape)
            if value == "[":
                structure = inner_anonymous if inner_anonymous is not None else (Obj([fields]) if fields else None)
            elif fields:
                structure = Obj([fields])
            elif inner_anonymous is not None:
                structure = Map(inner_anonymous)
            else:
                structure = None  # {spot: prose}: keyed values, not described further
            if last == "field":
                for name in group:
                    shapes[-1][name] = structure
            else:
                anonymous = structure
            last, group = None, []
        elif kind == "punct" and value == ";":
            following = tokens[pos][1] if pos < len(tokens) else ""
            if closer is None and following.lstrip().startswith("or "):
                shapes.append({})
            last, group = None, []
        elif kind == "text":
            if value.strip(" :"):  # words (a comma too) end what a structure could belong to
                last, group = None, []
        elif kind == "punct":
            raise ValueError("unbalanced %r" % value)
    if closer is not None:
        raise ValueError("no closing %r" % closer)
    return shapes, anonymous, pos


def parse_message(text):
    shapes, _, _ = parse_fields(tokenize(text))
    return Obj(shapes)


def documented():
    """(replies {op: Obj}, events {event: Obj}) as protocols/engine/README.md has them."""
    tables = markdown_tables(README)
    events = {}
    for row in tables["Events"]:
        names = re.findall(r"`([a-z_]+)`", row[0])
        for name in names:
            events[name] = parse_message(row[1])
    cells = {}
    for row in tables["Requests"]:
        for op in re.findall(r"`([a-z_]+)`", row[0]):
            cells[op] = row[-1]

    def reply(op):
        cell = cells[op]
        if m := re.match(r"^see the `([a-z_]+)` event", cell):
            return events[m.group(1)]  # its fields, without `event`
        if m := re.match(r"^as `([a-z_]+)`$", cell):
            return reply(m.group(1))
        return parse_message(cell)

    return {op: reply(op) for op in CHECKED_OPS}, events


# ---------------------------------------------------------------------------------------------
# Comparing


def check_object(doc, samples, where, errors):
    """Every sample fits one of `doc`'s shapes; every field of every shape was sent by one of
    the samples that fit it; the same for their fields' objects."""
    fitting = [[] for _ in doc.shapes]
    every = set().union(*doc.shapes) if doc.shapes else set()
    for sample in samples:
        if not isinstance(sample, dict):
            errors.append("%s: sent %r where an object is documented" % (where, sample))
            continue
        keys = set(sample)
        fits = [i for i, shape in enumerate(doc.shapes) if keys <= set(shape)]
        if not fits:
            extra = sorted(keys - every)
            errors.append("%s: sent %s, which the README does not document%s" % (
                where, extra if extra else sorted(keys),
                "" if extra else " in any one shape (%s)" % " | ".join(str(sorted(s)) for s in doc.shapes)))
            continue
        for i in fits:
            fitting[i].append(sample)
    for i, shape in enumerate(doc.shapes):
        label = where if len(doc.shapes) == 1 else "%s (shape %d)" % (where, i + 1)
        if not fitting[i]:
            errors.append("%s: no message of this shape was seen: %s" % (label, sorted(shape)))
            continue
        sent = set().union(*(set(s) for s in fitting[i]))
        for name in sorted(set(shape) - sent):
            errors.append("%s: documents `%s`, which pitlinkd never sent (it sent %s)" % (label, name, sorted(sent)))
        for name, structure in shape.items():
            if structure is not None:
                check_structure(structure, [s[name] for s in fitting[i] if name in s], "%s.%s" % (label, name),
                                errors)


def check_structure(structure, values, where, errors):
    items = []
    for value in values:
        items.extend(value if isinstance(value, list) else [value])
    items = [v for v in items if v is not None]
    if isinstance(structure, Map):
        maps = [v for v in items if isinstance(v, dict)]
        if structure.value is not None:
            check_structure(structure.value, [v for m in maps for v in m.values()], where + "{...}", errors)
        return
    if not items:
        errors.append("%s: documented as an object, but never sent as one (only null or empty)" % where)
        return
    check_object(structure, items, where, errors)


def report(errors):
    """The errors, each once, with how many times it came up."""
    counts = {}
    for error in errors:
        counts[error] = counts.get(error, 0) + 1
    return "\n" + "\n".join(e if n == 1 else "%s (x%d)" % (e, n) for e, n in counts.items())


def without_event(message):
    return {k: v for k, v in message.items() if k != "event"}


# ---------------------------------------------------------------------------------------------
# The daemons


class Recorder:
    """Keeps every event an EngineClient reads, whoever reads it."""

    def __init__(self):
        self.events = []

    def attach(self, client):
        read = client.read_message

        def reading():
            message = read()
            if "event" in message:
                self.events.append(message)
            return message

        client.read_message = reading
        return client


def ctl(daemon, *args):
    done = subprocess.run([CTL, *args, "--socket", daemon.control], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise AssertionError("pitlinkctl %s: %s%s" % (" ".join(args), done.stdout, done.stderr))
    return done.stdout


def operator_group():
    """The control socket's operator group: this user's own group, so that the test acts as an
    operator without root."""
    return "control:\n  operator_group: %s\n" % grp.getgrgid(os.getegid()).gr_name


def add_operator_group(daemon):
    daemon.rewrite_config([("control:\n", operator_group())])


def wait_phase(testcase, client, phase):
    deadline = time.time() + 10
    while True:
        status = ok(testcase, client.request("status"))
        if status["phase"] == phase:
            return status
        if time.time() > deadline:
            raise AssertionError("the table never reached %s: %s" % (phase, status["phase"]))
        time.sleep(0.02)


def deal(testcase, client, cards):
    """Closes the bets and deals `cards` from the reader; the round's result event."""
    round_id = ok(testcase, client.request("close_bets"))["round"]
    for card in cards.split():
        ok(testcase, client.request("card", card=card))
    return client.wait_event(lambda e: e["event"] == "result" and e["round"] == round_id)


class DocsMatchTheWire(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.replies, cls.events = documented()
        cls.sent = {op: [] for op in CHECKED_OPS}
        cls.recorder = Recorder()
        cls.dir = tempfile.TemporaryDirectory()
        try:
            cls.journals = {}
            cls.reader_table(os.path.join(cls.dir.name, "reader"))
            cls.rng_table(os.path.join(cls.dir.name, "rng"))
            cls.sas_table(os.path.join(cls.dir.name, "sas"))
            cls.games_table(os.path.join(cls.dir.name, "games"))
        except BaseException:
            cls.dir.cleanup()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    @classmethod
    def ask(cls, client, op, **fields):
        reply = client.request(op, **fields)
        data = ok(unittest.TestCase(), reply)
        if op in cls.sent:
            cls.sent[op].append(data)
        return data

    @classmethod
    def reader_table(cls, d):
        """A reader table in the multiplayer mode, on the schema-2 fixture journal (a round settled
        per bet by station 1): rounds with bets, a raise, an unconfirmed change, a refused
        auto-repeat, a dispute re-settled, a void, a door, an attendant call, a reservation, a
        hand-pay and a ticket, and the shoe's last round."""
        t = unittest.TestCase()
        os.makedirs(d)
        shutil.copyfile(FIXTURE, os.path.join(d, "journal.db"))
        daemon = Daemon(d, decks=1, extra="  segment_max_age_hours: 0\n  segment_max_mb: 0\n"
                                          "cashier:\n  ticket_limit: 30000\n")
        daemon.rewrite_config([("bets_open_ms: 60000", "bets_open_ms: 100"),
                               ("last_bets_ms: 1000", "last_bets_ms: 60000\n  confirm_bets: true")])
        add_operator_group(daemon)
        c = cls.recorder.attach(daemon.start())
        try:
            cls.reader_rounds(t, daemon, c)
        finally:
            c.close()
            daemon.terminate()
        cls.journals["reader"] = daemon

    @classmethod
    def reader_rounds(cls, t, daemon, c):
        ask = lambda op, **fields: cls.ask(c, op, **fields)  # noqa: E731
        ctl(daemon, "station", "limits", "1", "--min", "100", "--max", "100000")
        for station, amount in ((1, 10000), (2, 40000), (3, 1500), (4, 5000)):
            ask("ticket_in", station=station, validation="90%d" % station, amount=amount)
        ask("limit_level", station=1, level=1)  # both answer as `limits`; station 1 has its own limits
        ask("denomination", station=1, value=ask("status")["denominations"][0])
        ask("new_shoe")
        ask("cut", cards_behind=36)  # one deck: 50 left after the burn; the fourth round dealt is the last
        ask("burn", cards=["AD", "QH"])

        # Round 2 (round 1 is the fixture's): banker 1,010 raised by 10; station 4 confirms, then
        # changes its bets and does not confirm again.
        round2 = ask("open_round")["round"]
        c.wait_event(lambda e: e["event"] == "round" and e["phase"] == "last_bets")
        ask("bet", station=1, spot="banker", stake=1010)
        t.assertEqual(ask("raise", station=1, chip=10)["slip"], {"banker": 1020})
        ask("confirm", station=1)
        ask("bet", station=3, spot="player", stake=1000)
        ask("confirm", station=3)
        ask("bet", station=4, spot="player", stake=500)
        ask("confirm", station=4)
        ask("bet", station=4, spot="tie", stake=100)
        shown = ask("limits", station=1)
        t.assertEqual(shown["winnings"], {"banker": 969})  # the README's example: 1,020 at 19/20
        ask("limits", station=4)
        ask("status")
        deal(t, c, BANKER_WINS)
        # The confirm rule as documented: every bet of station 4 came back, the confirmed one too.
        told = c.wait_event(lambda e: e["event"] == "unconfirmed")
        t.assertEqual((told["station"], told["returned"]), (4, 600))

        # Round 3: station 3 lost its 1,000 and has 500: its auto-repeat is refused by a bet rule.
        t.assertEqual(ask("auto_repeat", station=3, on=True), {"auto_repeat": True})
        ask("open_round")
        stopped = c.wait_event(lambda e: e["event"] == "auto_repeat" and not e["on"])
        t.assertEqual((stopped["station"], stopped["reason"]), (3, "insufficient_credits"))
        ask("bet", station=1, spot="banker", stake=1000)
        ask("confirm", station=1)
        round3 = deal(t, c, PLAYER_WINS)["round"]
        ask("dispute", station=1, round=round3, text="the banker's 9 was read as a 2")
        ask("status")  # with the open dispute
        ctl(daemon, "dispute", "resolve", "1", "--upheld", "--cards", "3H 9D 5C QS", "--reason", "video review")
        c.wait_event(lambda e: e["event"] == "credits" and e.get("resettled_round") == round3)

        # Round 4, voided; then a door, an attendant call, a reservation and a hand-pay between rounds.
        ask("open_round")
        ask("bet", station=1, spot="banker", stake=200)
        ask("void_round", reason="misdeal")
        ask("door", door="front", open=True)
        c.wait_event(lambda e: e["event"] == "tilt" and e["tilted"])
        ask("door", door="front", open=False)
        c.wait_event(lambda e: e["event"] == "tilt" and not e["tilted"])
        ask("call_attendant", station=4)
        ctl(daemon, "attendant", "clear", "4")
        ask("reserve", station=4, on=True, pin="2468")
        ask("cash_out", station=2)  # 40,000: above the ticket limit, a hand-pay
        ask("status")  # reserved, locked for a hand-pay
        ask("reserve", station=4, on=False, pin="2468")
        ctl(daemon, "handpay", "reset", "2")

        # Rounds 5 and 6: a tie, then the shoe's last round (the cut card comes out).
        ask("open_round")
        ask("bet", station=1, spot="banker", stake=500)
        ask("confirm", station=1)
        deal(t, c, "8S 8D KS QD")
        ask("open_round")
        last = deal(t, c, "7S 6H TS TD")
        t.assertTrue(last["cut_card_out"], last)
        ask("cash_out", station=4)
        ask("roads")
        # Seed 000's multi-game station on a one-game controller: station 3 leaves its game (X)
        # and joins it again; a connection says what it serves.
        t.assertEqual(ask("leave", station=3), {"games": []})
        t.assertEqual(ask("join", station=3), {"games": ["table-1"]})
        t.assertEqual(ask("join", station=3), {"already": True})
        t.assertEqual(ask("leave", station=3), {"games": []})
        t.assertEqual(ask("leave", station=3), {"already": True})
        t.assertEqual(ask("join", station=3), {"games": ["table-1"]})
        c.wait_event(lambda e: e["event"] == "games" and e["action"] == "join")
        t.assertEqual(ask("hello", games=["table-1"], role="dealer"), {"games": ["table-1"]})
        ask("limits", station=1)
        for station in (1, 3, 4):
            ask("bet_list", station=station, rounds=10)
        c.wait_event(lambda e: e["event"] == "handpay" and e.get("reset"))
        cls.round2 = round2

    @classmethod
    def games_table(cls, d):
        """A controller of two games: a station's games in status (issue 34)."""
        t = unittest.TestCase()
        os.makedirs(d)
        daemon = Daemon(d, extra="games:\n  - name: live-1\n  - name: live-2\n")
        c = daemon.start()
        try:
            t.assertEqual(cls.ask(c, "hello", games=["live-1", "live-2"], role="stations"),
                          {"games": ["live-1", "live-2"]})
            t.assertEqual(cls.ask(c, "join", station=1, game="live-2"), {"games": ["live-1", "live-2"]})
            stations = cls.ask(c, "status", game="live-2")["stations"]
            t.assertEqual((stations[0]["games"], stations[1]["games"]), (["live-1", "live-2"], ["live-1"]))
        finally:
            c.close()
            daemon.terminate()

    @classmethod
    def rng_table(cls, d):
        """An RNG table in the single-player DEAL mode: Keep Bets On placed at once, then refused by
        the station's state (reserved); rounds until every derived road has marks."""
        t = unittest.TestCase()
        os.makedirs(d)
        daemon = Daemon(d)
        daemon.rewrite_config([("source: reader", "source: rng"), ("rounds:\n", "rounds:\n  start: deal\n")])
        add_operator_group(daemon)
        c = cls.recorder.attach(daemon.start())
        ask = lambda op, **fields: cls.ask(c, op, **fields)  # noqa: E731
        try:
            for station in (1, 2):
                ask("ticket_in", station=station, validation="80%d" % station, amount=100000)
            wait_phase(t, c, "bets_open")
            ask("bet", station=1, spot="banker", stake=500)
            ask("deal", station=1)
            c.wait_event(lambda e: e["event"] == "result")
            wait_phase(t, c, "bets_open")
            # Keep Bets On turned on while betting is open, no bets yet: placed at once.
            t.assertEqual(ask("keep_bets", station=1, on=True), {"keep_bets": True})
            station1 = ask("status")["stations"][0]
            t.assertEqual([(b["spot"], b["stake"]) for b in station1["bets"]], [("banker", 500)])
            ask("reserve", station=1, on=True)
            ask("bet", station=2, spot="player", stake=100)
            ask("deal", station=2)
            stopped = c.wait_event(lambda e: e["event"] == "keep_bets" and not e["on"])
            t.assertEqual((stopped["station"], stopped["reason"]), (1, "station_reserved"))
            for _ in range(300):
                roads = ask("roads")
                if all(roads[name] for name in ("big_eye", "small", "cockroach")):
                    break
                wait_phase(t, c, "bets_open")
                ask("bet", station=2, spot="player", stake=100)
                ask("deal", station=2)
                c.wait_event(lambda e: e["event"] == "result")
            ask("limits", station=2)
            ask("bet_list", station=2, rounds=3)
        finally:
            c.close()
            daemon.terminate()
        cls.journals["rng"] = daemon

    @classmethod
    def sas_table(cls, d):
        """A station on a SAS link: the accounting host shuts it down (LP 01) and starts it (LP 02),
        moves promotional credits to it (SAS AFT: the `credits` event's parts and `transfer`) and
        locks it (`aft_lock`, and `status` while locked)."""
        from test_sas import SasTable  # noqa: E402 (pty pairs and the host simulator)
        import sas_host as sh  # noqa: E402
        os.makedirs(d)
        table = SasTable(d, stations=(1,))
        table.daemon.rewrite_config([("sas:\n", "sas:\n  aft:\n    enabled: true\n")])
        try:
            c = cls.recorder.attach(table.start())
            host = table.hosts[1]
            host.disable_play()
            c.wait_event(lambda e: e["event"] == "station" and not e["host_enabled"])
            host.enable_play()
            c.wait_event(lambda e: e["event"] == "station" and e["host_enabled"])
            answer = sh.aft_request(host, 0x00, "D1", sh.AFT_TO_STATION, asset=1, cashable=1000, restricted=500,
                                    nonrestricted=250, pool=1)
            sh.aft_settle(host, "D1", answer)
            c.wait_event(lambda e: e["event"] == "credits" and "transfer" in e)
            host.sync()
            host.lp_74(0x00, 0x01, 3000)  # idle: locked at once
            c.wait_event(lambda e: e["event"] == "aft_lock" and e["locked"])
            cls.ask(c, "status")
            host.sync()
            host.lp_74(0x80)
            c.wait_event(lambda e: e["event"] == "aft_lock" and not e["locked"])
        finally:
            table.close()

    # -----------------------------------------------------------------------------------------

    def test_the_readme_has_what_this_test_reads(self):
        self.assertGreaterEqual(len(self.events), 16, sorted(self.events))
        for op in CHECKED_OPS:
            self.assertIn(op, self.replies)
            self.assertTrue(self.replies[op].shapes and self.replies[op].shapes[0], op)
        # The derived roads by the names the wire uses, in the event and in the op's reply.
        roads = self.events["roads"].shapes[0]
        for name in ("big_eye", "small", "cockroach"):
            self.assertIsInstance(roads[name], Obj, name)
            self.assertEqual(set(roads[name].shapes[0]), {"colour", "x", "y"})
        self.assertEqual(set(roads["probe"].shapes[0]["banker"].shapes[0]), {"big_eye", "small", "cockroach"})
        self.assertIs(self.replies["roads"], self.events["roads"])

    def test_every_event_is_documented_with_the_fields_it_sends(self):
        errors = []
        seen = {}
        for message in self.recorder.events:
            seen.setdefault(message["event"], []).append(without_event(message))
        for name in sorted(set(seen) - set(self.events)):
            errors.append("event `%s` is sent but not documented: %s" % (name, seen[name][0]))
        for name in sorted(set(self.events) - set(seen)):
            errors.append("event `%s` is documented but was never sent" % name)
        for name in sorted(set(seen) & set(self.events)):
            check_object(self.events[name], seen[name], "event %s" % name, errors)
        self.assertFalse(errors, report(errors))

    def test_every_checked_reply_has_the_documented_fields(self):
        errors = []
        for op in CHECKED_OPS:
            if not self.sent[op]:
                errors.append("no `%s` reply was asked for" % op)
                continue
            check_object(self.replies[op], self.sent[op], "reply %s" % op, errors)
        self.assertFalse(errors, report(errors))

    def test_bet_list_lines_follow_the_round_s_settlement_rule(self):
        """As the README says: one line per spot in a round settled by spot (no `bet`), one per bet
        (with `bet`) in a round settled per bet; the raise example as one line."""
        rules = set()
        for data in self.sent["bet_list"]:
            for entry in data["rounds"]:
                rules.add(entry["settle"])
                for line in entry["bets"]:
                    self.assertEqual("bet" in line, entry["settle"] == "bet", (entry["round"], line))
                    self.assertEqual(line["bets"], [a["bet"] for a in line["additions"]], line)
                    self.assertEqual(line["stake"], sum(a["stake"] for a in line["additions"]), line)
                if entry["settle"] == "spot":
                    spots = [line["spot"] for line in entry["bets"]]
                    self.assertEqual(len(spots), len(set(spots)), entry)
        self.assertEqual(rules, {"spot", "bet"})
        station1 = next(d for d in self.sent["bet_list"] if d["station"] == 1)
        round2 = next(r for r in station1["rounds"] if r["round"] == self.round2)
        self.assertEqual([(a["stake"], a["action"]) for a in round2["bets"][0]["additions"]],
                         [(1010, "bet"), (10, "raise")])
        self.assertEqual(round2["bets"][0]["win"], 969)

    def test_refusals_are_journaled_by_the_documented_rule(self):
        """A repeat auto-repeat places and a bet rule refuses: bet.refused with action and rule; one
        the station's state refuses: request.refused with op and slip."""
        reader = self.journals["reader"]
        self.assertEqual(
            reader.rows("SELECT json_extract(body, '$.action'), json_extract(body, '$.rule') FROM record "
                        "WHERE kind = 'bet.refused' AND station = 3"), [("auto_repeat", "insufficient_credits")])
        rng = self.journals["rng"]
        refused = rng.rows("SELECT json_extract(body, '$.op'), json_extract(body, '$.error'), "
                           "json_extract(body, '$.slip') FROM record WHERE kind = 'request.refused' AND station = 1")
        self.assertEqual([(op, error, json.loads(slip)) for op, error, slip in refused],
                         [("keep_bets", "station_reserved", {"banker": 500})])
        self.assertEqual(rng.rows("SELECT count(*) FROM record WHERE kind = 'bet.refused'"), [(0,)])
        # Station 4's change after its confirm: all its bets of the round back, as `not_confirmed`.
        self.assertEqual(
            reader.rows("SELECT count(*) FROM record WHERE kind = 'bet.withdrawn' AND station = 4 "
                        "AND json_extract(body, '$.action') = 'not_confirmed'"), [(2,)])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
