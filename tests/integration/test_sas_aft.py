#!/usr/bin/env python3
"""Cashless transfers (SAS AFT, issue 36) between the independent host (sas_host.py, its own
layouts from docs/sas.md) and the real pitlinkd on a pty pair: A0 and LP 74 advertise AFT, LP 73
registers the station, LP 72 moves money to and from it by credit type (cashable, restricted,
non-restricted) and awards a bonus; the host keeps its own wallet and transaction log, repeats
requests whose answer it did not get, interrogates each transfer to its final status and
acknowledges it. Then the host reconciles: its wallet change with the AFT meters (6F) and the
cumulative meters of each answer, LP 74's balances with 000C and 001B, the history (absolute
and relative positions) after a restart, and the journal holds one transfer per successful ID; its
inspector views (schema 5: aft_transfers, station_statement), read with sqlite3 alone, list each
transfer as the host's log has it.

Usage: test_sas_aft.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import datetime
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sas import SasTableCase  # noqa: E402
from test_table import PLAYER_WINS, ok, play_round  # noqa: E402
import sas_host as sh  # noqa: E402

AFT_CONFIG = ("sas:\n", "sas:\n  aft:\n    enabled: true\n    transfer_limit: 100000\n")
KEY = bytes(range(1, 21))
IN_HOUSE_TO_STATION, BONUS_COIN_OUT, TO_HOST = sh.AFT_TO_STATION, sh.AFT_BONUS_COIN_OUT, sh.AFT_TO_HOST
# LP 6F codes: current credits, restricted played, non-restricted played, current restricted, AFT.
CURRENT, R_PLAYED, N_PLAYED, CURRENT_R = 0x000C, 0x0019, 0x001A, 0x001B
AFT_IN, AFT_BONUS, AFT_OUT = sh.AFT_IN_METERS, sh.AFT_BONUS_METERS, sh.AFT_OUT_METERS


def expiry(when, days):
    """LP 74's restricted expiration (MMDDYYYY, as its 8 digits) of credits expiring `days` after
    the local date of a transfer's answer `when` (0000NNNN in the request)."""
    d = when.date() + datetime.timedelta(days=days)
    return d.month * 1000000 + d.day * 10000 + d.year


