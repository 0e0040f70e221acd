#!/usr/bin/env python3
"""The shoe goes on after a restart (issue 33), through the real pitlinkd on a temporary directory.

A reader table's physical shoe stays in the shoe box when the controller restarts: after a
SIGKILL, and after a power cut (pitlinkd_power_cut: the same daemon, whose journal loses its
unsynced writes when SIGUSR2 cuts the power), the table goes on with the same shoe: the next card
is checked against what is left, the roads go on from the cell they had, `status` shows the same
shoe and cards left. One of them has a journal rotation between the shoe's start and the restart.
An RNG table shuffles a new shoe at every start and says so. What is left is counted here from
the cards this test dealt, not taken from pitlinkd.

Usage: test_shoe_resume.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EngineClient  # noqa: E402
from verify_journal import segment_files  # noqa: E402
from test_table import Daemon, ok  # noqa: E402

CTL = os.path.join(BUILD, "daemon", "ctl", "pitlinkctl")
POWER_CUT = os.path.join(BUILD, "tests", "integration", "pitlinkd_power_cut")
DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]

# Coups in deal order (P1 B1 P2 B2 ...), all decided on four cards (a natural), and the mark each
# leaves on the bead plate: the winner, then whether there is a Player / Banker pair.
COUP_P = "9C 2S KH 4C"   # Player 9 (natural), Banker 6
COUP_B = "2C 9H 4D KC"   # Player 6, Banker 9 (natural)
COUP_T = "8S 8H QD QC"   # Player 8, Banker 8: a tie of naturals
COUP_B2 = "AH 5S KS 3C"  # Player 1, Banker 8 (natural)


def error(reply):
    return None if reply["ok"] else reply["error"]


def error_of(reply):
    return (reply.get("error"), reply.get("message", ""))


def deal_round(t, c, cards):
    ok(t, c.request("open_round"))
    ok(t, c.request("close_bets"))
    for card in cards.split():
        ok(t, c.request("card", card=card))
    return c.wait_event(lambda e: e["event"] == "result" and not e.get("voided"))


def deal_rounds(t, c, coups, left):
    """Deals each (cards, mark) as a round, takes its cards out of `left`; returns the marks."""
    marks = []
    for coup, mark in coups:
        deal_round(t, c, coup)
        for card in coup.split():
            left.remove(card)
        marks.append(mark)
    return marks


def start_shoe(t, c, cut, burn):
    shoe = ok(t, c.request("new_shoe"))["shoe"]
    ok(t, c.request("cut", cards_behind=cut))
    ok(t, c.request("burn", cards=burn.split()))
    return shoe


class ShoeResume(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def beads(self, client):
        """The bead plate's marks, and the whole roads answer."""
        roads = ok(self, client.request("roads"))
        return [(b["result"], b["player_pair"], b["banker_pair"], b["natural"]) for b in roads["bead_plate"]], roads

    def pad_the_journal(self, c, megabytes):
        """Pipelined void requests between rounds, each refused (no_round) and journaled with its
        reason: about `megabytes` of records, so that the next round's opening rotates the segment."""
        reason = "padding " + "x" * 490  # the longest reason the engine link takes is 500 characters
        count = megabytes * 1024 * 1024 // 500
        first = c.next_id
        lines = []
        for i in range(count):
            lines.append(json.dumps({"id": first + i, "op": "void_round", "reason": reason}))
        c.next_id += count
        c.send_raw(("\n".join(lines) + "\n").encode())
        for i in range(count):
            reply = c.reply_to(first + i)
            self.assertEqual(error(reply), "no_round", reply)

    def check_resumed(self, c, shoe, left, rounds_in_shoe, marks):
        """status and roads after the restart are those of the shoe as it was."""
        status = ok(self, c.request("status"))
        self.assertEqual((status["shoe"], status["round_in_shoe"], status["cards_left"], status["shoe_resumed"]),
                         (shoe, rounds_in_shoe, len(left), True))
        self.assertEqual([m[0] for m in self.beads(c)[0]], marks)

    def test_a_reader_shoe_goes_on_after_sigkill_with_a_rotation_between_its_start_and_the_restart(self):
        daemon = Daemon(self.d, extra="  segment_max_mb: 1\n", decks=1)
        c = daemon.start()
        left = list(DECK)
        shoe = start_shoe(self, c, 10, "3D 9S 2H KD")  # a three turned: three more burned
        for card in "3D 9S 2H KD".split():
            left.remove(card)
        marks = deal_rounds(self, c, ((COUP_P, "P"), (COUP_B, "B")), left)
        self.pad_the_journal(c, 2)
        result = deal_round(self, c, COUP_T)  # its opening rotates the journal: a round is never split
        for card in COUP_T.split():
            left.remove(card)
        marks.append("T")
        self.assertEqual((result["shoe"], result["round_in_shoe"], result["cards_left"]), (shoe, 3, len(left)))
        before_beads, before_roads = self.beads(c)
        # Round 4 is being dealt when the process is killed: two cards out of the shoe.
        ok(self, c.request("open_round"))
        ok(self, c.request("close_bets"))
        for card in "AS 5H".split():
            ok(self, c.request("card", card=card))
            left.remove(card)
        daemon.kill()
        files = segment_files(daemon.db)
        self.assertEqual(len(files), 2, files)
        started_in = daemon.rows("SELECT count(*) FROM record WHERE kind = 'shoe.started'")[0][0]
        self.assertEqual(started_in, 0, "the shoe started in the sealed segment, before the rotation")

        c = daemon.start()
        # Round 4 was voided at the start (incomplete); its two cards stay out of the shoe.
        self.check_resumed(c, shoe, left, 4, marks)
        after_beads, after_roads = self.beads(c)
        self.assertEqual(after_beads, before_beads)
        self.assertEqual(after_roads, before_roads)  # the big road and derived roads from the same cells
        # The nine of clubs was dealt in round 1: a second one cannot come out of one deck.
        opened = ok(self, c.request("open_round"))
        ok(self, c.request("close_bets"))
        refused = c.request("card", card="9C")
        self.assertEqual(error(refused), "card_refused")
        self.assertIn("card 1 (9C", refused["message"])
        self.assertIn("no 9C is left in the shoe", refused["message"])
        voided = c.wait_event(lambda e: e["event"] == "result" and e.get("voided"))
        self.assertEqual(voided["round"], opened["round"])
        # A card still in the shoe is dealt, and the roads go on from the cell they had.
        result = deal_round(self, c, COUP_B2)
        for card in COUP_B2.split():
            left.remove(card)
        marks.append("B")
        self.assertEqual((result["shoe"], result["round_in_shoe"], result["cards_left"]), (shoe, 6, len(left)))
        self.assertEqual([m[0] for m in self.beads(c)[0]], marks)
        self.assertEqual(self.beads(c)[0][:3], before_beads)
        code, out = daemon.terminate()
        self.assertEqual(code, 0, out)
        # An inspector's audit: each seal and what the new segment carried over, the shoe included.
        audit = subprocess.run([CTL, "audit", "verify", "--journal", daemon.db, "--json"], capture_output=True,
                               text=True, timeout=60)
        self.assertEqual(audit.returncode, 0, audit.stdout + audit.stderr)
        self.assertTrue(json.loads(audit.stdout)["ok"])
        carried = json.loads(daemon.rows("SELECT body FROM record WHERE kind = 'segment.carried'")[0][0])
        shoe_carried = carried["table"]["shoe"]
        self.assertEqual((shoe_carried["shoe"], shoe_carried["round_in_shoe"], shoe_carried["cut_cards_behind"],
                          shoe_carried["burned"], shoe_carried["results"]), (shoe, 2, 10, True, ["P9", "B9"]))
        self.assertEqual(sum(shoe_carried["left"].values()), 52 - 4 - 8)

    def test_a_reader_shoe_goes_on_after_a_power_cut(self):
        daemon = Daemon(self.d, decks=1)
        daemon.proc = subprocess.Popen([POWER_CUT, "--config", daemon.config], stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True,
                                       env=dict(os.environ, PITLINK_POWER_CUT_SEED="33"))
        c = EngineClient(daemon.socket)
        left = list(DECK)
        shoe = start_shoe(self, c, 20, "AC 7D")  # an ace turned: one more burned
        left.remove("AC")
        left.remove("7D")
        marks = deal_rounds(self, c, ((COUP_B, "B"), (COUP_P, "P")), left)
        ok(self, c.request("open_round"))
        ok(self, c.request("close_bets"))
        for card in "AS 5H 3S".split():  # acknowledged: committed before the answer
            ok(self, c.request("card", card=card))
            left.remove(card)
        before_beads, _ = self.beads(c)
        daemon.proc.send_signal(signal.SIGUSR2)
        out = daemon.proc.communicate(timeout=10)[0]
        self.assertEqual(daemon.proc.returncode, 137, out)
        self.assertIn("power cut", out)

        c = daemon.start()  # the real pitlinkd on what the power cut left
        self.check_resumed(c, shoe, left, 3, marks)
        self.assertEqual(self.beads(c)[0], before_beads)
        ok(self, c.request("open_round"))
        ok(self, c.request("close_bets"))
        refused = c.request("card", card="AC")  # burned at the shoe's start
        self.assertEqual(error(refused), "card_refused")
        self.assertIn("card 1 (AC", refused["message"])
        self.assertIn("no AC is left in the shoe", refused["message"])
        result = deal_round(self, c, COUP_B2)
        for card in COUP_B2.split():
            left.remove(card)
        self.assertEqual((result["shoe"], result["round_in_shoe"], result["cards_left"]), (shoe, 5, len(left)))
        daemon.terminate()

    def test_a_restart_after_the_shoes_last_round_still_wants_a_new_shoe(self):
        daemon = Daemon(self.d, decks=1)
        c = daemon.start()
        start_shoe(self, c, 40, "2H 3H 5H")  # a two turned: two more burned; 49 left
        deal_round(self, c, COUP_B)  # 45 left: more than the 40 behind the cut
        result = deal_round(self, c, COUP_P)  # 41 left
        self.assertFalse(result["cut_card_out"])
        result = deal_round(self, c, COUP_B2)  # 37 left: the cut card is out, the shoe's last round
        self.assertTrue(result["cut_card_out"])
        daemon.kill()
        c = daemon.start()
        status = ok(self, c.request("status"))
        self.assertEqual((status["cards_left"], status["shoe_resumed"]), (37, True))
        self.assertEqual(error(c.request("open_round")), "no_shoe")
        self.assertEqual(ok(self, c.request("new_shoe"))["shoe"], status["shoe"] + 1)
        daemon.terminate()
        ended = daemon.rows("SELECT json_extract(body, '$.shoe'), json_extract(body, '$.rounds') FROM record "
                            "WHERE kind = 'shoe.ended'")
        self.assertEqual(ended, [(status["shoe"], 3)])

    def test_an_rng_table_shuffles_a_new_shoe_at_every_start_and_says_so(self):
        daemon = Daemon(self.d)
        daemon.rewrite_config([("source: reader", "source: rng"), ("bets_open_ms: 60000", "bets_open_ms: 30")])
        r = subprocess.run([DAEMON_PATH, "--config", daemon.config, "--rounds", "4"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        first = daemon.rows("SELECT json_extract(body, '$.shoe'), json_extract(body, '$.reason') FROM record "
                            "WHERE kind = 'shoe.started'")
        self.assertEqual(first, [(1, "first")])
        daemon.rewrite_config([("bets_open_ms: 30", "bets_open_ms: 60000")])
        c = daemon.start()
        status = ok(self, c.request("status"))
        self.assertEqual((status["shoe"], status["shoe_reason"], status["shoe_resumed"], status["round_in_shoe"]),
                         (2, "restart", False, 1))
        roads = ok(self, c.request("roads"))
        self.assertEqual((roads["shoe"], roads["bead_plate"], roads["statistics"]["rounds"]), (2, [], 0))
        self.assertEqual(status["cards_left"], 416 - self.burned(daemon, 2))
        daemon.terminate()
        started = daemon.rows("SELECT json_extract(body, '$.shoe'), json_extract(body, '$.reason') FROM record "
                              "WHERE kind = 'shoe.started' ORDER BY seq")
        self.assertEqual(started, [(1, "first"), (2, "restart")])

    @staticmethod
    def burned(daemon, shoe):
        # The status answers from the table's state, which takes in a shoe.started as soon as it is
        # submitted; its record is read once it is durable (a loaded machine commits later).
        end = time.monotonic() + 10
        while True:
            rows = daemon.rows("SELECT json_extract(body, '$.burned') FROM record WHERE kind = 'shoe.started' "
                               "AND json_extract(body, '$.shoe') = ?", shoe)
            if rows or time.monotonic() > end:
                return rows[0][0]
            time.sleep(0.05)


DAEMON_PATH = os.path.join(BUILD, "daemon", "app", "pitlinkd")

if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
