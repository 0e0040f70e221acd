#!/usr/bin/env python3
"""Integration tests of SAS: the real pitlinkd with its player stations on real pty pairs, driven
by an accounting host written independently of the daemon (sas_host.py: its own CRC, BCD,
escaping and frame layouts). Meters are checked against the journal's records, validation numbers
against the host's own secure enhanced validation.

Usage: test_sas.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import datetime
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_table import BANKER_WINS, CTL, PLAYER_WINS, Daemon, ok, play_round  # noqa: E402
import sas_host as sh  # noqa: E402

FAST_TIMEOUTS = ("  system_validation_timeout_ms: 1000\n  ticket_read_timeout_ms: 1000\n"
                 "  ticket_redeem_timeout_ms: 2000\n")


class SasTable:
    """pitlinkd (reader table, 4 stations) with SAS links for `stations` on pty pairs."""

    def __init__(self, directory, stations=(1, 2), validation="system", ticket_in_local=True, extra="", cashier=""):
        self.ptys = {s: sh.open_pty_pair() for s in stations}
        links = "".join("    - station: %d\n      address: %d\n      port: %s\n      transport: pty\n"
                        % (s, s, self.ptys[s][1]) for s in stations)
        self.daemon = Daemon(directory, extra="cashier:\n  ticket_in_local: %s\n%ssas:\n  validation: %s\n%s"
                             "  location: PIT 3 TABLE 1\n  stations:\n%s%s"
                             % ("true" if ticket_in_local else "false", cashier, validation, FAST_TIMEOUTS, links,
                                extra))
        self.hosts = {s: sh.SasHost(sh.SasLine(self.ptys[s][0]), s) for s in stations}
        self.engine = None

    def start(self):
        self.engine = self.daemon.start()
        ok(unittest.TestCase(), self.engine.request("status"))  # up and listening
        for host in self.hosts.values():
            host.line.flush_input()
            host.sync()
        return self.engine

    def restart(self):
        self.daemon.terminate()
        return self.start()

    def send(self, op, **fields):
        """Sends an engine request without waiting; returns its id for engine.reply_to()."""
        request_id = self.engine.next_id
        self.engine.next_id += 1
        self.engine.send_raw((json.dumps(dict(id=request_id, op=op, **fields)) + "\n").encode())
        return request_id

    def events(self, station, until_quiet=True, limit=60):
        """Every event the host reads from the station until it reports none."""
        seen = []
        for _ in range(limit):
            event = self.hosts[station].next_event()
            if event.code == 0:
                return seen
            seen.append(event)
        raise AssertionError("the station never ran out of events: %r" % seen[:10])

    def first_events(self, station, timeout=5.0):
        """After a start: every event the station reports once it reports any. Its power-up 17 is
        reported once its record is durable, which may be a little after the engine link answers."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            event = self.hosts[station].next_event()
            if event.code != 0:
                return [event] + self.events(station)
            time.sleep(0.04)
        return []

    def wait_for(self, station, code, timeout=5.0):
        """Polls like a host until the station reports `code`; returns that event."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            event = self.hosts[station].next_event()
            if event.code == code:
                return event
            if event.code == 0:
                time.sleep(0.04)
        raise AssertionError("station %d never reported %02X" % (station, code))

    def status(self):
        out = subprocess.run([CTL, "status", "--json", "--socket", self.daemon.control], capture_output=True,
                             text=True, check=True).stdout
        return {link["station"]: link for link in json.loads(out)["daemon"]["sas"]["links"]}

    def close(self):
        if self.engine:
            self.engine.close()
        if self.daemon.proc and self.daemon.proc.poll() is None:
            self.daemon.terminate()
        for master, _, slave in self.ptys.values():
            os.close(master)
            os.close(slave)


def journal_meters(daemon, station):
    """Coin in, coin out, games and credits of a station, summed from its credit records."""
    rows = daemon.rows("SELECT body FROM record WHERE kind = 'credit' AND station = ? ORDER BY seq", station)
    bodies = [json.loads(b) for (b,) in rows]
    settled = [b for b in bodies if b["reason"] == "settlement"]
    return {"coin_in": sum(b["wagered"] for b in settled), "coin_out": sum(b["amount"] for b in settled),
            "games_played": len(settled), "games_won": sum(1 for b in settled if b["amount"] > b["wagered"]),
            "credits": bodies[-1]["balance"] if bodies else 0,
            "ticket_in": sum(b["amount"] for b in bodies if b["reason"] == "ticket_in"),
            "ticket_out": -sum(b["amount"] for b in bodies if b["reason"] == "ticket_out")}


class SasTableCase(unittest.TestCase):
    """A test of pitlinkd with SAS links (SasTable) in a temporary directory, closed after each test."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.table = None

    def tearDown(self):
        if self.table:
            self.table.close()
        self.dir.cleanup()

    def start_table(self, config, stations=(1,), cashier=""):
        """SasTable for `stations` with the configuration edit `config` (old, new), started; each
        station has reported its power-up (17) and nothing else. Returns the table and its engine link."""
        t = self.table = SasTable(self.dir.name, stations=stations, cashier=cashier)
        t.daemon.rewrite_config([config])
        engine = t.start()
        for station in stations:
            self.assertEqual([e.code for e in t.first_events(station)], [0x17])
        return t, engine


