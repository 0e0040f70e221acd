#!/usr/bin/env python3
"""Legacy bonusing (SAS LP 8A, 90, 9A and exception 7C; issue 36) between the independent host
(sas_host.py, its own layouts from docs/sas.md "Legacy bonusing") and the real pitlinkd on pty
pairs: A0 offers it; the host awards a bonus of each tax status (deductible, non-deductible, wager
match), hears 7C (a byte, then a real-time event with LP 90's data), reads LP 90 and acknowledges
it (zeros after), reads LP 9A for game 0 and for a game; a busy station (shut down by LP 01, locked
for a hand-pay) says so and the refusal is journaled; the meter identity holds with its legacy
bonus term and 001E; after a restart LP 90 and LP 9A answer as before; with legacy bonusing off
none of its polls is answered and A0 does not offer it.

Usage: test_sas_legacy_bonus.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sas import CTL, SasTableCase  # noqa: E402
from test_table import BANKER_WINS, ok, play_round  # noqa: E402
import sas_host as sh  # noqa: E402

LEGACY_ON = ("sas:\n", "sas:\n  legacy_bonus: true\n")
DEDUCTIBLE, NON_DEDUCTIBLE, WAGER_MATCH = 0x00, 0x01, 0x02
LEGACY_BONUS_AWARDED = 0x7C
# LP 6F codes of the identity (protocols/sas/README.md "Meters"; AFT is off here, its terms 0):
# current credits, ticket in, coin out, keyed on, coin in, cancelled credits, keyed off; and 001E.
CURRENT, TICKET_IN, COIN_OUT, KEYED_ON, COIN_IN, CANCELLED, KEYED_OFF = sh.IDENTITY_METERS
MACHINE_PAID_BONUS = 0x001E
ZEROS = {"multiplier": 0, "multiplied_win": 0, "tax_status": 0, "bonus": 0}


def lp_90_of(tax_status, credits):
    return {"multiplier": 0, "multiplied_win": 0, "tax_status": tax_status, "bonus": credits}


class SasLegacyBonus(SasTableCase):
    def start(self):
        return self.start_table(LEGACY_ON, stations=(1, 2))

    def identity(self, host, legacy_credits):
        """Reads the identity's meters and 001E; checks that they balance with the legacy term."""
        m = host.lp_6f(0, [CURRENT, TICKET_IN, COIN_OUT, KEYED_ON, COIN_IN, CANCELLED, KEYED_OFF, MACHINE_PAID_BONUS])
        host.sync()
        self.assertEqual(m[CURRENT], m[TICKET_IN] + m[COIN_OUT] + m[KEYED_ON] + legacy_credits
                         - m[COIN_IN] - m[CANCELLED] - m[KEYED_OFF], m)
        self.assertEqual(m[MACHINE_PAID_BONUS], legacy_credits)  # no AFT bonus: legacy only
        return m

    def legacy_meters(self, host, game=0):
        meters = host.lp_9a(game)
        host.sync()
        self.assertEqual(meters["game"], game)
        return meters

    def test_awards_of_each_tax_status_7c_lp_90_lp_9a_busy_refusals_and_a_restart(self):
        t, engine = self.start()
        host, other = t.hosts[1], t.hosts[2]
        features = host.lp_a0()
        self.assertTrue(features["legacy_bonus"])
        self.assertFalse(features["aft"] or features["aft_bonus"])
        host.sync()
        self.assertEqual(host.lp_90(), ZEROS)  # nothing paid yet
        host.sync()

        # Play first: a bonus is a term of its own, beside coin in and coin out.
        ok(self, engine.request("ticket_in", station=1, validation="71", amount=10_000))
        ok(self, engine.request("new_shoe"))
        play_round(self, engine, [(1, "banker", 1_000)], BANKER_WINS)  # pays back 1,950
        t.events(1)

        # Deductible, 500 credits: ACK at once; a repeat of the same poll before any other is the
        # link's implied NACK (the same ACK again), never a second award.
        self.assertTrue(host.lp_8a(500, DEDUCTIBLE))
        self.assertTrue(host.lp_8a(500, DEDUCTIBLE))
        self.assertEqual(t.wait_for(1, LEGACY_BONUS_AWARDED).code, LEGACY_BONUS_AWARDED)  # once durable
        self.assertEqual(host.lp_90(), lp_90_of(DEDUCTIBLE, 500))
        self.assertEqual(host.lp_90(), lp_90_of(DEDUCTIBLE, 500))  # an implied NACK: the same answer
        host.sync()  # the implied ACK of that answer
        self.assertEqual(host.lp_90(), ZEROS)
        host.sync()

        # Non-deductible, 70 credits, with real-time events: 7C carries LP 90's ten bytes.
        host.lp_0e(True)
        host.sync()
        self.assertTrue(host.lp_8a(70, NON_DEDUCTIBLE))
        event = t.wait_for(1, LEGACY_BONUS_AWARDED)
        self.assertTrue(event.rte)
        self.assertEqual(event.data.hex(" "), "00 00 00 00 00 01 00 00 00 70")
        host.lp_0e(False)
        host.sync()
        self.assertEqual(host.lp_90(), lp_90_of(NON_DEDUCTIBLE, 70))
        host.sync()

        # Wager match, 3 credits: left unread for the restart below.
        self.assertTrue(host.lp_8a(3, WAGER_MATCH))
        t.wait_for(1, LEGACY_BONUS_AWARDED)
        self.assertEqual(t.events(1), [])

        # LP 9A: game 0 the station's lifetime meters, game 1 (its one game) zeros, game 2 none.
        self.assertEqual(self.legacy_meters(host), {"game": 0, "deductible": 500, "non_deductible": 70,
                                                    "wager_match": 3})
        self.assertEqual(self.legacy_meters(host, 1), {"game": 1, "deductible": 0, "non_deductible": 0,
                                                       "wager_match": 0})
        with self.assertRaises(sh.SasNoAnswer):
            host.lp_9a(2)
        host.sync()
        m = self.identity(host, 573)
        self.assertEqual(m[CURRENT], 10_000 - 1_000 + 1_950 + 573)
        self.assertEqual(host.lp_1a_current_credits(), 11_523)
        host.sync()

        # Busy: a station shut down by the host (LP 01), then one locked for a hand-pay (its
        # cash-out not validated in time). Nothing is credited; each refusal is journaled.
        other.disable_play()
        other.sync()
        self.assertFalse(other.lp_8a(100, DEDUCTIBLE))
        other.sync()
        other.enable_play()
        other.sync()
        ok(self, engine.request("ticket_in", station=2, validation="72", amount=900))
        self.assertEqual(engine.request("cash_out", station=2)["data"]["handpay"], 900)
        self.assertFalse(other.lp_8a(200, WAGER_MATCH))
        other.sync()
        self.assertEqual(self.legacy_meters(other), {"game": 0, "deductible": 0, "non_deductible": 0,
                                                     "wager_match": 0})
        refused = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'request.refused' AND station = 2 ORDER BY seq")]
        self.assertEqual([(r["op"], r["error"], r["amount"], r["tax_status"]) for r in refused],
                         [("legacy_bonus", "host_disabled", 100, "deductible"),
                          ("legacy_bonus", "handpay_pending", 200, "wager_match")])

        # The journal: one cashable credit per award, with its tax status; two LP 90 reads.
        credits = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'credit' AND json_extract(body, '$.reason') = 'legacy_bonus' "
            "ORDER BY seq")]
        self.assertEqual([(c["amount"], c["tax_status"]) for c in credits],
                         [(500, "deductible"), (70, "non_deductible"), (3, "wager_match")])
        self.assertFalse(any("restricted" in c or "nonrestricted" in c for c in credits))
        self.assertEqual(len(t.daemon.rows("SELECT seq FROM record WHERE kind = 'sas.legacy_bonus_read'")), 2)
        meters = subprocess.run([CTL, "meters", "--socket", t.daemon.control], capture_output=True, text=True,
                                check=True).stdout
        self.assertIn("legacy_bonus_deductible 500, legacy_bonus_non_deductible 70, legacy_bonus_wager_match 3",
                      meters)

        # After a restart: LP 90 still reports the unread wager-match bonus, LP 9A the same meters.
        engine.close()
        t.engine = None
        engine = t.restart()
        t.events(1)
        self.assertEqual(host.lp_90(), lp_90_of(WAGER_MATCH, 3))
        host.sync()
        self.assertEqual(host.lp_90(), ZEROS)  # acknowledged now
        host.sync()
        self.assertEqual(self.legacy_meters(host), {"game": 0, "deductible": 500, "non_deductible": 70,
                                                    "wager_match": 3})
        self.identity(host, 573)
        self.assertEqual(len(t.daemon.rows("SELECT seq FROM record WHERE kind = 'sas.legacy_bonus_read'")), 3)

        # And again: the read survived, LP 90 stays zeros. Then legacy bonusing off: none of its
        # polls is answered, A0 does not offer it; the meters stay (001E among them).
        engine.close()
        t.engine = None
        engine = t.restart()
        t.events(1)
        self.assertEqual(host.lp_90(), ZEROS)
        host.sync()
        engine.close()
        t.engine = None
        t.daemon.terminate()
        t.daemon.rewrite_config([("  legacy_bonus: true\n", "  legacy_bonus: false\n")])
        t.start()
        t.events(1)
        self.assertFalse(host.lp_a0()["legacy_bonus"])
        host.sync()
        for poll in (lambda: host.lp_8a(10, DEDUCTIBLE), host.lp_90, host.lp_9a):
            with self.assertRaises(sh.SasNoAnswer):
                poll()
            host.sync()
        self.identity(host, 573)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
