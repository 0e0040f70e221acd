#!/usr/bin/env python3
"""Integration tests: the real pitlinkctl and pitlinkd binaries, as a user runs them.

Usage: test_binaries.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

BUILD, SOURCE = sys.argv[1], sys.argv[2]
CTL = os.path.join(BUILD, "daemon", "ctl", "pitlinkctl")
DAEMON = os.path.join(BUILD, "daemon", "app", "pitlinkd")
PAYTABLES = os.path.join(SOURCE, "etc", "paytables")


def run(*args, timeout=120):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout)


class PitlinkctlOdds(unittest.TestCase):
    def test_standard_table_exact_figures(self):
        r = run(CTL, "odds", "--paytable", os.path.join(PAYTABLES, "standard.yaml"), "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        odds = json.loads(r.stdout)
        self.assertEqual(odds["decks"], 8)
        self.assertAlmostEqual(odds["banker"], 0.458597, delta=5e-7)
        self.assertAlmostEqual(odds["player"], 0.446247, delta=5e-7)
        self.assertAlmostEqual(odds["tie"], 0.095156, delta=5e-7)
        edges = {b["bet"]: b["house_edge"] for b in odds["bets"]}
        self.assertAlmostEqual(edges["banker"], 0.010579, delta=5e-7)
        self.assertAlmostEqual(edges["player"], 0.012351, delta=5e-7)
        self.assertAlmostEqual(edges["tie"], 0.143596, delta=5e-7)
        self.assertEqual(set(edges), {"player", "banker", "tie", "player_pair", "banker_pair", "any_pair",
                                      "big", "small", "lucky_nines"})

    def test_human_table_lists_every_side_bet_of_ruyi(self):
        r = run(CTL, "odds", "--paytable", os.path.join(PAYTABLES, "ruyi.yaml"), "--decks", "6")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("6 deck(s)", r.stdout)
        for bet in ("gold_7", "jade_8", "ruby_9", "both_hands"):
            self.assertIn(bet, r.stdout)

    def test_malformed_paytable_exits_78_with_position(self):
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("id: bad\nbets:\n  player: \"1\"\n  banker: 0.95\n")
        r = run(CTL, "odds", "--paytable", f.name)
        os.unlink(f.name)
        self.assertEqual(r.returncode, 78)
        self.assertRegex(r.stderr, re.escape(f.name) + r":4:11: 'bets.banker': expected an exact ratio")

    def test_usage_errors_exit_2(self):
        self.assertEqual(run(CTL, "odds", "--decks", "9", "--paytable", "x").returncode, 2)
        self.assertEqual(run(CTL, "odds", "--colour").returncode, 2)
        self.assertEqual(run(CTL, "deal").returncode, 2)


class PitlinkctlSimulate(unittest.TestCase):
    def test_seeded_simulation_is_reproducible(self):
        args = [CTL, "simulate", "--rounds", "200000", "--seed", "7", "--paytable",
                os.path.join(PAYTABLES, "no_commission.yaml")]
        a, b = run(*args), run(*args)
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertIn("200000 rounds", a.stdout)
        strip = lambda s: re.sub(r"[0-9.]+ s \([0-9.]+ million rounds/s\)", "", s)
        self.assertEqual(strip(a.stdout), strip(b.stdout))
        counts = {m.group(1): int(m.group(2))
                  for m in re.finditer(r"^(banker|player|tie)\s+(\d+)\s+0\.\d+\s+0\.\d+$", a.stdout, re.M)}
        self.assertEqual(len(counts), 3)
        self.assertEqual(sum(counts.values()), 200000)


class Pitlinkd(unittest.TestCase):
    def config(self, directory, extra=""):
        path = os.path.join(directory, "pitlink.yaml")
        with open(path, "w") as f:
            f.write("table:\n  paytable: %s\n  decks: 1\n  cut_card_from_end: 14\n"
                    "rounds:\n  bets_open_ms: 1\n  last_bets_ms: 1\n%s"
                    % (os.path.join(PAYTABLES, "standard.yaml"), extra))
        return path

    def test_deals_rounds_from_its_shoe_and_starts_new_shoes(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(DAEMON, "--config", self.config(d), "--rounds", "30")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        rounds = re.findall(r"shoe (\d+) round (\d+): Player ((?:[A2-9TJQK][CDHS] )+)\((\d)\) \| "
                            r"Banker ((?:[A2-9TJQK][CDHS] )+)\((\d)\) -> (player|banker|tie)", r.stdout)
        self.assertEqual(len(rounds), 30, r.stdout)
        # A 1-deck shoe with 14 cards behind the cut card lasts at most 38 cards / 4 = 9 rounds.
        shoes = sorted({int(s) for s, *_ in rounds})
        self.assertGreaterEqual(len(shoes), 4)
        self.assertEqual(shoes, list(range(1, len(shoes) + 1)))
        points = lambda c: 0 if c[0] in "TJQK" else "A23456789".index(c[0]) + 1
        for shoe, rnd, pcards, ptotal, bcards, btotal, winner in rounds:
            p, b = pcards.split(), bcards.split()
            self.assertEqual(sum(map(points, p)) % 10, int(ptotal))
            self.assertEqual(sum(map(points, b)) % 10, int(btotal))
            expected = "player" if int(ptotal) > int(btotal) else "banker" if int(btotal) > int(ptotal) else "tie"
            self.assertEqual(winner, expected)
        self.assertIn("cut card out", r.stdout)

    def test_bad_configuration_exits_78_naming_the_key(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(DAEMON, "--config", self.config(d, "bets:\n  min: -5\n"), "--rounds", "1")
        self.assertEqual(r.returncode, 78)
        self.assertIn("'bets.min': -5 is out of range", r.stdout + r.stderr)

    def test_sigterm_stops_it_cleanly(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.Popen([DAEMON, "--config", self.config(d)], stdout=subprocess.PIPE, text=True)
            line = p.stdout.readline()
            while "round" not in line:
                line = p.stdout.readline()
            p.terminate()
            out, _ = p.communicate(timeout=10)
        self.assertEqual(p.returncode, 0)
        self.assertIn("stopping after", out)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
