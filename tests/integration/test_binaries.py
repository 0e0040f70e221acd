#!/usr/bin/env python3
"""Integration tests: the real pitlinkctl and pitlinkd binaries, as a user runs them.

Usage: test_binaries.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import hashlib
import json
import os
import pathlib
import sqlite3
import time
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import unittest

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
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


class PitlinkctlRoads(unittest.TestCase):
    VECTORS = os.path.join(SOURCE, "tests", "fixtures", "baccarat", "roads_standard_rule_vectors.json")

    def test_json_matches_every_standard_rule_vector(self):
        with open(self.VECTORS) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            r = run(CTL, "roads", "--results", case["sequence"], "--json")
            self.assertEqual(r.returncode, 0, r.stderr)
            board = json.loads(r.stdout)
            colours = lambda road: "".join("R" if m["colour"] == "red" else "B" for m in board[road])
            self.assertEqual(colours("big_eye"), case["bigEye"], case["name"])
            self.assertEqual(colours("small"), case["small"], case["name"])
            self.assertEqual(colours("cockroach"), case["cockroach"], case["name"])
            self.assertEqual([c["ties"] for c in board["big_road"]["cells"]], case["tiesPerCell"], case["name"])
            names = {"bigEye": "big_eye", "small": "small", "cockroach": "cockroach"}
            for side, key in (("B", "banker"), ("P", "player")):
                for vec, ours in names.items():
                    want = case["askNext"][side][vec]
                    got = board["probe"][key][ours]
                    self.assertEqual(None if got is None else got[0].upper(), want, case["name"])
            stats = board["statistics"]
            self.assertEqual(stats["rounds"], len(case["sequence"]))
            self.assertEqual(stats["ties"], case["sequence"].count("T"))

    def test_svg_is_a_readable_picture_of_the_shoe(self):
        import xml.etree.ElementTree as ET
        results = "TTBBBBBBBBBPPPPPPPPPPBTTTPBPPBPBBPBPTBBPPBPBBBBBBPPPTPBP"
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "roads.svg")
            r = run(CTL, "roads", "--results", results, "--svg", path, "--shoe", "7", "--table", "Table 3")
            self.assertEqual(r.returncode, 0, r.stderr)
            root = ET.parse(path).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        texts = [t.text for t in root.iter(ns + "text")]
        self.assertIn("Table 3: shoe 7", texts)
        self.assertTrue(any(re.match(r"rounds %d\s+Banker %d " % (len(results), results.count("B")), t) for t in texts), texts[:3])
        for label in ("Bead plate", "Big road (tie first)", "Big Eye Road", "Small Road", "Cockroach Road", "Banker", "Player", "Tie"):
            self.assertIn(label, texts)
        # Every round is a solid bead on the bead plate with its letter.
        self.assertEqual(sum(1 for t in texts if t in ("B", "P", "T")), len(results))
        # Green slashes: one per big-road cell that carries ties, plus the legend's.
        with_ties = len([c for c in json.loads(run(CTL, "roads", "--results", results, "--json").stdout)["big_road"]["cells"] if c["ties"]])
        green = [l for l in root.iter(ns + "line") if l.get("stroke") == "#2e7d32"]
        self.assertEqual(len(green), with_ties + 1)

    def test_bad_results_are_a_usage_error(self):
        r = run(CTL, "roads", "--results", "BPX")
        self.assertEqual(r.returncode, 2)
        self.assertIn("only the letters B, P and T", r.stderr)


class Pitlinkd(unittest.TestCase):
    def config(self, directory, extra=""):
        path = os.path.join(directory, "pitlink.yaml")
        with open(path, "w") as f:
            f.write("table:\n  paytable: %s\n  decks: 1\n  cut_card_from_end: 14\n"
                    "rounds:\n  bets_open_ms: 1\n  last_bets_ms: 1\nengine:\n  socket: engine.sock\ncontrol:\n  socket: control.sock\n"
                    "journal:\n  path: journal.db\n%s"
                    % (os.path.join(PAYTABLES, "standard.yaml"), extra))
        return path

    def config_with_window(self, directory, bets_open_ms):
        """The test configuration with a longer "BETS PLEASE" window."""
        path = self.config(directory)
        with open(path) as f:
            text = f.read().replace("bets_open_ms: 1", "bets_open_ms: %d" % bets_open_ms)
        with open(path, "w") as f:
            f.write(text)
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
        # At each shoe end the scoreboard's statistics agree with the rounds of that shoe.
        ends = re.findall(r"shoe (\d+): cut card out after round (\d+), \d+ cards left; Banker (\d+), Player (\d+), Tie (\d+)", r.stdout)
        self.assertGreaterEqual(len(ends), 3)
        for shoe, last, banker, player, tie in ends:
            winners = [w for s, _, _, _, _, _, w in rounds if s == shoe]
            self.assertEqual(int(last), len(winners))
            self.assertEqual((int(banker), int(player), int(tie)),
                             (winners.count("banker"), winners.count("player"), winners.count("tie")))

    def chain_of(self, db_path):
        """Verifies the hash chain with this test's own code; returns the records."""
        db = sqlite3.connect(db_path)
        rows = db.execute("SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq").fetchall()
        db.close()
        previous = bytes(32)
        for expected, (seq, at_ms, kind, round_id, station, body, link) in enumerate(rows, start=1):
            self.assertEqual(seq, expected)
            text = "\t".join([str(seq), str(at_ms), kind, "" if round_id is None else str(round_id),
                              "" if station is None else str(station), body])
            previous = hashlib.sha256(previous + text.encode()).digest()
            self.assertEqual(previous, link, "record %d breaks the chain" % seq)
        return rows

    def test_journals_every_round_and_resumes_the_numbering_after_a_restart(self):
        with tempfile.TemporaryDirectory() as d:
            config = self.config(d)
            first = run(DAEMON, "--config", config, "--rounds", "12")
            second = run(DAEMON, "--config", config, "--rounds", "3")
            self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
            rows = self.chain_of(os.path.join(d, "journal.db"))
            kinds = [r[2] for r in rows]
            self.assertEqual(kinds.count("round.settled"), 15)
            self.assertEqual(kinds.count("daemon.started"), 2)
            self.assertEqual(kinds.count("journal.checked"), 2)
            # Written only after the integrity scan, with its verdict.
            self.assertEqual([json.loads(r[5])["quick_check"] for r in rows if r[2] == "journal.checked"], ["ok", "ok"])
            self.assertIn("journal integrity scan passed", second.stdout)
            opened = [r[3] for r in rows if r[2] == "round.opened"]
            self.assertEqual(opened, list(range(1, 16)))
            # The logged coups are the journaled ones.
            logged = re.findall(r"Player ((?:[A2-9TJQK][CDHS] )+)\(\d\) \| Banker ((?:[A2-9TJQK][CDHS] )+)\(\d\)"
                                r".*\(round #(\d+)\)", first.stdout + second.stdout)
            settled = {r[3]: json.loads(r[5]) for r in rows if r[2] == "round.settled"}
            self.assertEqual(len(logged), 15)
            for player, banker, round_id in logged:
                self.assertEqual(settled[int(round_id)]["player"], player.split())
                self.assertEqual(settled[int(round_id)]["banker"], banker.split())
            # pitlinkctl reads the same journal.
            audit = run(CTL, "audit", "verify", "--journal", os.path.join(d, "journal.db"), "--json")
            self.assertEqual(audit.returncode, 0, audit.stdout + audit.stderr)
            report = json.loads(audit.stdout)
            self.assertEqual(report["rounds_checked"], 15)
            self.assertEqual(report["meters"]["table"]["rounds_settled"], 15)
            self.assertEqual(report["meters"]["table"]["power_ups"], 2)
            recall = json.loads(run(CTL, "recall", "--journal", os.path.join(d, "journal.db"), "--last", "3", "--json").stdout)
            self.assertEqual([r["round"] for r in recall], [15, 14, 13])
            self.assertEqual(recall[0]["player"], settled[15]["player"])

    def test_sigkill_in_the_middle_of_a_round_is_recovered_at_restart(self):
        with tempfile.TemporaryDirectory() as d:
            config = self.config_with_window(d, 60000)
            with open(config) as f:
                slow = f.read()
            p = subprocess.Popen([DAEMON, "--config", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            db = os.path.join(d, "journal.db")
            deadline = time.time() + 10
            opened = 0
            while opened == 0 and time.time() < deadline:
                time.sleep(0.05)
                if os.path.exists(db):
                    try:
                        opened = sqlite3.connect(db).execute(
                            "SELECT count(*) FROM record WHERE kind = 'round.opened'").fetchone()[0]
                    except sqlite3.OperationalError:
                        pass
            p.kill()  # SIGKILL while the round is open for bets
            p.communicate()
            self.assertEqual(opened, 1)
            with open(config, "w") as f:
                f.write(slow.replace("bets_open_ms: 60000", "bets_open_ms: 1"))
            r = run(DAEMON, "--config", config, "--rounds", "1")
            self.assertEqual(r.returncode, 0, r.stdout)
            self.assertIn("recovery: round 1 voided, 0 bets returned: the round was open when the table stopped", r.stdout)
            rows = self.chain_of(db)
            ends = [(r[3], r[2]) for r in rows if r[2] in ("round.settled", "round.voided")]
            self.assertEqual(ends, [(1, "round.voided"), (2, "round.settled")])

    def test_an_edited_journal_tilts_the_table_and_is_left_as_found(self):
        with tempfile.TemporaryDirectory() as d:
            config = self.config(d)
            run(DAEMON, "--config", config, "--rounds", "3")
            db_path = os.path.join(d, "journal.db")
            db = sqlite3.connect(db_path)
            db.execute("DROP TRIGGER record_is_append_only_update")
            db.execute("UPDATE record SET body = replace(body, '\"banker\"', '\"player\"') "
                       "WHERE seq = (SELECT min(seq) FROM record WHERE kind = 'round.settled')")
            edited = db.execute("SELECT min(seq) FROM record WHERE kind = 'round.settled'").fetchone()[0]
            db.commit()
            db.close()
            before = pathlib.Path(db_path).read_bytes()
            p = subprocess.Popen([DAEMON, "--config", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            time.sleep(1.0)
            p.terminate()
            out, _ = p.communicate(timeout=10)
            self.assertIn("TILT: journal check failed at record %d" % edited, out)
            self.assertNotIn("round #", out)
            self.assertEqual(pathlib.Path(db_path).read_bytes(), before)
            audit = run(CTL, "audit", "verify", "--journal", db_path)
            self.assertEqual(audit.returncode, 1)
            self.assertIn("BROKEN at record %d" % edited, audit.stdout)

    def test_a_damaged_page_found_by_the_integrity_scan_tilts_the_table_and_is_left_as_found(self):
        with tempfile.TemporaryDirectory() as d:
            config = self.config(d, "  snapshot_every: 100\n")
            run(DAEMON, "--config", config, "--rounds", "40")
            db_path = os.path.join(d, "journal.db")
            db = sqlite3.connect(db_path)
            page = db.execute("SELECT min(pageno) FROM dbstat WHERE name = 'record' AND pagetype = 'leaf'").fetchone()[0]
            page_size = db.execute("PRAGMA page_size").fetchone()[0]
            db.close()
            with open(db_path, "r+b") as f:  # a bad block in the oldest records: cell count 65535
                f.seek((page - 1) * page_size + 3)
                f.write(b"\xff\xff")
            before = pathlib.Path(db_path).read_bytes()
            p = subprocess.Popen([DAEMON, "--config", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            out = ""
            deadline = time.time() + 20
            while "TILT" not in out and time.time() < deadline:
                out += p.stdout.readline()
            p.terminate()
            out += p.communicate(timeout=10)[0]
            # The fast check from the last snapshots passed; the scan found the page.
            self.assertIn("integrity scan running", out)
            self.assertIn("TILT: journal integrity check failed", out)
            self.assertNotIn("round #", out)
            self.assertEqual(pathlib.Path(db_path).read_bytes(), before)

    def test_it_speaks_systemds_notify_protocol_and_rereads_its_configuration_on_sighup(self):
        with tempfile.TemporaryDirectory() as d:
            config = self.config_with_window(d, 200)
            notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            notify.bind(os.path.join(d, "notify"))
            notify.settimeout(10)
            env = dict(os.environ, NOTIFY_SOCKET=os.path.join(d, "notify"), WATCHDOG_USEC="200000")
            p = subprocess.Popen([DAEMON, "--config", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, env=env)
            messages = []
            while not any(m.startswith("READY=1") for m in messages):
                messages.append(notify.recv(4096).decode())
            self.assertIn("STATUS=journal integrity scan", messages)
            ready = [m for m in messages if m.startswith("READY=1")][0]
            self.assertIn("STATUS=table 'table-1' running (rng shoe, 8 stations)", ready)
            # The watchdog is fed from the logic thread every 100 ms (half of WATCHDOG_USEC).
            start = time.time()
            pings = 0
            while pings < 5:
                pings += notify.recv(4096).decode() == "WATCHDOG=1"
            self.assertLess(time.time() - start, 3)
            with open(config, "a") as f:
                f.write("log:\n  level: warn\n")
            p.send_signal(signal.SIGHUP)
            time.sleep(0.5)
            p.terminate()
            out, _ = p.communicate(timeout=10)
            rest = []
            notify.settimeout(0.5)
            try:
                while True:
                    rest.append(notify.recv(4096).decode())
            except socket.timeout:
                pass
            self.assertIn("STOPPING=1", rest)
            self.assertIn("SIGHUP: %s re-read; log level warn" % config, out)
            after = out.split("re-read; log level warn", 1)[1]
            self.assertNotIn("[info]", after)  # info lines are no longer written
            self.assertIn("round #", out.split("re-read", 1)[0])

    def test_config_check_accepts_the_shipped_configuration_and_names_a_bad_key(self):
        good = run(CTL, "config", "check", os.path.join(SOURCE, "etc", "pitlink.yaml"))
        self.assertEqual(good.returncode, 0, good.stderr)
        self.assertIn("OK (table 'table-1', 8 stations, game 'table-1': rng shoe, paytable 'standard'", good.stdout)
        with tempfile.TemporaryDirectory() as d:
            # Each game's paytable is read and named.
            games = run(CTL, "config", "check", self.config(
                d, "games:\n  - name: live-1\n    source: reader\n    rounds: {start: timer}\n"
                   "  - name: rng-2\n    source: rng\n    paytable: %s\n" % os.path.join(SOURCE, "etc", "paytables", "no_commission.yaml")))
            self.assertEqual(games.returncode, 0, games.stderr)
            self.assertIn("games 'live-1': reader shoe, paytable 'standard', 'rng-2': rng shoe, "
                          "paytable 'no_commission'", games.stdout)
            bad = run(CTL, "config", "check", self.config(d, "cashier:\n  ticket_limit: -1\n"))
        self.assertEqual(bad.returncode, 78)
        self.assertIn("'cashier.ticket_limit': -1 is out of range", bad.stderr)

    def test_bad_configuration_exits_78_naming_the_key(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(DAEMON, "--config", self.config(d, "bets:\n  min: -5\n"), "--rounds", "1")
        self.assertEqual(r.returncode, 78)
        self.assertIn("'bets.min': -5 is out of range", r.stdout + r.stderr)

    def run_under_file_size_limit(self, config, limit, seconds):
        """pitlinkd with RLIMIT_FSIZE set as systemd's LimitFSIZE= would (SIGXFSZ left at its
        default: pitlinkd must ignore it itself), stopped with SIGTERM after `seconds`."""
        def limit_file_size():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        p = subprocess.Popen([DAEMON, "--config", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             preexec_fn=limit_file_size)
        time.sleep(seconds)
        alive = p.poll() is None
        p.terminate()
        out = p.communicate(timeout=15)[0]
        return alive, p.returncode, out

    def test_a_file_size_limit_tilts_naming_it_keeps_every_record_and_a_restart_without_it_resumes(self):
        # Issue 31: the journal of a table that has played, then a file-size limit it meets in play
        # (64 KiB above its files: the next growth), and one below them (at start-up).
        with tempfile.TemporaryDirectory() as d:
            config = self.config(d, "  snapshot_every: 100\n")
            first = run(DAEMON, "--config", config, "--rounds", "150")
            self.assertEqual(first.returncode, 0, first.stdout[-2000:])
            db = os.path.join(d, "journal.db")
            files = lambda: os.path.getsize(db) + (os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0)
            before = self.chain_of(db)
            alive, code, out = self.run_under_file_size_limit(config, files() + 64 * 1024, 3)
            # Not killed by SIGXFSZ: tilted, with the cause named, and stopped cleanly.
            self.assertTrue(alive, out[-2000:])
            self.assertEqual(code, 0, out[-2000:])
            tilt = [line for line in out.splitlines() if "TILT: the journal cannot be written" in line]
            self.assertEqual(len(tilt), 1, out[-3000:])
            self.assertIn("file-size limit", tilt[0])
            self.assertIn("RLIMIT_FSIZE", tilt[0])
            after_play = self.chain_of(db)  # whole, and nothing journaled before is gone
            self.assertEqual(after_play[:len(before)], before)
            self.assertGreater(len(after_play), len(before))  # it played before it met the limit
            # At start-up, a limit below the journal's size: it names the cause and writes nothing.
            alive, code, out = self.run_under_file_size_limit(config, 4096, 1)
            self.assertIn("file-size limit of 4096 bytes", out)
            self.assertNotIn("round #", out)
            self.assertEqual(self.chain_of(db), after_play)
            # Without the limit it recovers and goes on: the rounds continue from the last one.
            last_round = max(r[3] for r in after_play if r[2] == "round.opened")
            again = run(DAEMON, "--config", config, "--rounds", "5")
            self.assertEqual(again.returncode, 0, again.stdout[-2000:])
            resumed = self.chain_of(db)
            self.assertEqual(resumed[:len(after_play)], after_play)
            opened = [r[3] for r in resumed[len(after_play):] if r[2] == "round.opened"]
            self.assertEqual(opened[0], last_round + 1)
            audit = run(CTL, "audit", "verify", "--journal", db, "--json")
            self.assertEqual(audit.returncode, 0, audit.stdout + audit.stderr)
            self.assertTrue(json.loads(audit.stdout)["ok"])

    def test_sigterm_stops_it_cleanly(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.Popen([DAEMON, "--config", self.config(d)], stdout=subprocess.PIPE, text=True)
            line = p.stdout.readline()
            while line and "round" not in line:
                line = p.stdout.readline()
            self.assertIn("round", line, "pitlinkd ended before dealing a round")
            p.terminate()
            out, _ = p.communicate(timeout=10)
        self.assertEqual(p.returncode, 0)
        self.assertIn("stopping after", out)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
