#!/usr/bin/env python3
"""Restricted credits' expiry (SAS AFT, issue 36) through the real pitlinkd and the independent
host (sas_host.py): the host sets the station's clock (LP 7F) to noon, moves 5.00 restricted
credits of pool 3 to it expiring that day (MMDDYYYY), reads LP 74 (the date, the pool), then sets
the clock to a minute past midnight. The restricted credits are then gone: LP 74 restricted 0 with
no date or pool, 001B 0, the journal has the one `restricted_expired` credit (-500, all
restricted), the player's station is told (credits event), the cashable credits stay, and the
credit meter identity holds with its term for them (00FE, restricted promotional keyed-off funds:
protocols/sas/README.md "Meters"). A transfer expiring the day before is refused at once (83); a
restart expires nothing more and resumes nothing (none held).

Usage: test_sas_aft_expiry.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import datetime
import json
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sas import SasTableCase  # noqa: E402
from test_table import ok  # noqa: E402
import sas_host as sh  # noqa: E402

# AFT on, and LP 7F may move the clock by up to a day (the most it may; the default is an hour).
CONFIG = ("sas:\n", "sas:\n  clock_tolerance_s: 86400\n  aft:\n    enabled: true\n    transfer_limit: 100000\n")
CURRENT, CURRENT_RESTRICTED, RESTRICTED_KEYED_OFF = 0x000C, 0x001B, sh.RESTRICTED_KEYED_OFF


def mmddyyyy(day: datetime.date) -> int:
    """A date as LP 72 and LP 74 carry it: MMDDYYYY, its 8 digits as a number."""
    return day.month * 1000000 + day.day * 10000 + day.year


class SasAftExpiry(SasTableCase):
    def transfer(self, host, transaction_id, **fields):
        answer = sh.aft_request(host, 0x00, transaction_id, sh.AFT_TO_STATION, asset=1, **fields)
        return sh.aft_settle(host, transaction_id, answer)

    def identity(self, host):
        """Every meter of the identity, read as a host reads them (LP AF, 12 codes at most each)."""
        m = host.lp_af(0, list(sh.IDENTITY_METERS) + [CURRENT_RESTRICTED, RESTRICTED_KEYED_OFF])
        host.sync()
        m.update(host.lp_af(0, list(sh.AFT_IN_METERS + sh.AFT_BONUS_METERS + sh.AFT_OUT_METERS)
                            + [sh.ATTENDANT_PAID_BONUS]))
        host.sync()
        return m

    def test_restricted_credits_expire_when_the_clock_passes_their_date_and_the_identity_holds(self):
        t, engine = self.start_table(CONFIG)
        host = t.hosts[1]
        ok(self, engine.request("ticket_in", station=1, validation="7301", amount=1000))

        # Noon today on the station's clock, so that no midnight falls between two steps here.
        today = host.lp_7e().date()
        host.sync()
        host.lp_7f(datetime.datetime.combine(today, datetime.time(12, 0, 0)))
        host.sync()
        self.assertEqual(host.lp_7e().date(), today)
        host.sync()

        # Yesterday's date: refused at once (83), nothing moved.
        refused = self.transfer(host, "X0", restricted=500, expiration=mmddyyyy(today - datetime.timedelta(days=1)),
                                pool=3)
        self.assertEqual((refused.status, refused.restricted), (0x83, 0))
        # Today's: taken; LP 74 reports the date and the pool.
        done = self.transfer(host, "X1", restricted=500, expiration=mmddyyyy(today), pool=3)
        self.assertEqual((done.status, done.restricted, done.when.date()), (0x00, 500, today))
        t.wait_for(1, 0x69)
        t.events(1)
        status = host.lp_74()
        host.sync()
        self.assertEqual((status["cashable"], status["restricted"], status["expiration"], status["pool"]),
                         (1000, 500, mmddyyyy(today), 3))
        before = self.identity(host)
        self.assertEqual((before[CURRENT], before[CURRENT_RESTRICTED], before[RESTRICTED_KEYED_OFF]), (1500, 500, 0))
        self.assertEqual(sh.identity_credits(before), before[CURRENT])
        ended = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'aft.transfer' AND json_extract(body, '$.id') = 'X1' ORDER BY seq")]
        self.assertEqual([b.get("expires") for b in ended], [None, today.isoformat()])  # pending, then its end

        engine.wait_event(lambda e: e["event"] == "credits" and e.get("transfer", {}).get("id") == "X1")
        engine.events.clear()  # what the station was told before

        # Just past midnight: the clock set past the date, and they are gone.
        tomorrow = today + datetime.timedelta(days=1)
        host.lp_7f(datetime.datetime.combine(tomorrow, datetime.time(0, 1, 0)))
        host.sync()
        deadline = time.monotonic() + 5
        while True:
            status = host.lp_74()
            host.sync()
            if status["restricted"] == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual((status["cashable"], status["restricted"], status["nonrestricted"], status["expiration"],
                          status["pool"]), (1000, 0, 0, 0, 0))
        after = self.identity(host)
        self.assertEqual((after[CURRENT], after[CURRENT_RESTRICTED], after[RESTRICTED_KEYED_OFF]), (1000, 0, 500))
        self.assertEqual(after[0x00A2], 500)  # AFT restricted in, as it was
        self.assertEqual(sh.identity_credits(after), after[CURRENT])
        expired = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'credit' AND station = 1 "
            "AND json_extract(body, '$.reason') = 'restricted_expired'")]
        self.assertEqual(expired, [{"amount": -500, "balance": 1000, "reason": "restricted_expired",
                                    "ref": f"pool 3 expired {today.isoformat()}", "restricted": -500}])
        engine.wait_event(lambda e: e["event"] == "credits" and e["station"] == 1 and e["credits"] == 1000
                          and "restricted" not in e)
        self.assertEqual(len(t.daemon.rows("SELECT seq FROM record WHERE kind = 'clock.set'")), 2)

        # A restart: nothing held, nothing resumed, nothing expired twice.
        engine.close()
        t.engine = None
        t.restart()
        t.events(1)
        status = host.lp_74()
        host.sync()
        self.assertEqual((status["cashable"], status["restricted"], status["expiration"], status["pool"]),
                         (1000, 0, 0, 0))
        time.sleep(0.3)
        self.assertEqual(len(t.daemon.rows(
            "SELECT seq FROM record WHERE kind = 'credit' AND json_extract(body, '$.reason') = 'restricted_expired'")),
            1)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