class SasAft(SasTableCase):
    def start(self):
        t, engine = self.start_table(AFT_CONFIG)
        return t, t.hosts[1], engine

    def send(self, host, code, transaction_id, transfer_type, **amounts):
        """Sends the request until the station answers it: it answers once the transfer's record is
        durable, and a repeat with the same ID is the same transfer."""
        return sh.aft_request(host, code, transaction_id, transfer_type, asset=1, key=KEY, **amounts)

    def transfer(self, host, wallet, code, transaction_id, transfer_type, **amounts):
        """send(), then interrogates until the status is final, then acknowledges: FF, another poll
        (sas_host.aft_settle checks that every answer names this transaction and keeps its status)."""
        final = sh.aft_settle(host, transaction_id, self.send(host, code, transaction_id, transfer_type, **amounts))
        wallet.record(final, transfer_type)
        return final

    def drain_69(self, t):
        t.wait_for(1, 0x69)
        t.events(1)

    def test_money_moves_both_ways_by_credit_type_exactly_once_and_reconciles(self):
        t, host, engine = self.start()
        wallet = sh.AftBooks()
        features = host.lp_a0()
        self.assertTrue(features["aft"] and features["aft_bonus"])
        self.assertFalse(features["legacy_bonus"])
        host.sync()
        status = host.lp_74()
        # Asset 1 (asset_base 0 + station); not locked; to, from and bonus (10, not 08) available;
        # AFT, in-house and bonus enabled, partial to the host allowed, not registered.
        self.assertEqual((status["asset"], status["lock"], status["available"], status["aft_status"],
                          status["max_index"], status["limit"]), (1, 0xFF, 0x13, 0xB2, 0x7F, 100000))

        # Registration: initialise, register, read; another asset number cancels it (6E).
        self.assertEqual(host.lp_73(0x00, 1, KEY, 7)["status"], 0x00)
        host.sync()
        self.assertEqual(host.lp_73(0x01, 1, KEY, 7)["status"], 0x01)
        host.sync()
        read = host.lp_73(0xFF)
        self.assertEqual((read["status"], read["asset"], read["key"], read["pos_id"]), (0x01, 1, KEY, 7))
        host.sync()
        self.assertEqual(host.lp_73(0x01, 2, KEY, 7)["status"], 0x80)
        t.wait_for(1, 0x6E)  # raised once journaled
        self.assertEqual(host.lp_73(0x00, 1, KEY, 7)["status"], 0x00)
        host.sync()
        self.assertEqual(host.lp_73(0x01, 1, KEY, 7)["status"], 0x01)
        host.sync()
        self.assertEqual(host.lp_74()["aft_status"], 0xBA)  # registered too

        # In house to the station: 50.00 cashable, 20.00 restricted (pool 3, 30 days), 10.00 non-restricted.
        t1 = self.transfer(host, wallet, 0x00, "T1", IN_HOUSE_TO_STATION, cashable=5000, restricted=2000,
                           nonrestricted=1000, expiration=30, pool=3)
        self.assertEqual((t1.status, t1.cashable, t1.restricted, t1.nonrestricted), (0x00, 5000, 2000, 1000))
        self.assertEqual((t1.expiration, t1.pool, t1.cumulative), (30, 3, (5000, 2000, 1000)))
        self.assertIsNotNone(t1.when)
        self.drain_69(t)
        status = host.lp_74()
        # LP 74 reports the date they expire at (30 days after the transfer's local date).
        self.assertEqual((status["cashable"], status["restricted"], status["nonrestricted"], status["pool"],
                          status["expiration"]), (5000, 2000, 1000, 3, expiry(t1.when, 30)))
        host.sync()
        # The same request again: the ID is the last transfer's (81), nothing moves a second time.
        again = self.send(host, 0x00, "T1", IN_HOUSE_TO_STATION, cashable=5000)
        self.assertEqual((again.transaction_id, again.status, again.cashable), ("T1", 0x81, 0))
        host.sync()
        self.assertEqual(host.lp_74()["cashable"], 5000)
        host.sync()

        # A bet takes restricted credits first, then non-restricted; the win is cashable.
        ok(self, engine.request("new_shoe"))
        play_round(self, engine, [(1, "player", 2500)], PLAYER_WINS)  # 2000 restricted + 500 non-restricted
        meters = host.lp_6f(0, [CURRENT, R_PLAYED, N_PLAYED, CURRENT_R])
        self.assertEqual(meters, {CURRENT: 10500, R_PLAYED: 2000, N_PLAYED: 500, CURRENT_R: 0})
        host.sync()
        status = host.lp_74()
        self.assertEqual((status["cashable"], status["restricted"], status["nonrestricted"]), (10000, 0, 500))
        self.assertEqual(status["cashable"] + status["restricted"] + status["nonrestricted"], meters[CURRENT])
        self.assertEqual(status["restricted"], meters[CURRENT_R])
        host.sync()
        t.events(1)

        # A lock (LP 74 00): taken at once while the station is idle (6F); no bet meanwhile.
        locked = host.lp_74(0x00, 0x01 | 0x08, 500)  # to the station and a bonus (08 here, 10 in the answer)
        self.assertEqual((locked["lock"], locked["available"] & 0x11), (0x00, 0x11))
        t.wait_for(1, 0x6F)
        ok(self, engine.request("open_round"))
        refused = engine.request("bet", station=1, spot="banker", stake=100)
        self.assertEqual((refused["ok"], refused["error"]), (False, "aft_locked"))
        host.sync()
        self.assertEqual(host.lp_74(0x80)["lock"], 0xFF)  # cancelled
        ok(self, engine.request("bet", station=1, spot="banker", stake=100))
        # With a stake in play a lock stays pending until the round settles.
        host.sync()
        self.assertEqual(host.lp_74(0x00, 0x02, 3000)["lock"], 0x40)
        ok(self, engine.request("close_bets"))
        for card in PLAYER_WINS.split():
            ok(self, engine.request("card", card=card))
        engine.wait_event(lambda e: e["event"] == "result")
        t.wait_for(1, 0x6F)
        host.sync()
        self.assertEqual(host.lp_74(0x80)["lock"], 0xFF)
        t.events(1)
        host.sync()
        status = host.lp_74()
        # The banker 100 took non-restricted credits (restricted first: none left) and lost.
        self.assertEqual((status["cashable"], status["restricted"], status["nonrestricted"]), (10000, 0, 400))
        host.sync()

        # To the host: 30.00 cashable; a bonus of 5.00; a partial request for more than is held.
        t2 = self.transfer(host, wallet, 0x00, "T2", TO_HOST, cashable=3000)
        self.assertEqual((t2.status, t2.cashable, t2.cumulative), (0x00, 3000, (3000, 0, 0)))
        t3 = self.transfer(host, wallet, 0x00, "T3", BONUS_COIN_OUT, cashable=500)
        self.assertEqual((t3.status, t3.cumulative), (0x00, (500, 0, 0)))
        t4 = self.transfer(host, wallet, 0x01, "T4", TO_HOST, cashable=9000, nonrestricted=900)
        self.assertEqual((t4.status, t4.cashable, t4.nonrestricted), (0x01, 7500, 400))  # all that was held
        # A full transfer to the host of more than is held moves nothing (82).
        t5 = self.transfer(host, wallet, 0x00, "T5", TO_HOST, cashable=100)
        self.assertEqual((t5.status, t5.cashable), (0x82, 0))
        t.events(1)

        # While one is unacknowledged another is not taken (C0).
        self.assertEqual(self.send(host, 0x00, "T6", IN_HOUSE_TO_STATION, cashable=100).transaction_id, "T6")
        host.sync()
        refused = host.lp_72(0x00, "T7", transfer_type=0x00, asset=1, key=KEY, cashable=100)
        self.assertEqual((refused.position, refused.status), (0x00, 0xC0))
        host.sync()
        final = host.lp_72_interrogate()
        self.assertEqual((final.transaction_id, final.status), ("T6", 0x00))
        host.sync()
        wallet.record(final, IN_HOUSE_TO_STATION)
        self.drain_69(t)

        # Reconcile: the AFT meters are the host's sums; LP 74 is what the books say is left.
        meters = host.lp_6f(0, list(AFT_IN) + list(AFT_BONUS) + list(AFT_OUT))
        self.assertEqual([meters[c] for c in AFT_IN], wallet.to_station)
        self.assertEqual([meters[c] for c in AFT_BONUS], wallet.bonus)
        self.assertEqual([meters[c] for c in AFT_OUT], wallet.to_host)
        counts = host.lp_af(0, [0x00A1, 0x00A3, 0x00A5, 0x00AF, 0x00B9, 0x00BD])
        self.assertEqual(counts, {0x00A1: 2, 0x00A3: 1, 0x00A5: 1, 0x00AF: 1, 0x00B9: 2, 0x00BD: 1})
        host.sync()
        status = host.lp_74()
        self.assertEqual((status["cashable"], status["restricted"], status["nonrestricted"]), (100, 0, 0))

        # pitlinkctl status shows the station's AFT state: registered, not locked, T6 acknowledged.
        self.assertEqual(t.status()[1]["aft"], {"registration": 0x01, "lock": 0xFF, "history": 5,
                                                "current": {"id": "T6", "status": 0x00, "acknowledged": True},
                                                "host_cashout": {"mode": 0, "pending": False}})

        # After a restart: the registration, the last transfer and the history (01-7F, FF newest).
        engine.close()
        t.engine = None
        t.restart()
        t.events(1)
        self.assertEqual(host.lp_73(0xFF)["status"], 0x01)
        host.sync()
        last = host.lp_72_interrogate(status_only=True)
        self.assertEqual((last.transaction_id, last.status), ("T6", 0x00))
        host.sync()
        newest = host.lp_72_interrogate(0xFF)
        host.sync()
        first = host.lp_72_interrogate(0x01)
        host.sync()
        before = host.lp_72_interrogate(0xFE)
        host.sync()
        self.assertEqual((newest.transaction_id, first.transaction_id, before.transaction_id), ("T6", "T1", "T4"))
        self.assertEqual((first.position, newest.position), (0x01, 0x05))  # T1 T2 T3 T4 T6; T5 moved nothing
        self.assertEqual(host.lp_72_interrogate(0x06).status, 0xFF)  # nothing there yet
        host.sync()

        # The journal: one ended transfer per successful ID, and its credits once.
        rows = t.daemon.rows("SELECT body FROM record WHERE kind = 'aft.transfer' ORDER BY seq")
        ended = [json.loads(b) for (b,) in rows if json.loads(b)["status"] in (0, 1)]
        self.assertEqual([b["id"] for b in ended], ["T1", "T2", "T3", "T4", "T6"])
        credits = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'credit' AND json_extract(body, '$.reason') IN "
            "('transfer_in', 'transfer_out', 'bonus') ORDER BY seq")]
        self.assertEqual(sum(c["amount"] for c in credits),
                         sum(wallet.to_station) + sum(wallet.bonus) - sum(wallet.to_host))
        self.assertEqual([c["ref"] for c in credits], ["aft T1", "aft T2", "aft T3", "aft T4", "aft T6"])
        self.check_inspector_views(t, wallet)

    def check_inspector_views(self, t, wallet):
        """The journal's inspector views (schema 5), read with sqlite3 alone, against the host's own
        log: aft_transfers has each successful ID once, of its type, status and amounts moved by
        credit type, acknowledged, with the credit that moved it (the statement's row of that
        transfer, of the amount the host booked); each refusal the host booked with its status, and
        the repeat of T1 refused at once (81: the host books only final answers of its own IDs)."""
        rows = t.daemon.rows(
            "SELECT transfer_id, type, type_name, status, outcome, moved_cashable, moved_restricted, "
            "moved_nonrestricted, acknowledged, credit_seq, requested_seq, ended_seq FROM aft_transfers "
            "WHERE station = 1 ORDER BY coalesce(requested_seq, ended_seq)")
        names = {IN_HOUSE_TO_STATION: "in_house_to_station", BONUS_COIN_OUT: "bonus_coin_out",
                 TO_HOST: "in_house_to_host"}
        moved = [r for r in rows if r[4] in ("full", "partial")]
        booked = [i for i, a in wallet.log.items() if a.status in sh.AFT_SUCCESSFUL]
        self.assertEqual([r[0] for r in moved], booked)  # each successful ID once, in order
        for tid, kind, name, status, _, cashable, restricted, nonrestricted, ack, credit_seq, requested, ended in moved:
            answer, booked_type = wallet.log[tid], wallet.types[tid]
            self.assertEqual((kind, name, status, cashable, restricted, nonrestricted, ack),
                             (booked_type, names[booked_type], answer.status, answer.cashable, answer.restricted,
                              answer.nonrestricted, 1), tid)
            self.assertLess(requested, ended, tid)  # journaled pending, then its end
            statement = t.daemon.rows("SELECT amount, transfer_id FROM station_statement WHERE seq = ?", credit_seq)
            self.assertEqual(statement, [(-wallet.signed(tid), tid)], tid)
        refused = {(r[0], r[3]) for r in rows if r[4] == "refused"}
        self.assertEqual(refused, {(i, a.status) for i, a in wallet.log.items() if a.status not in sh.AFT_SUCCESSFUL}
                         | {("T1", 0x81)})
        self.assertEqual(len(rows), len(moved) + len(refused))  # nothing pending, nothing cut by a restart
        # The host's wallet moved by what the view says moved, signed from the station's side.
        self.assertEqual(sum(-wallet.signed(r[0]) for r in moved), wallet.opening - wallet.wallet)

    def test_the_restricted_pool_survives_a_restart_after_a_transfer_out_and_an_unacknowledged_one(self):
        """The pool of the restricted credits held is the last restricted transfer in's, and their
        expiry the later one the transfers in brought, after a restart too: neither a restricted transfer to the host (pool 0) in the
        history nor a transfer in that ended but was not acknowledged (not in the history) may
        lose them (found by integration.sas_aft_lossy)."""
        t, host, engine = self.start()
        wallet = sh.AftBooks()
        self.assertEqual(host.lp_73(0x00, 1, KEY, 7)["status"], 0x00)
        host.sync()
        self.assertEqual(host.lp_73(0x01, 1, KEY, 7)["status"], 0x01)
        host.sync()
        self.transfer(host, wallet, 0x00, "P1", IN_HOUSE_TO_STATION, restricted=1000, expiration=30, pool=3)
        self.drain_69(t)
        self.transfer(host, wallet, 0x00, "P2", TO_HOST, restricted=400)
        self.drain_69(t)
        # P3 ends, its final status read with FE only: not acknowledged, so not in the history.
        p3 = self.send(host, 0x00, "P3", IN_HOUSE_TO_STATION, restricted=100, expiration=60, pool=3)
        while p3.status == 0x40:
            p3 = host.lp_72_interrogate(status_only=True)
        self.assertEqual(p3.status, 0x00)
        engine.close()
        t.engine = None
        t.restart()
        t.events(1)
        status = host.lp_74()
        # 30 days after P1, then 60 after P3: the later stays.
        self.assertEqual((status["restricted"], status["pool"], status["expiration"]), (700, 3, expiry(p3.when, 60)))
        host.sync()
        final = sh.aft_settle(host, "P3", host.lp_72_interrogate(status_only=True))
        self.assertEqual(final.status, 0x00)
        p4 = self.transfer(host, wallet, 0x00, "P4", IN_HOUSE_TO_STATION, restricted=100, pool=3)
        self.assertEqual(p4.status, 0x00)  # the same pool: taken (8F before the fix)
        p5 = self.transfer(host, wallet, 0x00, "P5", IN_HOUSE_TO_STATION, restricted=100, pool=4)
        self.assertEqual(p5.status, 0x8F)  # another pool while pool 3's are held


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
