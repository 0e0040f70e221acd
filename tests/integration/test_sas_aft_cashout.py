#!/usr/bin/env python3
"""Host cash-out over SAS AFT (issue 36) between the independent host (sas_host.py) and the real
pitlinkd: the host asks for the station's cash-outs with a transfer's flags (01 enable control,
02 enable, 04 hard: protocols/sas/README.md "AFT"), LP 74 reports the mode; a player's cash-out
then raises 6A and waits for the host, which reads LP 74's balances and takes them with a
transfer to the host: the engine's `cash_out` is answered with what the host took (`to_host`),
no ticket is printed. In soft mode a host that takes nothing lets the cash-out go on as a ticket
after the configured wait; in hard mode the station waits for the host however long it takes.
The mode is journaled with the transfer that set it and comes back after a restart.

Usage: test_sas_aft_cashout.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sas import SasTable, SasTableCase  # noqa: E402
from test_table import CTL, ok  # noqa: E402
from engine_client import EngineClient  # noqa: E402
import sas_host as sh  # noqa: E402

AFT_CONFIG = ("sas:\n", "sas:\n  aft:\n    enabled: true\n    transfer_limit: 100000\n    host_cashout_wait_ms: 1500\n")
ENABLE_CONTROL, ENABLE, HARD = 0x01, 0x02, 0x04
CONTROLLABLE = 0x01


class HostCashout(SasTableCase):
    def start(self):
        t = self.table = SasTable(self.dir.name, stations=(1,))
        t.daemon.rewrite_config([AFT_CONFIG])
        engine = t.start()
        t.events(1)
        return t, t.hosts[1], engine

    def transfer(self, t, host, transaction_id, transfer_type, flags=0, **amounts):
        answer = sh.aft_request(host, 0x00, transaction_id, transfer_type, asset=1, flags=flags, **amounts)
        final = sh.aft_settle(host, transaction_id, answer)
        t.wait_for(1, 0x69)
        t.events(1)
        return final

    def wait_for_6a(self, t):
        """The host polls until the station asks it to take a cash-out (6A, every 800 ms until then)."""
        t.wait_for(1, 0x6A, timeout=3.0)

    def test_the_host_takes_the_cash_out_in_soft_mode_or_the_ticket_does_after_the_wait(self):
        t, host, engine = self.start()
        # Before the host asks, LP 74 says controllable, not enabled.
        self.assertEqual(host.lp_74()["host_cashout"], CONTROLLABLE)
        host.sync()
        # 43.21 cashable and 5.00 non-restricted in, asking for the cash-outs (soft).
        t1 = self.transfer(t, host, "C1", sh.AFT_TO_STATION, flags=ENABLE_CONTROL | ENABLE, cashable=4321,
                           nonrestricted=500)
        self.assertEqual((t1.status, t1.cashable, t1.nonrestricted), (0x00, 4321, 500))
        status = host.lp_74()
        self.assertEqual(status["host_cashout"], CONTROLLABLE | ENABLE)
        host.sync()
        # The floor sees the promotional part (pitlinkctl stations).
        line = [l for l in subprocess.run([CTL, "stations", "--socket", t.daemon.control], capture_output=True,
                                          text=True, check=True).stdout.splitlines() if l.startswith("1 ")]
        self.assertEqual(len(line), 1)
        self.assertIn("promo 0 restricted 500 non-restricted", line[0])

        # The player cashes out: 6A, the host reads LP 74 and takes what can move.
        request = t.send("cash_out", station=1)
        self.wait_for_6a(t)
        status = host.lp_74()
        self.assertEqual((status["cashable"], status["nonrestricted"]), (4321, 500))
        host.sync()
        out = self.transfer(t, host, "C2", sh.AFT_TO_HOST, cashable=status["cashable"],
                            nonrestricted=status["nonrestricted"])
        self.assertEqual((out.status, out.cashable, out.nonrestricted), (0x00, 4321, 500))
        reply = engine.reply_to(request)
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["data"], {"to_host": 4821, "credits": 0})
        # No ticket: nothing printed, the money left by AFT.
        self.assertEqual(t.daemon.rows("SELECT count(*) FROM record WHERE kind = 'ticket.issued'"), [(0,)])
        meters = host.lp_6f(0, [0x000C, 0x00B8, 0x00BC, 0x000E])
        self.assertEqual(meters, {0x000C: 0, 0x00B8: 4321, 0x00BC: 500, 0x000E: 0})
        host.sync()

        # Soft mode and a host that takes nothing: after the wait the cash-out is a ticket.
        self.transfer(t, host, "C3", sh.AFT_TO_STATION, cashable=1200)  # no flag 01: the mode stays
        self.assertEqual(host.lp_74()["host_cashout"], CONTROLLABLE | ENABLE)
        host.sync()
        started = time.time()
        request = t.send("cash_out", station=1)
        self.wait_for_6a(t)
        t.wait_for(1, 0x57, timeout=4.0)  # the ticket's system validation, once the wait is over
        waited = time.time() - started
        self.assertEqual(host.lp_57(), (0x00, 1200))
        self.assertEqual(host.lp_58(12, "0000000000001200"), 0x00)
        reply = engine.reply_to(request)
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["data"]["ticket"]["amount"], 1200)
        self.assertGreater(waited, 1.2)  # the configured 1.5 s, give or take the host's polls

        # The mode comes back after a restart (journaled with the request that set it).
        engine.close()
        t.engine = None
        engine = t.restart()
        t.events(1)
        self.assertEqual(host.lp_74()["host_cashout"], CONTROLLABLE | ENABLE)
        host.sync()
        self.assertEqual(t.status()[1]["aft"]["host_cashout"], {"mode": ENABLE, "pending": False})

    def test_hard_mode_waits_for_the_host_and_disabling_ends_the_offer(self):
        t, host, engine = self.start()
        self.transfer(t, host, "H1", sh.AFT_TO_STATION, flags=ENABLE_CONTROL | ENABLE | HARD, cashable=3000)
        self.assertEqual(host.lp_74()["host_cashout"], CONTROLLABLE | ENABLE | HARD)
        host.sync()
        request = t.send("cash_out", station=1)
        self.wait_for_6a(t)
        # Well past the soft wait the station still waits, and takes no bet meanwhile.
        time.sleep(2.0)
        self.wait_for_6a(t)
        self.assertTrue(t.status()[1]["aft"]["host_cashout"]["pending"])
        # (On another connection: this one's replies wait behind the cash-out's, in order.)
        other = EngineClient(t.daemon.socket)
        ok(self, other.request("new_shoe"))
        ok(self, other.request("open_round"))
        busy = other.request("bet", station=1, spot="player", stake=100)
        self.assertEqual((busy["ok"], busy["error"]), (False, "host_busy"))
        other.close()
        out = self.transfer(t, host, "H2", sh.AFT_TO_HOST, cashable=3000)
        self.assertEqual(out.status, 0x00)
        reply = engine.reply_to(request)
        self.assertEqual(reply["data"], {"to_host": 3000, "credits": 0}, reply)
        # The journal: the transfer to the host and its credit, no ticket, no hand-pay.
        kinds = [k for (k,) in t.daemon.rows("SELECT kind FROM record WHERE kind IN "
                                             "('ticket.issued', 'handpay.pending', 'aft.transfer') ORDER BY seq")]
        self.assertEqual(kinds, ["aft.transfer"] * 4)  # H1 and H2, each pending then ended
        bodies = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'aft.transfer' AND json_extract(body, '$.status') = 0")]
        self.assertEqual([(b["id"], b["flags"]) for b in bodies], [("H1", 0x07), ("H2", 0x00)])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
