#!/usr/bin/env python3
"""Integration tests of the player-station functions of the seed documents (issue 20) through
the real pitlinkd: a station front end over the engine link doing what the seeds describe and
reading back what the station must show; an operator with pitlinkctl. Expected stakes, limits
and credits are computed here from the configuration written by the test.

Usage: test_station_functions.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_table import BANKER_WINS, CTL, PLAYER_WINS, Daemon, ok, returned  # noqa: E402

# Seed 002's seven tables (minor units: the seed's figures in cents), a tie range at every level.
LEVELS = [(200, 4100), (500, 10200), (1000, 20500), (2000, 41000), (5000, 102000), (10000, 155000),
          (20000, 210000)]
LIMITS = ("bets:\n  anti_doubling: true\n  levels:\n" +
          "".join("    - {min: %d, max: %d}\n" % level for level in LEVELS) +
          "  spots:\n    tie: {min: 100, max: 5000}\n")


def error(reply):
    return None if reply["ok"] else reply["error"]


def pitlinkctl(daemon, *args):
    """pitlinkctl against the daemon's control socket; (exit code, stdout, stderr)."""
    done = subprocess.run([CTL, *args, "--socket", daemon.control], capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout, done.stderr


def deal(testcase, client, cards):
    ok(testcase, client.request("close_bets"))
    for card in cards.split():
        ok(testcase, client.request("card", card=card))
    return client.wait_event(lambda e: e["event"] == "result")


class StationFunctions(unittest.TestCase):
    def test_raise_undo_after_double_and_limit_levels_as_a_front_end_uses_them(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d, extra=LIMITS)
            c = daemon.start()
            ok(self, c.request("ticket_in", station=1, validation="701", amount=12000))
            # Level 1 (2/41): what the station shows over its spots.
            shown = ok(self, c.request("limits", station=1))
            self.assertEqual((shown["level"], shown["levels"]), (1, 7))
            self.assertEqual(shown["spots"]["banker"]["min"], 200)
            self.assertEqual(shown["spots"]["banker"]["max"], 4100)
            self.assertEqual(shown["spots"]["tie"], {"min": 100, "max": 5000, "max_win": 40000, "max_payout": 45000})
            # Banker pays 19/20 at most in the standard paytable: 4100 * 19 / 20 = 3895.
            self.assertEqual(shown["spots"]["banker"]["max_win"], 3895)
            ok(self, c.request("new_shoe"))
            ok(self, c.request("open_round"))
            self.assertEqual(error(c.request("bet", station=1, spot="banker", stake=4200)), "above_maximum")
            self.assertEqual(error(c.request("limit_level", station=1, level=8)), "no_such_level")
            ok(self, c.request("bet", station=1, spot="tie", stake=1000))
            ok(self, c.request("bet", station=1, spot="banker", stake=2000))
            # The level cannot change under bets.
            self.assertEqual(error(c.request("limit_level", station=1, level=2)), "bets_on_layout")
            # Raise by 1500: the tie first (placed first) to 2500, then the banker to 3500.
            data = ok(self, c.request("raise", station=1, chip=1500))
            self.assertEqual(data["slip"], {"tie": 2500, "banker": 3500})
            self.assertEqual(data["credits"], 12000 - 6000)
            # Again: the tie to 4000; the banker would pass 4100 and stays.
            data = ok(self, c.request("raise", station=1, chip=1500))
            self.assertEqual(data["slip"], {"tie": 4000, "banker": 3500})
            # Undo takes back the whole last raise, then the whole raise before it.
            self.assertEqual(ok(self, c.request("undo", station=1))["slip"], {"tie": 2500, "banker": 3500})
            self.assertEqual(ok(self, c.request("undo", station=1))["slip"], {"tie": 1000, "banker": 2000})
            # Double, then undo: back to the bets before the double, not one spot less.
            self.assertEqual(ok(self, c.request("double", station=1))["slip"], {"tie": 2000, "banker": 4000})
            self.assertEqual(ok(self, c.request("undo", station=1))["slip"], {"tie": 1000, "banker": 2000})
            # Show winnings: each placed spot's most it can win.
            self.assertEqual(ok(self, c.request("limits", station=1))["winnings"], {"tie": 8000, "banker": 1900})
            # A chip no spot can take (each would pass its maximum): refused with the first
            # spot's rule, journaled.
            self.assertEqual(error(c.request("raise", station=1, chip=9000)), "above_maximum")
            ok(self, c.request("clear", station=1))
            shown = ok(self, c.request("limit_level", station=1, level=3))
            self.assertEqual((shown["level"], shown["spots"]["player"]["min"]), (3, 1000))
            self.assertEqual(error(c.request("bet", station=1, spot="player", stake=900)), "below_minimum")
            daemon.terminate()
            rules = [r for (r,) in daemon.rows("SELECT json_extract(body, '$.rule') FROM record "
                                               "WHERE kind = 'bet.refused' ORDER BY seq")]
            self.assertEqual(rules, ["above_maximum", "above_maximum", "below_minimum"])
            actions = [a for (a,) in daemon.rows("SELECT json_extract(body, '$.action') FROM record "
                                                 "WHERE kind = 'bet.accepted' ORDER BY seq")]
            self.assertEqual(actions.count("raise"), 3)
            refused_ops = [r for (r,) in daemon.rows("SELECT json_extract(body, '$.op') FROM record "
                                                     "WHERE kind = 'request.refused' ORDER BY seq")]
            self.assertEqual(refused_ops, ["limit_level", "limit_level"])

    def test_the_level_own_limits_last_slip_and_anti_doubling_streak_survive_a_restart(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d, extra=LIMITS)
            c = daemon.start()
            ok(self, c.request("ticket_in", station=2, validation="702", amount=100000))
            code, _, err = pitlinkctl(daemon, "station", "level", "2", "--level", "4")  # the floor sets it...
            self.assertEqual(code, 0, err)
            self.assertEqual({s["station"]: s for s in ok(self, c.request("status"))["stations"]}[2]["limit_level"], 4)
            self.assertEqual(pitlinkctl(daemon, "station", "level", "2", "--level", "9")[0], 1)  # no_such_level
            ok(self, c.request("limit_level", station=2, level=2))  # ... and the player: 5/102
            ctl = subprocess.run([CTL, "station", "limits", "2", "--max", "3000", "--socket", daemon.control,
                                  "--json"], capture_output=True, text=True, timeout=30)
            self.assertEqual(ctl.returncode, 0, ctl.stderr)
            self.assertEqual(json.loads(ctl.stdout)["spots"]["banker"]["max"], 3000)
            ok(self, c.request("new_shoe"))
            # Three lost even-money bets (Banker, Player wins): 1000, 1500, 2000.
            for stake in (1000, 1500, 2000):
                ok(self, c.request("open_round"))
                ok(self, c.request("bet", station=2, spot="banker", stake=stake))
                ok(self, c.request("close_bets"))
                for card in PLAYER_WINS.split():
                    ok(self, c.request("card", card=card))
                c.wait_event(lambda e: e["event"] == "result")
            daemon.kill()
            c = daemon.start()
            station = {s["station"]: s for s in ok(self, c.request("status"))["stations"]}[2]
            self.assertEqual(station["limit_level"], 2)
            self.assertEqual(station["personal_limits"], {"max": 3000})
            self.assertEqual(station["credits"], 100000 - 4500)
            ok(self, c.request("new_shoe"))
            ok(self, c.request("open_round"))
            # The fourth may be at most the third plus 50 %: 3000, and the own max is 3000 too;
            # the level's min is 500. Repeat places the last slip (2000) again.
            self.assertEqual(ok(self, c.request("repeat", station=2))["slip"], {"banker": 2000})
            self.assertEqual(error(c.request("raise", station=2, chip=1500)), "above_maximum")
            self.assertEqual(ok(self, c.request("raise", station=2, chip=1000))["slip"], {"banker": 3000})
            ok(self, c.request("clear", station=2))
            ctl = subprocess.run([CTL, "station", "limits", "2", "--socket", daemon.control], capture_output=True,
                                 text=True, timeout=30)
            self.assertEqual(ctl.returncode, 0, ctl.stderr)
            self.assertEqual(error(c.request("bet", station=2, spot="banker", stake=3500)), "anti_doubling")
            daemon.terminate()
            states = daemon.rows("SELECT json_extract(body, '$.limit_level'), json_extract(body, '$.streak.losses') "
                                 "FROM record WHERE kind = 'station.state' AND station = 2 ORDER BY seq")
            self.assertEqual(states[-1], (2, 3))


    def test_a_disputed_deal_holds_the_table_until_an_operator_resettles_it(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d)
            c = daemon.start()
            ok(self, c.request("ticket_in", station=1, validation="801", amount=10000))
            ok(self, c.request("new_shoe"))
            ok(self, c.request("open_round"))
            ok(self, c.request("bet", station=1, spot="banker", stake=1000))
            deal(self, c, PLAYER_WINS)  # the banker bet lost: 9,000 left
            self.assertEqual(error(c.request("dispute", station=1, round=5, text="x")), "not_current_or_last")
            self.assertEqual(ok(self, c.request("dispute", station=1, round=1, text="the banker's 9 was read as 2")),
                             {"round": 1})
            told = c.wait_event(lambda e: e["event"] == "dispute")
            self.assertEqual((told["station"], told["round"], told["status"]), (1, 1, "open"))
            # The table holds, across a power cut too.
            self.assertEqual(error(c.request("open_round")), "dispute_open")
            daemon.kill()
            c = daemon.start()
            station = {s["station"]: s for s in ok(self, c.request("status"))["stations"]}[1]
            self.assertEqual(station["dispute"], {"round": 1, "text": "the banker's 9 was read as 2"})
            ok(self, c.request("new_shoe"))  # a reader table starts again on a new shoe
            self.assertEqual(error(c.request("open_round")), "dispute_open")
            # The operator upholds it with the cards the video shows: the banker won.
            code, out, err = pitlinkctl(daemon, "dispute", "resolve", "1", "--upheld", "--cards", BANKER_WINS, "--reason",
                                 "video review", "--json")
            self.assertEqual(code, 0, err)
            answer = json.loads(out)
            self.assertEqual((answer["decision"], answer["round"]), ("upheld", 1))
            expected = 10000 - 1000 + returned("banker", 1000, "banker")
            self.assertEqual(answer["resettlement"]["credits"]["1"]["balance"], expected)
            told = c.wait_event(lambda e: e["event"] == "dispute")
            self.assertEqual((told["status"], told["resettled"]), ("upheld", True))
            credits = c.wait_event(lambda e: e["event"] == "credits" and e.get("resettled_round") == 1)
            self.assertEqual(credits["credits"], expected)
            code, _, err = pitlinkctl(daemon, "dispute", "resolve", "1", "--rejected", "--reason", "again")
            self.assertEqual(code, 1, err)  # nothing open any more
            ok(self, c.request("open_round"))
            daemon.terminate()
            kinds = [k for (k,) in daemon.rows("SELECT kind FROM record WHERE kind IN ('dispute.raised', "
                                               "'dispute.resolved', 'round.resettled') ORDER BY seq")]
            self.assertEqual(kinds, ["dispute.raised", "round.resettled", "dispute.resolved"])

    def test_a_reserved_station_stays_locked_until_released_with_its_pin_even_across_a_restart(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d)
            c = daemon.start()
            ok(self, c.request("ticket_in", station=2, validation="802", amount=5000))
            reserved = ok(self, c.request("reserve", station=2, on=True, pin="2468"))
            self.assertTrue(reserved["reserved"])
            ok(self, c.request("new_shoe"))
            ok(self, c.request("open_round"))
            self.assertEqual(error(c.request("bet", station=2, spot="player", stake=100)), "station_reserved")
            self.assertEqual(error(c.request("cash_out", station=2)), "station_reserved")
            daemon.kill()
            c = daemon.start()
            station = {s["station"]: s for s in ok(self, c.request("status"))["stations"]}[2]
            self.assertTrue(station["reserved"])
            self.assertEqual(station["reserved_until_ms"], reserved["until_ms"])
            self.assertEqual(error(c.request("cash_out", station=2)), "station_reserved")
            self.assertEqual(error(c.request("reserve", station=2, on=False, pin="1357")), "wrong_pin")
            self.assertEqual(ok(self, c.request("reserve", station=2, on=False, pin="2468")), {"reserved": False})
            self.assertEqual(ok(self, c.request("cash_out", station=2))["ticket"]["amount"], 5000)
            # Reserved again; the floor frees it without the PIN.
            ok(self, c.request("reserve", station=2, on=True, pin="1111"))
            code, _, err = pitlinkctl(daemon, "station", "release", "2")
            self.assertEqual(code, 0, err)
            told = c.wait_event(lambda e: e["event"] == "reserved" and not e["reserved"] and e["by"] != "station")
            self.assertEqual(told["station"], 2)
            daemon.terminate()
            pins = daemon.rows("SELECT count(*) FROM record WHERE body LIKE '%2468%' OR body LIKE '%1111%'")
            self.assertEqual(pins, [(0,)])  # only digests of the PINs are journaled

    def test_auto_repeat_live_roads_and_the_bet_list(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d)
            daemon.rewrite_config([("stations: 4\n", "stations: 4\n  naturals_on_big_road: false\n")])
            c = daemon.start()
            ok(self, c.request("ticket_in", station=3, validation="803", amount=5000))
            self.assertEqual(error(c.request("auto_repeat", station=3, on=True)), "nothing_to_repeat")
            ok(self, c.request("new_shoe"))
            empty = c.wait_event(lambda e: e["event"] == "roads")
            self.assertEqual(empty["statistics"]["rounds"], 0)
            ok(self, c.request("open_round"))
            ok(self, c.request("bet", station=3, spot="player", stake=1000))
            deal(self, c, PLAYER_WINS)  # player natural 9: 1,000 wins 1,000
            roads = c.wait_event(lambda e: e["event"] == "roads")
            self.assertEqual((roads["statistics"]["rounds"], roads["statistics"]["player_wins"]), (1, 1))
            self.assertEqual(roads["bead_plate"][0]["natural"], 9)
            self.assertEqual(roads["big_road"]["cells"][0]["natural"], 0)  # switched off in this table's settings
            self.assertEqual(ok(self, c.request("auto_repeat", station=3, on=True)), {"auto_repeat": True})
            daemon.kill()
            c = daemon.start()
            ok(self, c.request("new_shoe"))  # new roads too
            ok(self, c.request("open_round"))  # the repeat places itself, kept across the restart
            station = {s["station"]: s for s in ok(self, c.request("status"))["stations"]}[3]
            self.assertTrue(station["auto_repeat"])
            self.assertEqual([(b["spot"], b["stake"]) for b in station["bets"]], [("player", 1000)])
            deal(self, c, BANKER_WINS)  # lost
            shown = ok(self, c.request("roads"))
            self.assertEqual((shown["statistics"]["rounds"], shown["statistics"]["banker_wins"]), (1, 1))
            listed = ok(self, c.request("bet_list", station=3, rounds=5))["rounds"]
            self.assertEqual([r["round"] for r in listed], [2, 1])
            self.assertEqual([(r["staked"], r["returned"]) for r in listed],
                             [(1000, returned("player", 1000, "banker")), (1000, returned("player", 1000, "player"))])
            self.assertEqual(listed[0]["credits"], {"before": 6000, "after": 5000})
            self.assertEqual(listed[0]["bets"][0]["spot"], "player")
            self.assertNotIn("station", listed[0]["bets"][0])
            # Each line is a spot with the additions that built it, and how (issue 30).
            self.assertEqual([[(a["stake"], a["action"]) for a in r["bets"][0]["additions"]] for r in listed],
                             [[(1000, "auto_repeat")], [(1000, "bet")]])
            self.assertEqual(ok(self, c.request("bet_list", station=4))["rounds"], [])
            ok(self, c.request("auto_repeat", station=3, on=False))
            ok(self, c.request("open_round"))
            station = {s["station"]: s for s in ok(self, c.request("status"))["stations"]}[3]
            self.assertEqual(station["bets"], [])
            daemon.terminate()


    def test_a_physical_shoes_cut_and_burn_as_the_reader_reports_them(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d, decks=1)
            c = daemon.start()
            ok(self, c.request("new_shoe"))
            ok(self, c.request("cut", cards_behind=44))  # the player cuts, then the dealer burns
            self.assertEqual(error(c.request("burn", cards=["5C", "2C"])), "burn_count")
            # A three turned: three more burned; 52 - 4 = 48 left.
            ok(self, c.request("burn", cards=["3D", "9S", "2H", "KD"]))
            self.assertEqual(error(c.request("burn", cards=["AD", "QH"])), "already_reported")
            self.assertEqual(error(c.request("cut", cards_behind=20)), "already_reported")
            ok(self, c.request("open_round"))
            ok(self, c.request("close_bets"))
            # The burned nine of spades cannot be dealt from one deck: a misdeal.
            self.assertEqual(error(c.request("card", card="9S")), "card_refused")
            self.assertTrue(c.wait_event(lambda e: e["event"] == "result")["voided"])
            ok(self, c.request("open_round"))
            ok(self, c.request("close_bets"))
            for card in "8S 3H QD 5C".split():
                ok(self, c.request("card", card=card))
            result = c.wait_event(lambda e: e["event"] == "result")
            # 48 - 4 = 44 left, no more than behind the cut: the shoe's last round.
            self.assertEqual((result["cards_left"], result["cut_card_out"]), (44, True))
            self.assertEqual(error(c.request("open_round")), "no_shoe")
            daemon.terminate()
            burned = daemon.rows("SELECT json_extract(body, '$.cards'), json_extract(body, '$.cards_left') "
                                 "FROM record WHERE kind = 'shoe.burned'")
            self.assertEqual([(json.loads(cards), left) for cards, left in burned], [(["3D", "9S", "2H", "KD"], 48)])


    def test_the_single_player_deal_and_keep_bets_on_at_an_rng_table(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d)
            daemon.rewrite_config([("source: reader", "source: rng"),
                                   ("rounds:\n", "rounds:\n  start: deal\n")])
            c = daemon.start()
            ok(self, c.request("ticket_in", station=1, validation="901", amount=10000))
            opened = ok(self, c.request("status"))  # the first round opened at the start, and waits
            while opened["phase"] != "bets_open":
                time.sleep(0.05)
                opened = ok(self, c.request("status"))
            self.assertEqual(error(c.request("deal", station=1)), "no_bets")
            ok(self, c.request("bet", station=1, spot="banker", stake=1000))
            self.assertEqual(ok(self, c.request("deal", station=1)), {"round": opened["round"]})
            result = c.wait_event(lambda e: e["event"] == "result")
            won = returned("banker", 1000, result["winner"])
            self.assertEqual(ok(self, c.request("status"))["stations"][0]["credits"], 10000 - 1000 + won)
            # Keep Bets On: the bets are back on the layout, and nothing is dealt until DEAL.
            self.assertEqual(ok(self, c.request("keep_bets", station=1, on=True)), {"keep_bets": True})
            station = ok(self, c.request("status"))["stations"][0]
            self.assertEqual([(b["spot"], b["stake"]) for b in station["bets"]], [("banker", 1000)])
            self.assertTrue(station["keep_bets"])
            time.sleep(0.5)
            self.assertEqual(ok(self, c.request("status"))["round"], opened["round"] + 1)
            ok(self, c.request("deal", station=1))
            c.wait_event(lambda e: e["event"] == "result" and e["round"] == opened["round"] + 1)
            daemon.terminate()
            dealt = daemon.rows("SELECT json_extract(body, '$.deal') FROM record WHERE kind = 'round.closed'")
            self.assertEqual(dealt, [(1,), (1,)])

    def test_unconfirmed_bets_are_not_played_in_the_multiplayer_mode(self):
        with tempfile.TemporaryDirectory() as d:
            daemon = Daemon(d)
            daemon.rewrite_config([("rounds:\n", "rounds:\n  confirm_bets: true\n")])
            c = daemon.start()
            for station in (1, 2):
                ok(self, c.request("ticket_in", station=station, validation="91%d" % station, amount=5000))
            ok(self, c.request("new_shoe"))
            ok(self, c.request("open_round"))
            ok(self, c.request("bet", station=1, spot="player", stake=1000))
            ok(self, c.request("bet", station=2, spot="player", stake=700))
            self.assertEqual(ok(self, c.request("confirm", station=1))["slip"], {"player": 1000})
            ok(self, c.request("close_bets"))
            told = c.wait_event(lambda e: e["event"] == "unconfirmed")
            self.assertEqual((told["station"], told["returned"], told["credits"]), (2, 700, 5000))
            for card in PLAYER_WINS.split():
                ok(self, c.request("card", card=card))
            result = c.wait_event(lambda e: e["event"] == "result")
            self.assertEqual(result["wins"], {"1": 1000})
            stations = ok(self, c.request("status"))["stations"]
            self.assertEqual([s["credits"] for s in stations[:2]], [5000 + returned("player", 1000, "player") - 1000,
                                                                    5000])
            daemon.terminate()


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
