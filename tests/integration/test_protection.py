#!/usr/bin/env python3
"""Game protection through the real pitlinkd (issue 38; docs/protection.md).

A physical 8-deck shoe is dealt through the engine link with the ruyi paytable: the burn turns an
ace (a five burned face down), then rounds of Player 9 9 against Banker 8 8 take the eights and
nines out, which turns Gold 7 in the player's favour.

- `close`: the edge of every round reaches the control socket (events, `protection`,
  `pitlinkctl protection --follow`) and never either engine connection; Gold 7 closes when its
  edge is above 0, bets on it are refused side_bet_closed (journaled) while Jade 8 and Banker are
  taken; sevens dealt bring it back below 0 and it reopens; the stations are told `side_bets`
  without figures; `pitlinkctl protection --shoe 1 --svg` draws it.
- `alert`: a station that stakes Gold 7 only on the rounds where it favours the player (more the
  more it does) is reported (protection.alert, an attendant call), a station staking at random is
  not.

Every expected edge is computed here from the cards this test dealt (side_bet_odds.py, written
from docs/rules.md), not taken from pitlinkd.

Usage: test_protection.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import unittest

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from control_client import control  # noqa: E402
from engine_client import EngineClient  # noqa: E402
from side_bet_odds import edges_ppm  # noqa: E402
from test_table import PAYTABLE, Daemon, ok  # noqa: E402

CTL = os.path.join(BUILD, "daemon", "ctl", "pitlinkctl")
RUYI = os.path.join(SOURCE, "etc", "paytables", "ruyi.yaml")
DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]
SUITS = "SHDC"


def nines_and_eights(i):
    """Player 9 9 (a natural 8) against Banker 8 8 (6): four cards, in deal order P1 B1 P2 B2."""
    s, t = SUITS[i % 4], SUITS[(i + 1) % 4]
    return ["9" + s, "8" + s, "9" + t, "8" + t]


def sevens(i):
    """Player 7 7 (4) draws a king, Banker 7 7 (4) stands on the king: a tie, four sevens out."""
    return ["7S", "7H", "7D", "7C", "K" + SUITS[i % 4]]


def config(action):
    return ("protection:\n  enabled: true\n  side_bets:\n"
            "    gold_7: {action: %s, above_ppm: 0}\n    jade_8: {action: alert}\n"
            "  counter: {alert_z: 3, min_rounds: 10, min_staked_rounds: 3, call_attendant: true}\n" % action)


class Protection(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.daemon = Daemon(self.tmp.name, decks=8)
        self.left = DECK * 8

    def tearDown(self):
        if self.daemon.proc and self.daemon.proc.poll() is None:
            self.daemon.kill()
        self.tmp.cleanup()

    def start(self, action):
        self.daemon.rewrite_config([(PAYTABLE, RUYI)], append=config(action))
        self.c = self.daemon.start()
        self.front = EngineClient(self.daemon.socket)  # a second front end: it must learn no edge either
        for station in (1, 2):
            ok(self, self.c.request("ticket_in", station=station, validation="90%d" % station, amount=500_000))
        ok(self, self.c.request("new_shoe"))
        ok(self, self.c.request("burn", cards=["AS", "5C"]))  # an ace turned: one more burned face down
        self.left.remove("AS")  # the five stays in what a player could know

    def edge_of_round(self, round_in_shoe):
        """The control socket's edge of this round of the shoe from the cards this test knows are
        left, once the worker has it (one from before the burn may come first: not that one)."""
        deadline = time.time() + 10
        while time.time() < deadline:
            edges = [e for e in control(self.daemon.control, cmd="protection")["edges"]
                     if e["round_in_shoe"] == round_in_shoe and e["cards_known"] == len(self.left)]
            if edges:
                return edges[-1]
            time.sleep(0.02)
        self.fail("no edge for round %d with %d cards known" % (round_in_shoe, len(self.left)))

    def deal(self, cards):
        ok(self, self.c.request("close_bets"))
        for card in cards:
            ok(self, self.c.request("card", card=card))
            self.left.remove(card)
        return self.c.wait_event(lambda e: e["event"] == "result")

    def engine_events(self):
        """Every event either engine connection has received so far (after a last round trip)."""
        ok(self, self.front.request("status"))
        return self.c.events + self.front.events

    def test_close_gold_seven_when_it_favours_the_player_and_reopen_it_when_it_no_longer_does(self):
        self.start("close")
        follow = subprocess.Popen([CTL, "protection", "--follow", "--json", "--every-ms", "50", "--socket",
                                   self.daemon.control], stdout=subprocess.PIPE, text=True)
        try:
            closed_refused = 0
            plan = [nines_and_eights(i) for i in range(4)] + [sevens(4)] + [nines_and_eights(i) for i in (4, 5)]
            states = []
            for number, cards in enumerate(plan, start=1):
                ok(self, self.c.request("open_round"))
                edge = self.edge_of_round(number)
                expected = edges_ppm(self.left)
                self.assertEqual((edge["edges"]["gold_7"], edge["edges"]["jade_8"], edge["cards_known"]),
                                 (expected["gold_7"], expected["jade_8"], len(self.left)), number)
                gold = self.c.request("bet", station=1, spot="gold_7", stake=100)
                if expected["gold_7"] > 0:
                    self.assertEqual(edge["closed"], ["gold_7"])
                    self.assertEqual(gold.get("error"), "side_bet_closed", gold)
                    closed_refused += 1
                    states.append("closed")
                else:
                    self.assertEqual(edge["closed"], [])
                    ok(self, gold)
                    states.append("open")
                ok(self, self.c.request("bet", station=1, spot="jade_8", stake=100))  # alert only: open
                ok(self, self.c.request("bet", station=2, spot="banker", stake=1_000))
                status = ok(self, self.c.request("status"))
                self.assertEqual(status["side_bets"], {"closed": ["gold_7"] if states[-1] == "closed" else [],
                                                        "waiting": []})
                self.deal(cards)
            # Four rounds of nines and eights take Gold 7 above 0 (round 5); four sevens dealt take it
            # back below 0 for round 6; the next nines and eights close it again.
            self.assertEqual(states, ["open"] * 4 + ["closed", "open", "closed"])

            # The stations learn the closures, without a figure; no engine connection ever sees an edge.
            seen = self.engine_events()
            for events in (self.c.events, self.front.events):
                told = [e["closed"] for e in events if e["event"] == "side_bets"]
                self.assertEqual(told, [["gold_7"], [], ["gold_7"]])
            self.assertFalse([e for e in seen if e["event"] in ("shoe_edge", "protection_alert")])
            self.assertFalse([e for e in seen if "edges" in e])
            events = subprocess.run([CTL, "events", "--json", "--socket", self.daemon.control], capture_output=True,
                                    text=True, check=True).stdout
            self.assertIn('"shoe_edge"', events)

            # pitlinkctl protection --follow printed each round's edge as it came.
            lines = []
            deadline = time.time() + 10
            while time.time() < deadline and not any(json.loads(l).get("round_in_shoe") == len(plan) + 1
                                                     for l in lines):
                lines.append(follow.stdout.readline())
            followed = {json.loads(l)["round_in_shoe"] for l in lines}
            self.assertTrue(set(range(1, len(plan) + 2)) <= followed, followed)

            # Journaled: one shoe.edge per round (and the shoe's first before its burn, or not,
            # as the worker raced it), each refusal with its rule.
            rows = self.daemon.rows("SELECT json_extract(body, '$.round_in_shoe'), json_extract(body, '$.closed') "
                                    "FROM record WHERE kind = 'shoe.edge' ORDER BY seq")
            self.assertEqual(sorted({r for r, _ in rows}), list(range(1, len(plan) + 2)))
            refused = self.daemon.rows("SELECT station, json_extract(body, '$.rule') FROM record "
                                       "WHERE kind = 'bet.refused'")
            self.assertEqual(refused, [(1, "side_bet_closed")] * closed_refused)
            self.assertEqual(self.daemon.rows("SELECT count(*) FROM record WHERE kind = 'bet.accepted' AND "
                                              "json_extract(body, '$.spot') = 'gold_7'"), [(len(plan) - closed_refused,)])
        finally:
            follow.kill()
            follow.wait()

        # The picture of the shoe, from the journal, with station 1's side-bet stakes.
        svg = os.path.join(self.tmp.name, "shoe.svg")
        subprocess.run([CTL, "protection", "--shoe", "1", "--svg", svg, "--station", "1", "--socket",
                        self.daemon.control], check=True, capture_output=True)
        with open(svg) as f:
            picture = f.read()
        self.assertIn("<polyline", picture)
        self.assertEqual(picture.count("<circle"), 2 * len(plan) - closed_refused)  # its gold_7 and jade_8 stakes
        self.assertIn("gold_7", picture)
        text = subprocess.run([CTL, "protection", "--socket", self.daemon.control], capture_output=True, text=True,
                              check=True).stdout
        self.assertIn("CLOSED", text)

    def test_a_station_staking_gold_seven_on_the_rounds_it_favours_is_reported_a_random_one_is_not(self):
        self.start("alert")
        chooser = random.Random(38)
        counter_stakes, random_stakes = [], []
        for number in range(1, 17):
            ok(self, self.c.request("open_round"))
            edge = self.edge_of_round(number)  # in before the bets close: the round counts
            expected = edges_ppm(self.left)["gold_7"]
            self.assertEqual(edge["edges"]["gold_7"], expected)
            self.assertEqual(edge["closed"], [])  # alert: never closed
            counter = 100 * (1 + expected // 20_000) if expected > 0 else 0
            at_random = 100 * chooser.randint(1, 5) if chooser.random() < 0.5 else 0
            for station, stake in ((1, counter), (2, at_random)):
                if stake:
                    ok(self, self.c.request("bet", station=station, spot="gold_7", stake=stake))
            counter_stakes.append(counter)
            random_stakes.append(at_random)
            self.deal(nines_and_eights(number - 1))
        alerts = self.daemon.rows("SELECT station, json_extract(body, '$.bet'), json_extract(body, '$.z_hundredths'), "
                                  "json_extract(body, '$.rounds'), json_extract(body, '$.staked') FROM record "
                                  "WHERE kind = 'protection.alert'")
        self.assertEqual(len(alerts), 1, alerts)
        station, bet, z, rounds, staked = alerts[0]
        self.assertEqual((station, bet), (1, "gold_7"))
        self.assertGreaterEqual(z, 300)
        self.assertEqual(staked, sum(counter_stakes[:rounds]))
        self.assertEqual(self.daemon.rows("SELECT station, json_extract(body, '$.by') FROM record "
                                          "WHERE kind = 'attendant.called'"), [(1, "protection")])
        # The floor sees the report; the engine link sees only the attendant call.
        now = control(self.daemon.control, cmd="protection")
        self.assertEqual([(a["station"], a["bet"]) for a in now["alerts"]], [(1, "gold_7")])
        scores = {s["station"]: s for s in now["scores"] if s["bet"] == "gold_7"}
        self.assertLess(scores[2]["z_hundredths"], 300)
        self.assertEqual(scores[2]["staked"], sum(random_stakes))
        self.assertEqual(scores[1]["staked"], sum(counter_stakes))
        seen = self.engine_events()
        self.assertEqual([e["station"] for e in seen if e["event"] == "attendant"], [1, 1])
        self.assertFalse([e for e in seen if e["event"] in ("shoe_edge", "protection_alert")])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
