#!/usr/bin/env python3
"""Bonus jackpots (SAS AFT LP 72 type 11, issue 36) between the independent host (sas_host.py, its
own layouts from docs/sas.md) and the real pitlinkd on a pty pair. Below the table's jackpot
limit a bonus jackpot reaches the credit meter as a coin-out bonus does; from the jackpot limit
on it is paid by an attendant, as a jackpot win is: 51, LP 1B's amount, the station locked (no
bet, no further bonus: 87) across a restart, LP 94 resets it with no credit moved. The host's
own books (each bonus in 00AE/00B0) and the meters it reads agree; the hand-paid part is 0021
(attendant paid external bonus), out of 001E, in 0023, and the credit meter identity holds with
it. The journal holds the bonus credit and its hand-pay in one transaction.

Usage: test_sas_aft_bonus_jackpot.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sas import SasTableCase  # noqa: E402
from test_table import ok  # noqa: E402
import sas_host as sh  # noqa: E402

AFT_CONFIG = ("sas:\n", "sas:\n  aft:\n    enabled: true\n    transfer_limit: 100000\n")
JACKPOT_LIMIT = 120_000  # cents (1200.00); the transfer limit is 1000.00
JACKPOT, COIN_OUT = sh.AFT_BONUS_JACKPOT, sh.AFT_BONUS_COIN_OUT
MACHINE_PAID_BONUS, ATTENDANT_PAID_BONUS, TOTAL_HANDPAID = 0x001E, 0x0021, 0x0023
HANDPAY_PENDING, HANDPAY_RESET = 0x51, 0x52


class SasAftBonusJackpot(SasTableCase):
    def bonus(self, host, books, transaction_id, transfer_type, **amounts):
        """A bonus sent until answered (no registration: an all-zero key), read to its final
        status with 72 FF and acknowledged; booked by the host."""
        answer = sh.aft_request(host, 0x00, transaction_id, transfer_type, asset=1, **amounts)
        final = sh.aft_settle(host, transaction_id, answer)
        books.record(final, transfer_type)
        return final

    def meters(self, host):
        m = host.lp_6f(0, [0x000C, 0x000D, 0x0001, 0x00FA, 0x0000, 0x0004, 0x00FD, MACHINE_PAID_BONUS])
        host.sync()
        m.update(host.lp_6f(0, list(sh.AFT_IN_METERS + sh.AFT_BONUS_METERS + sh.AFT_OUT_METERS)))
        host.sync()
        m.update(host.lp_6f(0, list(sh.AFT_BONUS_COUNTS) + [ATTENDANT_PAID_BONUS, TOTAL_HANDPAID, 0x0002, 0x0003]))
        host.sync()
        return m

    def test_a_bonus_jackpot_from_the_jackpot_limit_is_hand_paid_and_reconciles(self):
        t, engine = self.start_table(AFT_CONFIG, cashier="  jackpot_limit: %d\n" % JACKPOT_LIMIT)
        host = t.hosts[1]
        books = sh.AftBooks()

        # 500.00 as a jackpot bonus, under the jackpot limit: to the credit meter.
        j1 = self.bonus(host, books, "J1", JACKPOT, cashable=50_000)
        self.assertEqual((j1.status, j1.cashable, j1.cumulative), (0x00, 50_000, (50_000, 0, 0)))
        t.wait_for(1, 0x69)
        self.assertNotIn(HANDPAY_PENDING, [e.code for e in t.events(1)])
        self.assertEqual(host.lp_74()["cashable"], 50_000)
        host.sync()

        # A partial or a restricted jackpot bonus is not a valid function (82): nothing moves.
        for ident, code, amounts in (("J-partial", 0x01, {"cashable": 200_000}),
                                     ("J-restricted", 0x00, {"restricted": 200_000})):
            bad = sh.aft_request(host, code, ident, JACKPOT, asset=1, **amounts)
            self.assertEqual((bad.status, bad.cashable, bad.restricted), (0x82, 0, 0))
            host.sync()

        # 1300.00 cashable + 200.00 non-restricted: at the jackpot limit, above the transfer limit,
        # taken whole and paid by hand; the credit meter stays.
        j2 = self.bonus(host, books, "J2", JACKPOT, cashable=130_000, nonrestricted=20_000)
        self.assertEqual((j2.status, j2.cashable, j2.nonrestricted), (0x00, 130_000, 20_000))
        self.assertEqual(j2.cumulative, (180_000, 0, 20_000))
        t.wait_for(1, HANDPAY_PENDING)
        t.events(1)
        self.assertEqual(host.lp_1b()["amount"], 150_000)
        host.sync()
        status = host.lp_74()
        self.assertEqual((status["cashable"], status["nonrestricted"]), (50_000, 0))
        self.assertEqual(status["available"] & 0x10, 0)  # no bonus while in a hand-pay
        host.sync()
        event = engine.wait_event(lambda e: e["event"] == "handpay" and e["station"] == 1)
        self.assertEqual((event["amount"], event["kind"]), (150_000, "bonus_jackpot"))
        self.assertEqual(engine.request("bet", station=1, spot="player", stake=100)["error"], "handpay_pending")

        # The lock survives a restart; another bonus is refused meanwhile (87).
        t.restart()
        engine = t.engine
        t.events(1)
        self.assertEqual(host.lp_1b()["amount"], 150_000)
        host.sync()
        busy = self.bonus(host, books, "J3", COIN_OUT, cashable=100)
        self.assertEqual(busy.status, 0x87)

        # What the host reads reconciles with its own books: every bonus in 00AE/00B0, the
        # hand-paid one in 0021 and 0023, 001E only what reached the credit meter.
        m = self.meters(host)
        for code, value in books.meters().items():
            if code in m:
                self.assertEqual(m[code], value, "meter %04X" % code)
        self.assertEqual((m[0x00AE], m[0x00B0], m[0x00AF], m[0x00B1]), (180_000, 20_000, 2, 1))
        self.assertEqual((m[ATTENDANT_PAID_BONUS], m[TOTAL_HANDPAID], m[MACHINE_PAID_BONUS]),
                         (150_000, 150_000, 50_000))
        self.assertEqual((m[0x0002], m[0x0003]), (0, 0))  # not a game's jackpot, not cancelled credits
        self.assertEqual(m[0x000C], 50_000)
        self.assertEqual(sh.identity_credits(m), m[0x000C])

        # LP 94 resets the hand-pay: 52, no credit moves, bonuses are taken again.
        self.assertEqual(host.lp_94(), 0x00)
        t.wait_for(1, HANDPAY_RESET)
        t.events(1)
        self.assertEqual(ok(self, engine.request("status"))["stations"][0]["handpay"], None)
        j4 = self.bonus(host, books, "J4", COIN_OUT, cashable=100)
        self.assertEqual(j4.status, 0x00)
        t.events(1)
        self.assertEqual(host.lp_74()["cashable"], 50_100)
        host.sync()

        # The journal: J2's bonus and its hand-pay in one transaction (same time), the lock kind.
        rows = t.daemon.rows("SELECT at_ms, json_extract(body, '$.reason'), json_extract(body, '$.amount'), "
                             "coalesce(json_extract(body, '$.nonrestricted'), 0) FROM record "
                             "WHERE kind = 'credit' AND json_extract(body, '$.ref') = 'aft J2' ORDER BY seq")
        self.assertEqual([r[1:] for r in rows], [("bonus", 150_000, 20_000), ("bonus_handpay", -150_000, -20_000)])
        self.assertEqual(rows[0][0], rows[1][0])
        locks = t.daemon.rows("SELECT json_extract(body, '$.kind'), json_extract(body, '$.amount'), "
                              "json_extract(body, '$.off_credits') FROM record WHERE kind = 'handpay.pending'")
        self.assertEqual(locks, [("bonus_jackpot", 150_000, 1)])
        resets = t.daemon.rows("SELECT json_extract(body, '$.kind') FROM record WHERE kind = 'handpay.reset'")
        self.assertEqual(resets, [("bonus_jackpot",)])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