class Sas(SasTableCase):
    def make(self, **kwargs):
        self.table = SasTable(self.dir.name, **kwargs)
        return self.table

    def test_meters_and_game_events_follow_the_journal(self):
        t = self.make()
        c = t.start()
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])  # AC power applied
        ok(self, c.request("new_shoe"))
        for s in (1, 2):
            ok(self, c.request("ticket_in", station=s, validation="9%d" % s, amount=10_000))
        t.hosts[1].lp_0e(True)  # real-time events for station 1
        play_round(self, c, [(1, "banker", 300), (2, "player", 200), (2, "tie", 100)], BANKER_WINS)
        play_round(self, c, [(1, "player", 500), (2, "player", 100)], PLAYER_WINS)
        for s in (1, 2):
            expected = journal_meters(t.daemon, s)
            host = t.hosts[s]
            self.assertEqual(host.lp_1a_current_credits(), expected["credits"])
            lp19 = host.lp_19()
            self.assertEqual((lp19["coin_in"], lp19["coin_out"], lp19["games_played"]),
                             (expected["coin_in"], expected["coin_out"], expected["games_played"]))
            ext = host.lp_af(0, [0x0000, 0x0001, 0x0005, 0x0006, 0x000C, 0x000D])
            self.assertEqual(ext, {0x0000: expected["coin_in"], 0x0001: expected["coin_out"],
                                   0x0005: expected["games_played"], 0x0006: expected["games_won"],
                                   0x000C: expected["credits"], 0x000D: expected["ticket_in"]})
            self.assertEqual(host.meter_lp(0x15), expected["games_played"])
        # Station 1 reports its rounds as real-time events with their data; station 2 as bytes.
        rte = t.events(1)
        self.assertTrue(all(e.rte for e in rte), rte)
        settlements = [json.loads(b) for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'credit' AND station = 1 AND json_extract(body, '$.reason') = "
            "'settlement' ORDER BY seq")]
        coin_in = 0
        expected_events = []
        for s in settlements:
            coin_in += s["wagered"]
            expected_events.append((0x7E, sh.to_bcd(s["wagered"], 2) + sh.to_bcd(coin_in, 4) + b"\x00\x00"))
            expected_events.append((0x7F, sh.to_bcd(s["amount"], 4)))
        self.assertEqual([(e.code, bytes(e.data)) for e in rte], expected_events)
        self.assertEqual([(e.code, e.rte) for e in t.events(2)], [(0x17, False), (0x7E, False), (0x7F, False),
                                                                  (0x7E, False), (0x7F, False)])
        t.hosts[1].lp_0e(False)
        play_round(self, c, [(1, "banker", 100)], BANKER_WINS)
        self.assertEqual([(e.code, e.rte) for e in t.events(1)], [(0x7E, False), (0x7F, False)])
        # The station's game starts when bets close (7E, before any card), and ends when the round
        # settles or, once started, is voided (7F). A station without a bet has no game.
        t.hosts[1].lp_0e(True)
        ok(self, c.request("open_round"))
        ok(self, c.request("bet", station=1, spot="player", stake=400))
        self.assertEqual(t.events(1), [])
        ok(self, c.request("close_bets"))
        coin_in = journal_meters(t.daemon, 1)["coin_in"]
        started = t.events(1)
        self.assertEqual([(e.code, bytes(e.data)) for e in started],
                         [(0x7E, sh.to_bcd(400, 2) + sh.to_bcd(coin_in + 400, 4) + b"\x00\x00")])
        self.assertEqual(t.events(2), [])
        ok(self, c.request("card", card="2S"))
        ok(self, c.request("void_round", reason="misdeal"))
        self.assertEqual([(e.code, bytes(e.data)) for e in t.events(1)], [(0x7F, sh.to_bcd(0, 4))])
        ok(self, c.request("open_round"))
        ok(self, c.request("bet", station=1, spot="player", stake=400))
        ok(self, c.request("void_round", reason="before the close"))
        self.assertEqual(t.events(1), [])  # no game started, none ends

    def test_the_link_answers_only_what_it_should(self):
        t = self.make(stations=(1,))
        c = t.start()
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])
        host, line = t.hosts[1], t.hosts[1].line
        # LP 01 shuts the station down (journaled), LP 02 starts it again.
        host.disable_play()
        reply = c.request("ticket_in", station=1, validation="1", amount=100)
        self.assertEqual((reply["ok"], reply["error"]), (False, "host_disabled"))
        host.enable_play()
        ok(self, c.request("ticket_in", station=1, validation="1", amount=100))
        self.assertEqual(t.daemon.rows("SELECT json_extract(body, '$.enabled') FROM record "
                                       "WHERE kind = 'sas.host_enabled' ORDER BY seq"), [(0,), (1,)])
        # Shut down again, it stays down across a restart until the host starts it.
        host.disable_play()
        c = t.restart()
        self.assertEqual([e.code for e in t.events(1)], [0x18, 0x17])  # power lost at the stop, applied
        reply = c.request("ticket_in", station=1, validation="2", amount=100)
        self.assertEqual((reply["ok"], reply["error"]), (False, "host_disabled"))
        host.enable_play()
        ok(self, c.request("ticket_in", station=1, validation="2", amount=100))
        # LP 7F moves the journal's clock (journaled); one beyond the tolerance is refused.
        host.lp_7f(datetime.datetime.now().replace(microsecond=0) + datetime.timedelta(minutes=10))
        host.acknowledge()  # else the second 7F is an implied NACK, answered without being read
        host.lp_7f(datetime.datetime.now() + datetime.timedelta(days=2))
        offsets = t.daemon.rows("SELECT json_extract(body, '$.offset_ms') FROM record WHERE kind = 'clock.set'")
        self.assertEqual(len(offsets), 1, offsets)
        self.assertAlmostEqual(offsets[0][0], 600_000, delta=2_000)
        self.assertLess(abs((host.lp_7e() - datetime.datetime.now()).total_seconds() - 600), 3)
        # A repeated long poll is an implied NACK: the very same bytes, at most twice more.
        first = host.poll_raw(bytes((1, 0x1A))).data
        self.assertEqual(host.poll_raw(bytes((1, 0x1A))).data, first)
        self.assertEqual(host.poll_raw(bytes((1, 0x1A))).data, first)
        self.assertEqual(host.poll_raw(bytes((1, 0x1A)), timeout=0.2).data, b"")
        host.acknowledge()
        # A bad CRC, a poll to another address, a broadcast and an unsupported poll: no answer.
        bad = sh.with_crc(bytes((1, 0x7F)) + sh.to_bcd(11222026, 4) + sh.to_bcd(93000, 3))
        self.assertEqual(host.poll_raw(bad[:-1] + bytes((bad[-1] ^ 0xFF,)), timeout=0.2).data, b"")
        self.assertEqual(host.poll_raw(bytes((5, 0x1A)), timeout=0.2).data, b"")
        self.assertEqual(host.poll_raw(sh.with_crc(bytes((0, 0x7F)) + sh.to_bcd(11222026, 4) + sh.to_bcd(93000, 3)),
                                       timeout=0.2).data, b"")
        self.assertEqual(host.poll_raw(bytes((1, 0x4A)), timeout=0.2).data, b"")
        link = t.status()[1]
        self.assertEqual((link["bad_crc"], link["unsupported"], link["resends"]), (1, 1, 2))
        self.assertEqual(host.lp_54()[1], "PL1")  # still answering
        # Loop break: no poll for 5 s -> the station chirps its address every 200 ms.
        chirps = line.drain(6.5)
        self.assertGreaterEqual(len(chirps), 4)
        self.assertTrue(all(c == 1 for c in chirps), chirps)
        gaps = [b - a for a, b in zip(line.last_drain_times, line.last_drain_times[1:])]
        self.assertTrue(all(0.15 <= g <= 0.35 for g in gaps), gaps)
        # After the loop break, polls to it are ignored until a poll to another address.
        self.assertEqual(host.poll_raw(bytes((0x81,)), timeout=0.2).data, b"")
        host.sync()
        self.assertEqual(host.general_poll().code, 0)
        self.assertEqual(t.status()[1]["link"], "up")

    def test_bytes_waiting_in_the_port_before_pitlinkd_opens_it_are_not_polls(self):
        t = self.make(stations=(1,))
        host, line = t.hosts[1], t.hosts[1].line
        # A host polled the line before pitlinkd was there: a poll to another address (which
        # synchronises a link) and LP 01 (shut the station down), as they sit in the tty.
        stale = sh.escape(bytes((0x82,)), wakeup_first=True) + sh.escape(host.build(0x01), wakeup_first=True)
        line.write_raw(stale)
        c = t.start()
        self.assertEqual(t.status()[1]["stale_at_open"], len(stale))  # counted, then discarded
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])  # it answers the polls that follow
        ok(self, c.request("ticket_in", station=1, validation="1", amount=100))  # not shut down
        self.assertEqual(t.daemon.rows("SELECT count(*) FROM record WHERE kind = 'sas.host_enabled'"), [(0,)])
        host.disable_play()  # the same LP 01 now, while it listens: taken
        self.assertEqual(t.daemon.rows("SELECT count(*) FROM record WHERE kind = 'sas.host_enabled'"), [(1,)])

    def test_more_than_twenty_exceptions_overflow_and_survive_a_restart(self):
        t = self.make(stations=(1,))
        c = t.start()
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])  # once durable (a loaded machine: later)
        for _ in range(13):  # 26 exceptions while the host does not poll
            ok(self, c.request("door", door="main", open=True))
            ok(self, c.request("door", door="main", open=False))
        c = t.restart()  # nothing acknowledged is lost: the queue comes back from the journal
        events = [e.code for e in t.events(1)]
        # 70 (buffer overflow) first, then the newest 20 in order: the last two are power lost (at
        # the stop) and power applied (at the start), which pushed the oldest door events out.
        self.assertEqual(events, [0x70] + [0x11, 0x12] * 9 + [0x18, 0x17])
        self.assertEqual(t.status()[1]["exceptions_pending"], [])
        c = t.restart()
        self.assertEqual([e.code for e in t.events(1)], [0x18, 0x17])  # what was acknowledged stays gone

    def test_cash_out_by_system_validation_then_hand_pay_when_the_host_is_silent(self):
        t = self.make(stations=(1,))
        c = t.start()
        t.first_events(1)
        ok(self, c.request("ticket_in", station=1, validation="5", amount=4_250))
        request = t.send("cash_out", station=1)
        t.wait_for(1, 0x57)
        host = t.hosts[1]
        self.assertEqual(host.lp_57(), (0x00, 4_250))
        self.assertEqual(host.lp_58(12, "0011223344556677"), 0x00)
        reply = c.reply_to(request)
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["data"]["ticket"]["validation"], "120011223344556677")
        self.assertEqual(reply["data"]["ticket"]["location"], "PIT 3 TABLE 1")
        codes = [e.code for e in t.events(1)]
        self.assertEqual(codes, [0x3D, 0x66])  # 3D is a priority exception
        record = host.lp_4d(0x00)
        self.assertEqual((record["validation"], record["amount"], record["system_id"]),
                         ("0011223344556677", 4_250, 12))
        host.acknowledge()  # else the same poll again is an implied NACK, answered with the same bytes
        self.assertEqual(host.lp_4d(0x00)["amount"], 0)  # read: no unread record left
        self.assertEqual(journal_meters(t.daemon, 1)["ticket_out"], 4_250)
        self.assertEqual(host.lp_af(0, [0x000E, 0x000C]), {0x000E: 4_250, 0x000C: 0})
        issued = [json.loads(b) for (b,) in t.daemon.rows("SELECT body FROM record WHERE kind = 'ticket.issued'")]
        self.assertEqual([(i["validation"], i["amount"]) for i in issued], [("120011223344556677", 4_250)])
        # The host does not answer the next cash-out: after the time-out it is a hand-pay.
        ok(self, c.request("ticket_in", station=1, validation="6", amount=900))
        reply = c.request("cash_out", station=1)
        self.assertEqual(reply["data"]["handpay"], 900, reply)
        self.assertEqual([e.code for e in t.events(1)], [0x57, 0x51, 0x66])  # priority first
        self.assertEqual(host.lp_1b()["amount"], 900)
        self.assertEqual(host.lp_94(), 0x00)
        t.wait_for(1, 0x52)  # raised by the reset's transaction once it has committed
        self.assertEqual(t.events(1), [])
        self.assertEqual(host.lp_94(), 0x02)  # not in a hand-pay any more
        self.assertEqual(host.lp_1a_current_credits(), 0)
        self.assertEqual(t.daemon.rows("SELECT json_extract(body, '$.by') FROM record WHERE kind = 'handpay.reset'"),
                         [("sas host",)])

    def test_secure_enhanced_validation_numbers_tickets_itself(self):
        t = self.make(stations=(1,), validation="secure_enhanced")
        c = t.start()
        t.first_events(1)
        ok(self, c.request("ticket_in", station=1, validation="5", amount=700))
        reply = c.request("cash_out", station=1)  # no ID yet: 3F, and a hand-pay
        self.assertEqual(reply["data"]["handpay"], 700, reply)
        self.assertEqual([e.code for e in t.events(1)], [0x3F, 0x51, 0x66])  # priority first
        self.assertEqual(t.hosts[1].lp_94(), 0x00)
        self.assertEqual(t.hosts[1].lp_4c(0x654321, 0), (0x654321, 0))
        # LP 7C sets the ticket's location line, LP 7B the status bits and the expiration: both
        # journaled (sas.ticket_setup), both still set after the restart below.
        self.assertEqual(t.hosts[1].lp_7c(bytes((0x00, 13)) + b"PIT 9 TABLE 4")[2], 0x01)
        answer = t.hosts[1].lp_7b(bytes((0xFF, 0xFF, 0x03, 0x00)) + sh.to_bcd(30, 2) + sh.to_bcd(0, 2))
        self.assertEqual((answer[7:9], answer[9:11]), (b"\x03\x00", sh.to_bcd(30, 2)))
        numbers, locations = [], []
        for amount in (1_000, 2_000):
            ok(self, c.request("ticket_in", station=1, validation="7", amount=amount))
            reply = c.request("cash_out", station=1)
            numbers.append(ok(self, reply)["ticket"]["validation"])
            locations.append(reply["data"]["ticket"]["location"])
            if amount == 1_000:
                c = t.restart()  # the sequence continues from the journal
        self.assertEqual(locations, ["PIT 9 TABLE 4"] * 2)
        answer = t.hosts[1].lp_7b(bytes(4) + bytes(4))  # no bits to change: a read
        self.assertEqual((answer[7:9], answer[9:11]), (b"\x03\x00", sh.to_bcd(30, 2)))
        self.assertEqual(len(t.daemon.rows("SELECT 1 FROM record WHERE kind = 'sas.ticket_setup'")), 2)
        t.hosts[1].acknowledge()
        self.assertEqual(numbers, [sh.secure_enhanced_validation(0x654321, 1),
                                   sh.secure_enhanced_validation(0x654321, 2)])
        # LP 4D 00 hands the host each record it has not read, oldest first, across the restart.
        host = t.hosts[1]
        record = host.lp_4d(0x00)
        self.assertEqual((record["validation"], record["amount"], record["index"]), (numbers[0][2:], 1_000, 1))
        host.acknowledge()  # the same poll again would be an implied NACK
        record = host.lp_4d(0x00)
        self.assertEqual((record["validation"], record["amount"], record["index"]), (numbers[1][2:], 2_000, 2))
        host.acknowledge()  # read once the host's next poll acknowledges the answer
        c = t.restart()  # what was read stays read
        record = t.hosts[1].lp_4d(0x00)
        self.assertEqual((record["validation"], record["datetime"]), ("0" * 16, None))
        t.hosts[1].acknowledge()
        self.assertEqual(t.hosts[1].lp_4d(0x02)["validation"], numbers[1][2:])  # by index, still there
        # The sequence wraps from FFFFFF to 0 (SAS; the reference vectors' other implementations).
        t.hosts[1].general_poll()
        self.assertEqual(t.hosts[1].lp_4c(0x654321, 0xFFFFFF), (0x654321, 0xFFFFFF))
        ok(self, c.request("ticket_in", station=1, validation="8", amount=500))
        self.assertEqual(ok(self, c.request("cash_out", station=1))["ticket"]["validation"],
                         sh.secure_enhanced_validation(0x654321, 0))

    # What a host reconciles from its own reads (LP 1A and LP AF), as protocols/sas/README.md
    # "Meters" writes it: current credits = ticket in + coin out + keyed on - coin in - cancelled
    # credits - keyed off. `expected` is worked out by hand in the test; both must hold.
    RECONCILED = (0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x000D, 0x000E, 0x00FA, 0x00FD)

    def reconcile(self, host, expected, step):
        current = host.lp_1a_current_credits()
        m = host.lp_af(0, list(self.RECONCILED))
        self.assertEqual(current, m[0x000D] + m[0x0001] + m[0x00FA] - m[0x0000] - m[0x0004] - m[0x00FD],
                         "%s: station %d's meters do not reconcile: 1A %d, %r" % (step, host.address, current, m))
        names = {0x0000: "coin_in", 0x0001: "coin_out", 0x0002: "jackpot", 0x0003: "handpaid", 0x0004: "cancelled",
                 0x000D: "ticket_in", 0x000E: "ticket_out", 0x00FA: "keyed_on", 0x00FD: "keyed_off"}
        read = {names[code]: value for code, value in m.items()}
        read["current"] = current
        self.assertEqual(read, dict({k: 0 for k in read}, **expected), "%s: station %d" % (step, host.address))

    def test_a_host_reconciles_every_stations_meters_after_a_mixed_run(self):
        t = self.make(cashier="  jackpot_limit: 1500\n")
        c = t.start()
        t.first_events(1)
        t.first_events(2)
        ok(self, c.request("new_shoe"))
        for s in (1, 2):
            ok(self, c.request("ticket_in", station=s, validation="8%d" % s, amount=10_000))
        # Bets on the layout: off the engine's credits, still the station's credits for SAS.
        ok(self, c.request("open_round"))
        round_id = ok(self, c.request("status"))["round"]
        self.assertEqual(ok(self, c.request("bet", station=1, spot="banker", stake=2_000))["credits"], 8_000)
        ok(self, c.request("bet", station=2, spot="player", stake=500))
        ok(self, c.request("bet", station=2, spot="tie", stake=100))
        self.reconcile(t.hosts[1], {"ticket_in": 10_000, "current": 10_000}, "bets placed")
        self.reconcile(t.hosts[2], {"ticket_in": 10_000, "current": 10_000}, "bets placed")
        ok(self, c.request("close_bets"))
        for card in BANKER_WINS.split():
            ok(self, c.request("card", card=card))
        # Banker 9 against 6: 2,000 on Banker returns 3,900 (19/20); its win of 1,900 reaches the
        # jackpot limit and is hand-paid, never machine-paid. Station 2 loses 600.
        t.wait_for(1, 0x51)
        self.assertEqual(t.hosts[1].lp_1b()["amount"], 1_900)
        self.reconcile(t.hosts[1], {"ticket_in": 10_000, "coin_in": 2_000, "coin_out": 2_000, "jackpot": 1_900,
                                    "current": 10_000}, "a jackpot won")
        self.assertEqual(t.hosts[1].lp_94(), 0x00)  # the host resets the hand-pay
        t.wait_for(1, 0x52)
        self.reconcile(t.hosts[1], {"ticket_in": 10_000, "coin_in": 2_000, "coin_out": 2_000, "jackpot": 1_900,
                                    "current": 10_000}, "the jackpot hand-paid")
        self.assertEqual(ok(self, c.request("tip", station=2, amount=300))["credits"], 9_100)
        self.reconcile(t.hosts[2], {"ticket_in": 10_000, "coin_in": 600, "keyed_off": 300, "current": 9_100},
                       "a tip")
        # Re-settled to a Player win, then back: each way the credits moved are keyed on or off.
        for cards, why in ((PLAYER_WINS, "video"), (BANKER_WINS, "second review")):
            done = subprocess.run([CTL, "resettle", str(round_id), "--cards", cards, "--reason", why, "--socket",
                                   t.daemon.control], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.reconcile(t.hosts[1], {"ticket_in": 10_000, "coin_in": 2_000, "coin_out": 2_000, "jackpot": 1_900,
                                    "keyed_on": 3_900, "keyed_off": 3_900, "current": 10_000}, "re-settled twice")
        self.reconcile(t.hosts[2], {"ticket_in": 10_000, "coin_in": 600, "keyed_on": 1_000, "keyed_off": 1_300,
                                    "current": 9_100}, "re-settled twice")
        # Station 2 cashes out by ticket, validated by the host.
        request = t.send("cash_out", station=2)
        t.wait_for(2, 0x57)
        self.assertEqual(t.hosts[2].lp_57(), (0x00, 9_100))
        self.assertEqual(t.hosts[2].lp_58(12, "0011223344556688"), 0x00)
        ok(self, c.reply_to(request))
        self.reconcile(t.hosts[2], {"ticket_in": 10_000, "coin_in": 600, "keyed_on": 1_000, "keyed_off": 1_300,
                                    "ticket_out": 9_100, "cancelled": 9_100, "current": 0}, "cashed out")
        # The journal agrees with the host: the same sums from its credit records.
        reasons = {}
        for station, body in t.daemon.rows("SELECT station, body FROM record WHERE kind = 'credit'"):
            b = json.loads(body)
            reasons[(station, b["reason"])] = reasons.get((station, b["reason"]), 0) + b["amount"]
        self.assertEqual(reasons[(1, "jackpot")], -1_900)
        self.assertEqual(reasons[(2, "tip")], -300)
        # The tip report of the day (UTC) from the journal file, as a jurisdiction asks for it.
        done = subprocess.run([CTL, "tips", "--journal", t.daemon.db, "--json"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        self.assertEqual(len(report["periods"]), 1, report)
        day = report["periods"][0]
        now_ms = int(time.time() * 1000)
        self.assertEqual((day["from_ms"] % 86_400_000, day["to_ms"] - day["from_ms"]), (0, 86_400_000))
        self.assertTrue(day["from_ms"] <= now_ms < day["to_ms"] + 60_000, day)
        self.assertEqual((day["count"], day["amount"], day["stations"]), (1, 300, {"2": {"count": 1, "amount": 300}}))
        yesterday = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86_400 * 2))
        done = subprocess.run([CTL, "tips", "--journal", t.daemon.db, "--to", yesterday, "--json"],
                              capture_output=True, text=True)
        self.assertEqual(json.loads(done.stdout)["periods"], [])

    def test_machine_information_is_true(self):
        t = self.make(stations=(1,), ticket_in_local=False)
        t.start()
        host = t.hosts[1]
        info = host.lp_1f()
        # The paytable ID is the journaled paytable's SHA-256, first six hex digits: a host tells
        # paytables apart by it. The base % is the standard paytable's Player bet, the lower of
        # Player (98.7649 %) and Banker (98.9421 %) with 8 decks (Wizard of Odds: edges 1.24 %, 1.06 %).
        (sha,) = t.daemon.rows("SELECT json_extract(body, '$.sha256') FROM record WHERE kind = 'paytable.loaded'")[0]
        self.assertEqual(info["paytable_id"], sha[:6].upper())
        self.assertEqual(info["base_percent"], "9876")
        game1 = host.long_poll(0x53, sh.to_bcd(1, 2), size=26)
        self.assertEqual(game1[14:20].decode("ascii"), sha[:6].upper())
        self.assertEqual(game1[20:24].decode("ascii"), "9876")
        features = host.lp_a0()
        self.assertEqual({k: features[k] for k in ("validation_style", "ticket_redemption", "validation_extensions",
                                                  "extended_meters", "meter_model", "aft", "tickets_to_drop")},
                         {"validation_style": "system", "ticket_redemption": True, "validation_extensions": True,
                          "extended_meters": True, "meter_model": 1, "aft": False, "tickets_to_drop": False})
        # One denomination (0.01, code 01), one game, as an SMIB asks (the nCompass capture's polls).
        self.assertEqual(host.lp_b1(), 0x01)
        self.assertEqual(host.lp_b2(), [0x01])
        self.assertEqual(host.lp_b5(1), {"game": 1, "max_bet": 9999, "progressive_group": 0, "levels": 0,
                                         "game_name": "Baccarat",
                                         "paytable_name": "Standard baccarat, 5", "wager_categories": 0,
                                         "denominations": [0x01]})
        denom, base, data = host.lp_b0(0x01, 0x56)
        self.assertEqual((denom, base, data), (0x01, 0x56, bytes([3, 1]) + sh.to_bcd(1, 2)))
        host.general_poll()  # (the same poll head again at once would be an implied NACK)
        self.assertEqual(host.lp_b0(0x02, 0x56), (0x02, 0x00, b"\x04"))  # 0.05: not this station's

    def test_the_denomination_button_changes_what_b1_reports(self):
        # Seed 000's Denomination button: 0.01, 0.25 and 1.00 offered; station 1 picks 0.25.
        t = self.make(stations=(1,), extra="")
        t.daemon.rewrite_config([("stations: 4\n", "stations: 4\n  denominations: [1, 25, 100]\n")])
        c = t.start()
        host = t.hosts[1]
        t.first_events(1)
        self.assertEqual(host.lp_b1(), 0x01)
        self.assertEqual(host.lp_b2(), [0x01, 0x04, 0x06])
        ok(self, c.request("ticket_in", station=1, validation="51", amount=10_000))
        shown = ok(self, c.request("denomination", station=1, value=25))
        self.assertEqual((shown["denomination"], shown["denominations"]), (25, [1, 25, 100]))
        self.assertEqual(host.lp_b1(), 0x04)
        self.assertEqual(c.request("denomination", station=1, value=50)["error"], "not_offered")
        ok(self, c.request("new_shoe"))
        ok(self, c.request("open_round"))
        self.assertEqual(c.request("bet", station=1, spot="player", stake=110)["error"], "not_whole_credits")
        ok(self, c.request("bet", station=1, spot="player", stake=125))
        self.assertEqual(c.request("denomination", station=1, value=100)["error"], "bets_on_layout")
        host.general_poll()
        # Every denomination offered is answered (its play), whichever the station plays now.
        self.assertEqual(host.lp_b0(0x06, 0x56), (0x06, 0x56, bytes([3, 1]) + sh.to_bcd(1, 2)))
        host.general_poll()
        self.assertEqual(host.lp_b0(0x07, 0x56), (0x07, 0x00, b"\x04"))  # 5.00: not offered
        # Kept across a restart (station.state).
        t.daemon.kill()
        c = t.daemon.start()
        station = ok(self, c.request("status"))["stations"][0]
        self.assertEqual(station["denomination"], 25)

    def test_a_host_game_delay_holds_the_stations_bets(self):
        t = self.make(stations=(1,))
        c = t.start()
        host = t.hosts[1]
        for s in (1, 2):
            ok(self, c.request("ticket_in", station=s, validation="%d" % s, amount=1_000))
        ok(self, c.request("new_shoe"))
        ok(self, c.request("open_round"))
        host.lp_2e(300)  # 30 s
        refused = c.request("bet", station=1, spot="player", stake=100)
        self.assertEqual((refused["ok"], refused["error"]), (False, "host_delay"), refused)
        ok(self, c.request("bet", station=2, spot="player", stake=100))  # another station bets on
        host.general_poll()  # (the same poll head again at once would be an implied NACK)
        host.lp_2e(0)  # the host ends it
        ok(self, c.request("bet", station=1, spot="player", stake=100))
        (body,) = t.daemon.rows("SELECT body FROM record WHERE kind = 'request.refused' AND station = 1")[0]
        self.assertEqual(json.loads(body)["error"], "host_delay")

    def test_the_tables_state_reaches_the_host_as_exceptions(self):
        # A Modbus module nobody answers for (a free port): after offline_tilt_ms the table tilts.
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        t = self.make(extra="modbus:\n  device: {transport: tcp, port: %d}\n  poll_ms: 20\n"
                            "  reconnect_min_ms: 100\n  reconnect_max_ms: 200\n  offline_tilt_ms: 1500\n"
                            "  lamps:\n    - {name: candle, coil: 0, when: {tilt: fast_flash}}\n" % port)
        c = t.start()
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])
        t.first_events(2)
        ok(self, c.request("ticket_in", station=1, validation="1", amount=1_000))
        ok(self, c.request("tip", station=1, amount=200))
        self.assertEqual([e.code for e in t.events(1)], [0x5F])  # tip awarded: at its station only
        self.assertEqual(t.events(2), [])
        # An operator's SIGHUP that changes the bet limits: 3C at every station.
        t.daemon.rewrite_config(append="bets:\n  max: 2000\n")
        t.daemon.proc.send_signal(signal.SIGHUP)
        t.wait_for(1, 0x3C)
        t.wait_for(2, 0x3C)
        # The module's outage tilts the table (journaled tilt.raised): general tilt 20 everywhere.
        t.wait_for(1, 0x20)
        t.wait_for(2, 0x20)
        self.assertEqual(len(t.daemon.rows("SELECT 1 FROM record WHERE kind = 'tilt.raised'")), 1)
        raised = [json.loads(b)["code"] for (b,) in t.daemon.rows(
            "SELECT body FROM record WHERE kind = 'sas.exception' AND station = 1 ORDER BY seq")]
        self.assertEqual([c for c in raised if c in (0x5F, 0x3C, 0x20)], [0x5F, 0x3C, 0x20])  # journaled first

    def test_a_card_reader_fault_is_a_general_tilt_at_every_station(self):
        t = self.make()
        c = t.start()
        t.first_events(1)
        t.first_events(2)
        ok(self, c.request("reader", ok=False, message="no answer from the shoe"))
        t.wait_for(1, 0x20)
        t.wait_for(2, 0x20)
        self.assertEqual(t.daemon.rows("SELECT json_extract(body, '$.cause') FROM record WHERE kind = 'tilt.raised'"),
                         [("reader",)])

    def redeemed_by_host(self, t, c, validation, amount):
        """A ticket inserted at station 1 that the host reads (67, LP 70) and accepts (LP 71):
        pending until the journal has the credits; returns the engine's reply."""
        request = t.send("ticket_in", station=1, validation=validation, amount=amount)
        t.wait_for(1, 0x67)
        self.assertEqual(t.hosts[1].lp_70()["validation"], validation)
        self.assertEqual(t.hosts[1].lp_71(0x00, amount, validation=validation)["status"], 0x40)
        return c.reply_to(request)

    def test_ticket_in_is_credited_only_when_the_host_accepts(self):
        t = self.make(stations=(1,), ticket_in_local=False)
        c = t.start()
        t.first_events(1)
        host = t.hosts[1]
        self.assertEqual(host.lp_70(), {"status": 0xFF})  # no ticket in escrow: the status alone
        # Accepted.
        reply = self.redeemed_by_host(t, c, "001234567890123456", 2_500)
        self.assertEqual(ok(self, reply)["credits"], 2_500)
        first = time.monotonic()
        t.wait_for(1, 0x68)
        # Unread, 68 comes again 15 s later (SAS: until the host reads the final status).
        t.wait_for(1, 0x68, timeout=20.0)
        self.assertGreater(time.monotonic() - first, 14.0)
        self.assertEqual(host.lp_71(0xFF)["status"], 0x00)
        self.assertEqual(host.lp_1a_current_credits(), 2_500)
        self.assertEqual(host.lp_af(0, [0x000D])[0x000D], 2_500)
        # Rejected by the host.
        request = t.send("ticket_in", station=1, validation="77", amount=100)
        t.wait_for(1, 0x67)
        self.assertEqual(host.lp_71(0x80, 0, validation="000000000000000077")["status"], 0x80)
        reply = c.reply_to(request)
        self.assertEqual((reply["ok"], reply["error"]), (False, "ticket_rejected"))
        # The host never answers: returned after the time-out, nothing credited.
        reply = c.request("ticket_in", station=1, validation="78", amount=100)
        self.assertEqual((reply["ok"], reply["error"]), (False, "ticket_rejected"))
        self.assertEqual(host.lp_1a_current_credits(), 2_500)
        self.assertEqual(t.daemon.rows("SELECT count(*) FROM record WHERE kind = 'ticket.redeemed'"), [(1,)])

    def test_a_restart_between_68_and_the_hosts_lp_71_ff_keeps_the_final_status(self):
        t = self.make(stations=(1,), ticket_in_local=False)
        c = t.start()
        t.events(1)
        host = t.hosts[1]
        validation = "009876543210987654"
        self.assertEqual(ok(self, self.redeemed_by_host(t, c, validation, 4_200))["credits"], 4_200)
        # pitlinkd stops before the host has read 68 or asked LP 71 FF for the final status.
        c = t.restart()
        codes = [e.code for e in t.events(1)]
        self.assertIn(0x68, codes)  # still reported after the restart
        final = host.lp_71(0xFF)
        self.assertEqual((final["status"], final["amount"], final["validation"]), (0x00, 4_200, validation))
        self.assertEqual(host.lp_1a_current_credits(), 4_200)
        self.assertEqual(t.daemon.rows("SELECT count(*) FROM record WHERE kind = 'ticket.redeemed'"), [(1,)])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
