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
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_table import CTL, PLAYER_WINS, Daemon, ok  # noqa: E402

# Seed 002's seven tables (minor units: the seed's figures in cents), a tie range at every level.
LEVELS = [(200, 4100), (500, 10200), (1000, 20500), (2000, 41000), (5000, 102000), (10000, 155000),
          (20000, 210000)]
LIMITS = ("bets:\n  anti_doubling: true\n  levels:\n" +
          "".join("    - {min: %d, max: %d}\n" % level for level in LEVELS) +
          "  spots:\n    tie: {min: 100, max: 5000}\n")


def error(reply):
    return None if reply["ok"] else reply["error"]


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
            ok(self, c.request("limit_level", station=2, level=2))  # 5/102
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


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
