#!/usr/bin/env python3
"""Several games on one controller, one credit meter per station (issue 34), through the real
pitlinkd on a temporary directory.

Two live games deal at once; a station plays both from one credit meter; its cash-out, while a
stake is in play in one game, pays exactly the credits not staked, and that stake's win arrives on
the meter afterwards. Connections say which games they serve and in which role (hello); a dealer
op for another game is refused and journaled; a client that never says hello is served the first
game only. Every sum is worked here from the cards dealt and the paytable's ratios (Player 1:1,
Banker 19/20), never taken from pitlinkd.

Usage: test_multi_game.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EngineClient  # noqa: E402
from test_table import Daemon, ok, PLAYER_WINS, BANKER_WINS  # noqa: E402

CTL = os.path.join(BUILD, "daemon", "ctl", "pitlinkctl")
# live-1 settles with its own paytable (no commission; Player pays 1:1 as in the standard one);
# live-2 takes the table's (standard).
GAMES = ("games:\n"
         "  - name: live-1\n"
         "    paytable: %s\n"
         "  - name: live-2\n" % os.path.join(SOURCE, "etc", "paytables", "no_commission.yaml"))


def error(reply):
    return None if reply["ok"] else reply["error"]


class MultiGame(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.daemon = Daemon(self.tmp.name, extra=GAMES)

    def tearDown(self):
        if self.daemon.proc and self.daemon.proc.poll() is None:
            self.daemon.kill()
        self.tmp.cleanup()

    def test_two_live_games_share_each_stations_credit_meter(self):
        legacy = self.daemon.start()  # never says hello: served live-1, as before games existed
        dealer1 = EngineClient(self.daemon.socket)
        dealer2 = EngineClient(self.daemon.socket)
        stations = EngineClient(self.daemon.socket)
        self.assertEqual(ok(self, dealer1.request("hello", games=["live-1"], role="dealer")), {"games": ["live-1"]})
        ok(self, dealer2.request("hello", games=["live-2"], role="dealer"))
        ok(self, stations.request("hello", games=["live-1", "live-2"], role="stations"))
        self.assertEqual(error(stations.request("hello", games=["live-9"], role="stations")), "unknown_game")

        ok(self, stations.request("ticket_in", station=1, validation="4242", amount=1000))
        self.assertEqual(ok(self, stations.request("join", station=1, game="live-2")), {"games": ["live-1", "live-2"]})
        # status shows each station's games (station 2 never joined one: the first).
        listed = ok(self, stations.request("status", game="live-2"))["stations"]
        self.assertEqual((listed[0]["games"], listed[1]["games"]), (["live-1", "live-2"], ["live-1"]))
        for dealer in (dealer1, dealer2):
            ok(self, dealer.request("new_shoe"))
            opened = dealer.request("open_round")
            self.assertTrue(opened["ok"], opened)
        # Round and shoe numbers are the controller's.
        self.assertEqual(sorted(self.daemon.rows(
            "SELECT round_id, json_extract(body, '$.game'), json_extract(body, '$.shoe') FROM record "
            "WHERE kind = 'round.opened'")), [(1, "live-1", 1), (2, "live-2", 2)])

        # One bet in each game, pipelined in one write: the same millisecond, one credit meter.
        first = stations.next_id
        stations.next_id += 3
        stations.send_raw(("\n".join(json.dumps(r) for r in (
            {"id": first, "op": "bet", "station": 1, "spot": "player", "stake": 300, "game": "live-1"},
            {"id": first + 1, "op": "bet", "station": 1, "spot": "banker", "stake": 200, "game": "live-2"},
            {"id": first + 2, "op": "bet", "station": 1, "spot": "tie", "stake": 600, "game": "live-2"},
        )) + "\n").encode())
        replies = [stations.reply_to(first + i) for i in range(3)]
        self.assertEqual([r.get("game") for r in replies], ["live-1", "live-2", "live-2"])
        self.assertEqual(replies[0]["data"]["credits"], 700)
        self.assertEqual(replies[1]["data"]["credits"], 500)
        self.assertEqual(error(replies[2]), "insufficient_credits")  # 600 > the 500 left: never staked twice

        # A dealer op for live-2 on live-1's connection, and from the stations' connection.
        self.assertEqual(error(dealer1.request("close_bets", game="live-2")), "not_your_game")
        self.assertEqual(error(stations.request("close_bets", game="live-2")), "not_dealer")
        refused = [r for (r,) in self.daemon.rows(
            "SELECT json_extract(body, '$.error') FROM record WHERE kind = 'request.refused' ORDER BY seq")]
        self.assertEqual(refused[-2:], ["not_your_game", "not_dealer"])
        # Each under the game it asked for, with that game's round in progress (live-2's, round 2).
        self.assertEqual(self.daemon.rows(
            "SELECT round_id, json_extract(body, '$.game') FROM record WHERE kind = 'request.refused' "
            "AND json_extract(body, '$.error') IN ('not_your_game', 'not_dealer') ORDER BY seq"),
            [(2, "live-2"), (2, "live-2")])

        for dealer in (dealer1, dealer2):
            ok(self, dealer.request("close_bets"))
        # live-1: Player wins, 300 back with 300 won.
        for card in PLAYER_WINS.split():
            ok(self, dealer1.request("card", card=card))
        result = dealer1.wait_event(lambda e: e["event"] == "result")
        self.assertEqual((result["game"], result["wins"]), ("live-1", {"1": 300}))
        self.assertEqual(ok(self, stations.request("status"))["stations"][0]["credits"], 1100)

        # Cash-out with 200 still in play in live-2: exactly the credits not staked.
        ticket = ok(self, stations.request("cash_out", station=1))["ticket"]
        self.assertEqual(ticket["amount"], 1000 - 300 - 200 + 300 + 300)  # 1,100: live-2's 200 stays in play
        # live-2: Banker wins, the 200 stake returns with 190 won (19/20), after the cash-out.
        for card in BANKER_WINS.split():
            ok(self, dealer2.request("card", card=card))
        result2 = dealer2.wait_event(lambda e: e["event"] == "result")
        self.assertEqual((result2["game"], result2["wins"]), ("live-2", {"1": 190}))
        status = ok(self, stations.request("status", game="live-2"))
        self.assertEqual((status["table"], status["paytable"]), ("live-2", "standard"))
        self.assertEqual(ok(self, stations.request("status", game="live-1"))["paytable"], "no_commission")
        self.assertEqual(status["stations"][0]["credits"], 390)
        # A tip goes to the dealer of the game it names, from the one credit meter.
        self.assertEqual(ok(self, stations.request("tip", station=1, amount=40, game="live-2"))["credits"], 350)

        # The client that never said hello: live-1's events, none of live-2's (a positive check
        # first: live-1's result reached it).
        legacy_result = legacy.wait_event(lambda e: e["event"] == "result")
        self.assertEqual(legacy_result["game"], "live-1")
        ok(self, legacy.request("status"))  # every event sent before this reply is read now
        self.assertEqual([e for e in legacy.events if e.get("game") == "live-2"], [])
        self.assertEqual(ok(self, legacy.request("status"))["table"], "live-1")
        self.assertEqual(error(legacy.request("status", game="live-2")), "not_your_game")

        # The journal: the ticket, each game's settlement naming it, and the audit.
        self.assertEqual(self.daemon.rows("SELECT json_extract(body, '$.amount') FROM record WHERE kind = 'ticket.issued'"),
                         [(1100,)])
        self.assertEqual(sorted(self.daemon.rows(
            "SELECT round_id, json_extract(body, '$.game') FROM record WHERE kind = 'round.settled'")),
            [(1, "live-1"), (2, "live-2")])
        code, out = self.daemon.terminate()
        self.assertEqual(code, 0, out)
        audit = subprocess.run([CTL, "audit", "verify", "--journal", self.daemon.db, "--json"], capture_output=True,
                               text=True)
        self.assertEqual(audit.returncode, 0, audit.stdout + audit.stderr)
        self.assertEqual(json.loads(audit.stdout)["rounds_checked_by_game"], {"live-1": 1, "live-2": 1})

        # The inspector's views, recall and export by game (schema/README.md "Inspector views").
        self.assertEqual(self.daemon.rows("SELECT round_id, game FROM round_summary ORDER BY round_id"),
                         [(1, "live-1"), (2, "live-2")])
        self.assertEqual(self.daemon.rows("SELECT DISTINCT round_id, game FROM round_recall ORDER BY round_id"),
                         [(1, "live-1"), (2, "live-2")])
        journal = lambda *args: subprocess.run([CTL, *args, "--journal", self.daemon.db], capture_output=True, text=True)
        recalled = journal("recall", "--game", "live-2", "--json")
        self.assertEqual([r["round"] for r in json.loads(recalled.stdout)], [2], recalled.stderr)
        tips = journal("tips", "--game", "live-2", "--json")
        self.assertEqual([(p["count"], p["amount"]) for p in json.loads(tips.stdout)["periods"]], [(1, 40)], tips.stderr)
        self.assertEqual(json.loads(journal("tips", "--game", "live-1", "--json").stdout)["periods"], [])
        exported = journal("audit", "export", "--game", "live-1", "--format", "csv")
        self.assertEqual(exported.returncode, 0, exported.stderr)
        lines = exported.stdout.splitlines()
        self.assertEqual(lines[0].split(",")[-1], "game")
        self.assertTrue(all(line.endswith(',"live-1"') for line in lines[1:]), lines[:3])
        self.assertEqual(len(lines) - 1, self.daemon.rows(
            "SELECT count(*) FROM record WHERE json_extract(body, '$.game') = 'live-1'")[0][0])

    def test_each_game_resumes_its_own_shoe_after_sigkill(self):
        self.daemon.start()
        dealer1 = EngineClient(self.daemon.socket)
        dealer2 = EngineClient(self.daemon.socket)
        ok(self, dealer1.request("hello", games=["live-1"], role="dealer"))
        ok(self, dealer2.request("hello", games=["live-2"], role="dealer"))
        shoes = []
        for dealer, coup in ((dealer1, PLAYER_WINS), (dealer2, BANKER_WINS)):
            shoes.append(ok(self, dealer.request("new_shoe"))["shoe"])
            ok(self, dealer.request("open_round"))
            ok(self, dealer.request("close_bets"))
            for card in coup.split():
                ok(self, dealer.request("card", card=card))
        ok(self, dealer2.request("open_round"))  # live-2's second round is open at the kill
        self.daemon.kill()
        self.daemon.start()
        dealer1 = EngineClient(self.daemon.socket)
        ok(self, dealer1.request("hello", games=["live-1", "live-2"], role="dealer"))
        s1 = ok(self, dealer1.request("status", game="live-1"))
        s2 = ok(self, dealer1.request("status", game="live-2"))
        # 8 decks less each game's own four cards; live-2's open round was voided at the start.
        self.assertEqual((s1["shoe"], s1["round_in_shoe"], s1["cards_left"], s1["shoe_resumed"]),
                         (shoes[0], 1, 8 * 52 - 4, True))
        self.assertEqual((s2["shoe"], s2["round_in_shoe"], s2["cards_left"], s2["shoe_resumed"]),
                         (shoes[1], 2, 8 * 52 - 4, True))
        voided = self.daemon.rows("SELECT round_id, json_extract(body, '$.game') FROM record WHERE kind = 'round.voided'")
        self.assertEqual(voided, [(3, "live-2")])

    def test_pitlinkctl_acts_on_the_game_it_names(self):
        self.daemon.start()
        ctl = lambda *args: subprocess.run([CTL, *args, "--socket", self.daemon.control],
                                           capture_output=True, text=True)
        dealer2 = EngineClient(self.daemon.socket)
        ok(self, dealer2.request("hello", games=["live-2"], role="dealer"))
        ok(self, dealer2.request("new_shoe"))
        self.assertEqual(ok(self, dealer2.request("open_round"))["round"], 1)

        status = json.loads(ctl("status", "--game", "live-2", "--json").stdout)
        self.assertEqual((status["game"], status["table"], status["games"]), ("live-2", "live-2", ["live-1", "live-2"]))
        self.assertEqual(json.loads(ctl("status", "--json").stdout)["game"], "live-1")  # no --game: the first
        # live-1 has no round to void; live-2's round 1 is voided (--game before the command's words).
        self.assertEqual(ctl("void", "--reason", "camera down", "--game", "live-1").returncode, 1)
        voided = subprocess.run([CTL, "--game", "live-2", "void", "--reason", "camera down", "--socket",
                                 self.daemon.control], capture_output=True, text=True)
        self.assertEqual(voided.returncode, 0, voided.stderr)
        self.assertEqual(self.daemon.rows("SELECT round_id, json_extract(body, '$.game') FROM record "
                                          "WHERE kind = 'round.voided'"), [(1, "live-2")])
        recalled = json.loads(ctl("recall", "--round", "1", "--json").stdout)
        self.assertEqual(recalled[0]["game"], "live-2")  # the rounds recalled, as a list
        # A game the controller does not run: refused, and journaled like any refusal.
        unknown = ctl("status", "--game", "live-9")
        self.assertEqual(unknown.returncode, 1)
        self.assertIn("unknown_game", unknown.stderr + unknown.stdout)
        self.assertEqual(self.daemon.rows("SELECT json_extract(body, '$.op') FROM record WHERE kind = "
                                          "'request.refused' AND json_extract(body, '$.error') = 'unknown_game'"),
                         [("status",)])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
