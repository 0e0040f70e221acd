#!/usr/bin/python3
"""Integration tests of the table's lamps and dealer buttons: the real pitlinkd (reader table,
driven through its engine link) against a real Modbus device peer, tests/integration/
modbus_peer.py (python3-pymodbus, so Debian's /usr/bin/python3), on a free loopback TCP port, or
over Modbus RTU on a socat pty pair. The test reads the coils the daemon wrote and presses
buttons by setting the peer's discrete inputs.

Usage: test_modbus.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_table import BANKER_WINS, CTL, DAEMON, Daemon, ok, play_round  # noqa: E402

PEER = os.path.join(HERE, "modbus_peer.py")
PYTHON = "/usr/bin/python3"  # python3-pymodbus is installed for Debian's interpreter

# Coils: 0 candle, 1 bets open, 2 no more bets, 3 idle, 4 "table closed" (lit only in the safe
# image); holding register 10 bit 2 mirrors bets open.
CANDLE, BETS_OPEN, NO_MORE_BETS, IDLE, CLOSED = 0, 1, 2, 3, 4
# Discrete inputs: 0 deal, 2 void (needs confirming), 3 attendant key, 4 confirm, 5 new shoe,
# 6 the main door's switch, 7 the card reader's fault output, 8 a key whose edges the module counts
# in input register 30.
DEAL, VOID, ATTENDANT_KEY, CONFIRM, SHOE, DOOR, READER_FAULT, COUNTED = 0, 2, 3, 4, 5, 6, 7, 8
COUNTER = 30
# The WAGO 750-352 "alternative" watchdog the peer plays: 0x1000 its time (100 ms steps), 0x100A
# = 1 starts it, 0xAA55 to 0x1008 stops it.
WATCHDOG = ("  at_connect:\n    - {register: 4096, value: 10}\n    - {register: 4106, value: 1}\n"
            "  at_stop:\n    - {register: 4104, value: 43605}\n  watchdog_ms: 1000\n")


def modbus_config(device, extra="", poll_ms=20):
    return ("modbus:\n  device: %s\n  poll_ms: %d\n  debounce_ms: 20\n  reconnect_min_ms: 100\n"
            "  reconnect_max_ms: 400\n  fast_flash_ms: %d\n%s"
            "  lamps:\n"
            "    - {name: candle, coil: 0, when: {tilt: fast_flash, handpay: slow_flash, call_attendant: on}}\n"
            "    - {name: bets_open, coil: 1, when: {tilt: off, bets_open: on, last_bets: on}}\n"
            "    - {name: no_more_bets, coil: 2, when: {no_more_bets: on, dealing: on}}\n"
            "    - {name: idle, coil: 3, when: {idle: on}}\n"
            "    - {name: closed, coil: 4, safe: on, when: {}}\n"
            "    - {name: status_bets, register: 10, bit: 2, when: {bets_open: on}}\n"
            "  buttons:\n"
            "    - {name: deal, discrete_input: 0, action: close_bets}\n"
            "    - {name: void, discrete_input: 2, action: void_round, confirm: true}\n"
            "    - {name: attendant_key, discrete_input: 3, action: attendant_key}\n"
            "    - {name: confirm, discrete_input: 4, action: confirm}\n"
            "    - {name: shoe, discrete_input: 5, action: new_shoe}\n"
            "    - {name: counted, discrete_input: 8, action: attendant_key, counter_register: %d, max_hold_ms: 600}\n"
            "  switches:\n"
            "    - {name: door, discrete_input: 6, door: main}\n"
            "    - {name: reader, discrete_input: 7, reader_fault: true}\n"
            % (device, poll_ms, max(125, poll_ms), extra, COUNTER))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peer:
    """The Modbus device peer as a subprocess, driven over its stdin/stdout JSON lines."""

    def __init__(self, *where):
        self.where = where
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen([PYTHON, PEER, *self.where], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        if json.loads(line or "{}").get("ready") is not True:
            raise AssertionError("the Modbus peer did not start: %r" % line)

    def request(self, op, **fields):
        self.proc.stdin.write(json.dumps(dict(op=op, **fields)) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def coils(self, count=4):
        return self.request("coils", address=0, count=count)["coils"]

    def register(self, address):
        return self.request("registers", address=address, count=1)["registers"][0]

    def press(self, address, hold=0.3):
        """A press held for `hold` seconds (longer than the debounce and a few poll periods)."""
        self.request("press", address=address, value=1)
        time.sleep(hold)
        self.request("press", address=address, value=0)
        time.sleep(0.15)

    def wait_coils(self, expected, timeout=5.0):
        """Waits until every coil in `expected` {address: value} holds that value."""
        deadline = time.time() + timeout
        coils = None
        while time.time() < deadline:
            coils = self.coils(max(expected) + 1)
            if all(coils[a] == v for a, v in expected.items()):
                return coils
            time.sleep(0.02)
        raise AssertionError("coils %r, expected %r" % (coils, expected))

    def kill(self):
        self.proc.kill()
        self.proc.wait()

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.kill()


class ModbusTable(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pitlink-modbus-")
        self.peer = None
        self.daemon = None
        self.extra_processes = []

    def tearDown(self):
        if self.daemon and self.daemon.proc and self.daemon.proc.poll() is None:
            self.daemon.kill()
        if self.peer:
            self.peer.close()
        for peer in getattr(self, "extra_peers", []):
            peer.close()
        for p in self.extra_processes:
            p.kill()
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start_tcp(self, extra="", peer=True, table_extra="", poll_ms=20):
        self.port = free_port()
        if peer:
            self.peer = Peer("--tcp", str(self.port))
        self.daemon = Daemon(self.dir, extra=table_extra + modbus_config("{transport: tcp, port: %d}" % self.port, extra,
                                                                         poll_ms))
        engine = self.daemon.start()
        ok(self, engine.request("new_shoe"))
        return engine

    def status(self):
        out = subprocess.run([CTL, "status", "--json", "--socket", self.daemon.control], capture_output=True,
                             text=True, check=True).stdout
        return json.loads(out)

    def presses(self, button):
        return self.daemon.rows("SELECT json_extract(body, '$.outcome') FROM record "
                                "WHERE kind = 'button.pressed' AND json_extract(body, '$.button') = ? ORDER BY seq",
                                button)

    def refusals(self, button):
        return self.daemon.rows("SELECT json_extract(body, '$.error') FROM record WHERE kind = 'button.pressed' "
                                "AND json_extract(body, '$.button') = ? AND json_extract(body, '$.outcome') = 'refused' "
                                "ORDER BY seq", button)

    def records(self, kind):
        return [json.loads(body) for (body,) in
                self.daemon.rows("SELECT body FROM record WHERE kind = ? ORDER BY seq", kind)]

    def wait_for(self, what, check, timeout=5.0):
        deadline = time.time() + timeout
        value = None
        while time.time() < deadline:
            value = check()
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError("%s: not within %.1f s (last: %r)" % (what, timeout, value))

    def pty_pair(self, one, other):
        """A serial line: a socat pty pair linked at two paths in the test's directory."""
        paths = os.path.join(self.dir, one), os.path.join(self.dir, other)
        socat = subprocess.Popen(["socat", "pty,raw,echo=0,link=%s" % paths[0], "pty,raw,echo=0,link=%s" % paths[1]],
                                 stderr=subprocess.DEVNULL)
        self.extra_processes.append(socat)
        self.wait_for("the pty pair", lambda: all(os.path.exists(p) for p in paths))
        return paths

    def ctl(self, *args, check=True):
        run = subprocess.run([CTL, *args, "--socket", self.daemon.control], capture_output=True, text=True)
        if check and run.returncode != 0:
            raise AssertionError("pitlinkctl %s: %d %s" % (" ".join(args), run.returncode, run.stderr))
        return run

    def test_lamps_follow_the_table_and_each_press_is_journaled_once_then_acted_on(self):
        engine = self.start_tcp()
        peer = self.peer
        peer.wait_coils({IDLE: 1, BETS_OPEN: 0, CANDLE: 0})
        self.assertEqual(peer.register(10), 0)

        ok(self, engine.request("open_round"))
        peer.wait_coils({IDLE: 0, BETS_OPEN: 1, NO_MORE_BETS: 0})
        self.assertEqual(peer.register(10), 0b100)  # the register bit lamp, the rest of it 0

        # The deal button closes betting: the table acts, the lamps follow.
        peer.press(DEAL)
        engine.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "closed")
        peer.wait_coils({BETS_OPEN: 0, NO_MORE_BETS: 1})
        self.assertEqual(peer.register(10), 0)
        self.assertEqual(self.presses("deal"), [("done",)])

        # Two calls light the candle; the attendant key held for a second clears both, once.
        ok(self, engine.request("call_attendant", station=1))
        ok(self, engine.request("call_attendant", station=2))
        peer.wait_coils({CANDLE: 1})
        peer.press(ATTENDANT_KEY, hold=1.0)
        cleared = {engine.wait_event(lambda e: e["event"] == "attendant" and not e.get("called"))["station"]
                   for _ in range(2)}
        self.assertEqual(cleared, {1, 2})
        peer.wait_coils({CANDLE: 0})
        self.assertEqual(self.presses("attendant_key"), [("done",)])

        # Void needs confirming: armed by its press, done only by the confirm press.
        peer.press(VOID)
        time.sleep(0.3)
        self.assertFalse(any(e["event"] == "result" for e in engine.events))
        self.assertEqual(self.presses("void"), [("armed",)])
        peer.press(CONFIRM)
        result = engine.wait_event(lambda e: e["event"] == "result")
        self.assertTrue(result["voided"])
        self.assertEqual(self.presses("confirm"), [("confirmed",)])
        peer.wait_coils({IDLE: 1, NO_MORE_BETS: 0})

        # A confirm with nothing armed is journaled and does nothing.
        peer.press(CONFIRM)
        time.sleep(0.2)
        self.assertEqual(self.presses("confirm"), [("confirmed",), ("nothing to confirm",)])

        modbus = self.status()["daemon"]["modbus"]
        self.assertTrue(modbus["up"])
        self.assertEqual(modbus["presses"], 5)
        self.assertEqual(modbus["connects"], 1)
        self.assertEqual(modbus["failures"], 0)
        self.assertEqual(modbus["lamps"]["idle"], "on")
        self.assertEqual(modbus["lamps"]["bets_open"], "off")
        text = subprocess.run([CTL, "status", "--socket", self.daemon.control], capture_output=True, text=True,
                              check=True).stdout
        self.assertIn("modbus:  tcp 127.0.0.1:%d unit 1: up" % self.port, text)

    def test_every_press_counts_once_however_quick_or_long(self):
        self.start_tcp()
        self.peer.wait_coils({IDLE: 1})
        holds = [0.1, 0.1, 1.2, 0.1, 0.5, 0.1, 0.1, 0.1]  # longer than debounce + two polls
        for hold in holds:
            self.peer.press(ATTENDANT_KEY, hold=hold)
        # The last press is journaled once its refusal has committed (a loaded machine may take
        # longer than a poll or two): wait for as many as were made, then check none more come.
        self.wait_for("every press journaled", lambda: len(self.presses("attendant_key")) >= len(holds))
        time.sleep(0.3)
        # No station calls an attendant: each press is journaled, refused by the button's own rule.
        self.assertEqual(self.presses("attendant_key"), [("refused",)] * len(holds))
        self.assertEqual(self.refusals("attendant_key"), [("no_call",)] * len(holds))
        self.assertEqual(self.status()["daemon"]["modbus"]["presses"], len(holds))

    def test_the_candle_flashes_on_pitlinks_timer(self):
        # A hand-pay (slow flash): a win that reaches the jackpot limit locks the station.
        engine = self.start_tcp(extra="  slow_flash_ms: 200\n", table_extra="cashier:\n  jackpot_limit: 500\n")
        ok(self, engine.request("ticket_in", station=1, validation="123", amount=10_000))
        play_round(self, engine, [(1, "banker", 1_000)], BANKER_WINS)
        seen = set()
        deadline = time.time() + 3
        while time.time() < deadline and seen != {0, 1}:
            seen.add(self.peer.coils()[CANDLE])
            time.sleep(0.03)
        self.assertEqual(seen, {0, 1})  # slow flash: on and off
        time.sleep(1.5)
        writes = self.peer.request("writes")
        changes = [t for t, address, _ in writes["changes"] if address == CANDLE]
        gaps = [b - a for a, b in zip(changes[-6:], changes[-5:])]
        self.assertEqual(len(gaps), 5)
        # 200 ms half periods (not the default 500, not the fast 125), give or take a poll or two.
        self.assertTrue(0.15 < sorted(gaps)[2] < 0.30, gaps)
        self.assertTrue(all(0.08 < g < 0.45 for g in gaps), gaps)

    def test_a_failed_card_reader_flashes_the_candle_and_stops_the_table_until_it_reports_ok(self):
        engine = self.start_tcp()
        peer = self.peer
        peer.wait_coils({IDLE: 1, CANDLE: 0})
        ok(self, engine.request("reader", ok=False, message="reader cover open"))
        told = engine.wait_event(lambda e: e["event"] == "tilt" and e.get("tilted"))
        self.assertEqual(told["cause"], "reader")
        seen = set()
        deadline = time.time() + 3
        while time.time() < deadline and seen != {0, 1}:
            seen.add(peer.coils()[CANDLE])
            time.sleep(0.03)
        self.assertEqual(seen, {0, 1})  # the tilt's fast flash
        self.assertIn("reader", self.status()["tilts"])
        self.assertEqual(engine.request("open_round")["error"], "tilted")
        ok(self, engine.request("reader", ok=True))
        peer.wait_coils({CANDLE: 0, IDLE: 1})
        self.assertEqual(self.status()["tilts"], {})
        ok(self, engine.request("open_round"))
        kinds = self.daemon.rows("SELECT kind, json_extract(body, '$.cause') FROM record "
                                 "WHERE kind IN ('tilt.raised', 'tilt.cleared') ORDER BY seq")
        self.assertEqual(kinds, [("tilt.raised", "reader"), ("tilt.cleared", "reader")])

    def test_a_module_killed_mid_shoe_is_found_again_with_its_lamps_restored(self):
        engine = self.start_tcp()
        peer = self.peer
        play_round(self, engine, [], BANKER_WINS)
        ok(self, engine.request("open_round"))
        peer.wait_coils({BETS_OPEN: 1, IDLE: 0})

        peer.kill()  # the module dies with bets open; the table goes on
        ok(self, engine.request("close_bets"))
        for card in BANKER_WINS.split():
            ok(self, engine.request("card", card=card))
        engine.wait_event(lambda e: e["event"] == "result")
        time.sleep(0.3)
        modbus = self.status()["daemon"]["modbus"]
        self.assertFalse(modbus["up"])
        self.assertIn("connect", modbus["modules"][0]["error"])
        self.assertEqual(self.status()["tilts"], {})  # offline_tilt_ms 0: no tilt

        peer.start()  # a fresh module: every coil 0 until pitlinkd writes them again
        peer.wait_coils({IDLE: 1, BETS_OPEN: 0}, timeout=3)
        modbus = self.status()["daemon"]["modbus"]
        self.assertTrue(modbus["up"])
        self.assertEqual(modbus["connects"], 2)
        links = self.daemon.rows("SELECT json_extract(body, '$.up') FROM record WHERE kind = 'modbus.link' ORDER BY seq")
        self.assertEqual(links, [(1,), (0,), (1,)])

        # Buttons work again, one press one action: deal on an idle reader table opens a round.
        engine.events.clear()
        peer.press(DEAL)
        engine.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "bets_open")
        time.sleep(0.3)
        self.assertFalse(any(e["event"] == "round" and e.get("phase") == "bets_open" for e in engine.events))
        self.assertEqual(self.presses("deal"), [("done",)])

    def test_where_configured_a_silent_module_tilts_the_table_until_it_answers(self):
        engine = self.start_tcp(extra="  offline_tilt_ms: 300\n", peer=False)
        time.sleep(0.8)
        self.assertIn("modbus", self.status()["tilts"])
        refused = engine.request("open_round")
        self.assertFalse(refused["ok"])
        self.peer = Peer("--tcp", str(self.port))
        self.peer.wait_coils({IDLE: 1}, timeout=3)
        time.sleep(0.2)
        self.assertEqual(self.status()["tilts"], {})
        ok(self, engine.request("open_round"))
        self.peer.wait_coils({BETS_OPEN: 1})

    def test_rtu_over_a_socat_pty_pair(self):
        module_end, table_end = self.pty_pair("module", "table")
        self.peer = Peer("--rtu", module_end)
        self.daemon = Daemon(self.dir, extra=modbus_config(
            "{transport: rtu, serial_port: %s, baud: 19200, unit_id: 1, timeout_ms: 1000}" % table_end))
        engine = self.daemon.start()
        ok(self, engine.request("new_shoe"))
        self.peer.wait_coils({IDLE: 1}, timeout=5)
        # On a loaded machine the pymodbus peer can miss a reply's deadline; a button held across
        # the reconnect that follows is (by design) not a press: press again until one is seen.
        engine.sock.settimeout(3)
        for _ in range(5):
            self.peer.press(DEAL)
            try:
                engine.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "bets_open", timeout=3)
                break
            except (TimeoutError, OSError):
                continue
        else:
            self.fail("no press of deal was acted on over RTU: %r" % self.status()["daemon"]["modbus"])
        self.peer.wait_coils({BETS_OPEN: 1, IDLE: 0})
        self.assertEqual(self.presses("deal")[-1], ("done",))
        self.assertTrue(self.status()["daemon"]["modbus"]["modules"][0]["device"].startswith("rtu "))

    def test_two_units_on_one_rs485_bus_and_a_tcp_module_each_with_its_own_health(self):
        module_end, table_end = self.pty_pair("bus", "table")
        bus = Peer("--rtu", module_end, "--units", "1,2")  # two modules on one RS-485 line
        self.extra_peers = [bus]
        self.port = free_port()
        self.peer = Peer("--tcp", str(self.port))  # the tower light's module, on the network
        rtu = ("{transport: rtu, serial_port: %s, baud: 19200, unit_id: %%d, timeout_ms: 1000, byte_timeout_ms: 50,"
               " rs485: rts, rts_delay_us: 200, frame_gap_us: 2000}" % table_end)
        self.daemon = Daemon(self.dir, extra=(
            "modbus:\n  poll_ms: 50\n  debounce_ms: 20\n  reconnect_min_ms: 100\n  reconnect_max_ms: 400\n"
            "  modules:\n"
            "    - {name: tower, device: {transport: tcp, port: %d}}\n"
            "    - {name: left, device: %s}\n"
            "    - {name: right, device: %s}\n"
            "  lamps:\n"
            "    - {name: candle, module: tower, coil: 0, when: {tilt: on, call_attendant: on}}\n"
            "    - {name: bets_open, module: left, coil: 1, when: {bets_open: on}}\n"
            "    - {name: idle, module: right, coil: 3, when: {idle: on}}\n"
            "  buttons:\n"
            "    - {name: deal, module: right, discrete_input: 0, action: close_bets}\n"
            "    - {name: key, module: left, discrete_input: 0, action: attendant_key}\n"
            % (self.port, rtu % 1, rtu % 2)))
        engine = self.daemon.start()
        ok(self, engine.request("new_shoe"))
        # Each lamp on its own module; the same coil number on another unit is not touched.
        self.wait_for("idle on unit 2", lambda: bus.request("coils", unit=2, address=3, count=1)["coils"] == [1])
        self.assertEqual(bus.request("coils", unit=1, address=3, count=1)["coils"], [0])
        ok(self, engine.request("open_round"))
        self.wait_for("bets open on unit 1", lambda: bus.request("coils", unit=1, address=1, count=1)["coils"] == [1])
        self.assertEqual(bus.request("coils", unit=2, address=1, count=1)["coils"], [0])
        ok(self, engine.request("call_attendant", station=1))
        self.peer.wait_coils({0: 1})
        # A press on unit 2's input 0 is the deal; the same input on unit 1 is the attendant key.
        engine.sock.settimeout(3)
        bus.request("press", unit=2, address=0, value=1)
        engine.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "closed", timeout=5)
        bus.request("press", unit=2, address=0, value=0)
        self.assertTrue(self.status()["stations"][0]["attendant"])
        bus.request("press", unit=1, address=0, value=1)
        engine.wait_event(lambda e: e["event"] == "attendant" and not e.get("called"), timeout=5)
        bus.request("press", unit=1, address=0, value=0)
        modbus = self.status()["daemon"]["modbus"]
        self.assertEqual([m["name"] for m in modbus["modules"]], ["tower", "left", "right"])
        self.assertTrue(all(m["up"] for m in modbus["modules"]), modbus)
        self.assertEqual(modbus["modules"][2]["identity"]["product_code"], "PEER-1")  # the bus peer's name

        # The tower's module dies: only its health changes; the bus's modules go on.
        self.peer.kill()
        self.wait_for("tower down", lambda: not self.status()["daemon"]["modbus"]["modules"][0]["up"])
        modbus = self.status()["daemon"]["modbus"]
        self.assertFalse(modbus["up"])
        self.assertTrue(modbus["modules"][1]["up"] and modbus["modules"][2]["up"], modbus)
        links = self.records("modbus.link")
        self.assertEqual([(r["module"], r["up"]) for r in links if not r["up"]], [("tower", False)])
        cycles = modbus["modules"][2]["cycles"]
        self.wait_for("the bus polled on", lambda: self.status()["daemon"]["modbus"]["modules"][2]["cycles"] > cycles + 5)
        text = self.ctl("status").stdout
        self.assertIn("modbus:  tower tcp 127.0.0.1:%d unit 1: DOWN" % self.port, text)
        self.assertIn("modbus:  right rtu %s 19200 8N1 unit 2: up" % table_end, text)

    def test_sighup_with_a_changed_module_says_it_needs_a_restart_and_the_lamps_go_on(self):
        self.start_tcp()
        self.peer.wait_coils({IDLE: 1})
        self.daemon.rewrite_config([("poll_ms: 20", "poll_ms: 30")])
        self.daemon.proc.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        rows = []
        while not rows and time.time() < deadline:
            rows = self.daemon.rows("SELECT body FROM record WHERE kind = 'config.loaded' AND "
                                    "json_extract(body, '$.trigger') = 'SIGHUP'")
            time.sleep(0.05)
        self.assertEqual(json.loads(rows[0][0])["restart_needed"], ["modbus"])
        self.assertTrue(self.status()["daemon"]["modbus"]["up"])

    def test_sigterm_leaves_the_safe_image_and_sigkill_the_modules_own(self):
        engine = self.start_tcp(extra=WATCHDOG)
        peer = self.peer
        peer.wait_coils({IDLE: 1, CLOSED: 0}, timeout=5)
        # The at_connect writes armed the module's watchdog; status says so.
        self.assertEqual(peer.register(4096), 10)
        self.assertEqual(peer.register(4106), 1)
        self.wait_for("watchdog armed", lambda: self.status()["daemon"]["modbus"]["modules"][0]["watchdog"]["armed"])
        self.assertIn("watchdog: armed (1000 ms)", self.ctl("status").stdout)
        self.wait_for("peer watchdog running", lambda: peer.request("watchdog")["running"])
        ok(self, engine.request("open_round"))
        peer.wait_coils({BETS_OPEN: 1, IDLE: 0})

        # A clean stop: the safe image ("closed" on, the rest off), and the watchdog stopped so
        # that it stays.
        code, out = self.daemon.terminate()
        self.assertEqual(code, 0, out)
        self.assertEqual(peer.coils(5), [0, 0, 0, 0, 1])
        self.assertEqual(peer.register(10), 0)
        time.sleep(1.5)  # longer than the watchdog's time
        self.assertEqual(peer.coils(5), [0, 0, 0, 0, 1])
        self.assertEqual(peer.request("watchdog")["expired"], 0)

        # Started again: the lamps leave the safe image, the watchdog is armed again.
        engine = self.daemon.start()
        ok(self, engine.request("new_shoe"))
        peer.wait_coils({IDLE: 1, CLOSED: 0}, timeout=5)
        self.wait_for("peer watchdog running again", lambda: peer.request("watchdog")["running"])
        ok(self, engine.request("open_round"))
        peer.wait_coils({BETS_OPEN: 1})
        # Killed: nothing writes a safe image; the module's own watchdog drops every output.
        self.daemon.kill()
        killed = time.time()
        peer.wait_coils({BETS_OPEN: 0, CANDLE: 0, IDLE: 0}, timeout=3)
        self.assertGreater(time.time() - killed, 0.7)  # the watchdog's time (1 s), not pitlinkd
        self.assertEqual(peer.request("watchdog")["expired"], 1)

    def test_one_bad_frame_is_a_transient_error_not_an_outage(self):
        self.start_tcp()
        self.peer.wait_coils({IDLE: 1})
        self.wait_for("up", lambda: self.status()["daemon"]["modbus"]["up"])
        self.peer.request("fail_next", count=1)
        modbus = self.wait_for("a transient error", lambda: (lambda m: m if m["transient_errors"] >= 1 else None)(
            self.status()["daemon"]["modbus"]))
        self.assertTrue(modbus["up"])
        self.assertEqual(modbus["failures"], 0)
        self.assertEqual(modbus["connects"], 1)
        self.assertIn("Illegal data address", modbus["modules"][0]["last_transient_error"])  # the exception the peer answers
        self.assertEqual([r["up"] for r in self.records("modbus.link")], [True])

        # A late answer (past timeout_ms, 200 ms): the request is tried again, the late answer
        # flushed rather than taken for the retry's; still no outage.
        self.peer.request("slow_next", seconds=0.35)
        modbus = self.wait_for("a second transient error", lambda: (lambda m: m if m["transient_errors"] >= 2 else None)(
            self.status()["daemon"]["modbus"]))
        self.assertEqual(modbus["failures"], 0)
        self.assertIn("timed out", modbus["modules"][0]["last_transient_error"])
        self.assertEqual([r["up"] for r in self.records("modbus.link")], [True])
        self.peer.wait_coils({IDLE: 1})

        # Several bad answers in a row outlast the retry: an outage, journaled once, and its end
        # with how long it lasted and what was seen.
        self.peer.request("fail_next", count=6)
        self.wait_for("the outage's end", lambda: len(self.records("modbus.link")) >= 3)
        links = self.records("modbus.link")
        self.assertEqual([r["up"] for r in links], [True, False, True])
        self.assertIn("Illegal data address", links[1]["error"])
        self.assertGreater(links[2]["down_ms"], 0)
        self.assertGreaterEqual(links[2]["failed_cycles"], 1)
        self.assertTrue(any("Illegal data address" in e for e in links[2]["errors"]), links[2])

    def test_a_stuck_coil_is_a_fault_found_by_the_periodic_read_back(self):
        engine = self.start_tcp(extra="  read_back_ms: 100\n")
        self.peer.wait_coils({IDLE: 1})
        self.peer.request("stick", address=BETS_OPEN, value=0)
        ok(self, engine.request("open_round"))
        faults = self.wait_for("a stuck_output fault", lambda: [
            r for r in self.records("modbus.fault") if r["fault"] == "stuck_output" and r["active"]])
        self.assertEqual(faults[0]["point"], "bets_open")
        self.assertEqual((faults[0]["written"], faults[0]["holds"]), ("on", "off"))
        modbus = self.status()["daemon"]["modbus"]
        self.assertEqual(modbus["faults"], {"bets_open": "stuck_output"})
        self.assertTrue(modbus["up"])  # a fault of one output, not an outage
        io = json.loads(self.ctl("io", "--json").stdout)["modules"][0]
        bets = [o for o in io["outputs"] if o["name"] == "bets_open"][0]
        self.assertEqual((bets["written"], bets["holds"]), (True, False))
        self.assertIn("STUCK", self.ctl("io").stdout)
        self.peer.request("stick", address=BETS_OPEN, value=None)
        self.wait_for("the fault cleared", lambda: [r for r in self.records("modbus.fault") if not r["active"]])
        self.peer.wait_coils({BETS_OPEN: 1})
        self.assertEqual(self.status()["daemon"]["modbus"]["faults"], {})

    def test_a_20ms_tap_on_a_counted_input_counts_once_and_a_held_key_is_a_fault(self):
        self.start_tcp(poll_ms=100)
        self.peer.wait_coils({IDLE: 1})
        self.wait_for("up", lambda: self.status()["daemon"]["modbus"]["up"])
        taps = 6
        for _ in range(taps):
            self.peer.request("tap", address=COUNTED, ms=20, counter=COUNTER)  # a fifth of a poll period
            time.sleep(0.25)
        self.wait_for("every tap", lambda: len(self.presses("counted")) >= taps)
        time.sleep(0.3)
        self.assertEqual(len(self.presses("counted")), taps)
        self.assertEqual(self.status()["daemon"]["modbus"]["counted_presses"], taps)
        # Held past max_hold_ms (600): a fault, cleared when let go.
        self.peer.request("press", address=COUNTED, value=1)
        held = self.wait_for("a button_held fault", lambda: [
            r for r in self.records("modbus.fault") if r["fault"] == "button_held" and r["active"]], timeout=3)
        self.assertEqual(held[0]["point"], "counted")
        self.assertGreater(held[0]["held_ms"], 600)
        self.assertEqual(self.status()["daemon"]["modbus"]["faults"], {"counted": "button_held"})
        self.peer.request("press", address=COUNTED, value=0)
        self.wait_for("the fault cleared", lambda: [
            r for r in self.records("modbus.fault") if r["fault"] == "button_held" and not r["active"]])

    def test_refused_button_actions_are_journaled_as_refused_with_the_rule(self):
        engine = self.start_tcp()
        self.peer.wait_coils({IDLE: 1})
        self.peer.press(VOID)  # armed ...
        self.peer.press(CONFIRM)  # ... and confirmed, with no round to void
        self.wait_for("the confirm's record", lambda: self.presses("confirm"))
        self.assertEqual(self.presses("void"), [("armed",)])
        self.assertEqual(self.presses("confirm"), [("refused",)])
        self.assertEqual(self.refusals("confirm"), [("no_round",)])
        ok(self, engine.request("open_round"))
        self.peer.press(SHOE)  # a new shoe mid-round
        self.peer.press(DEAL)  # closes betting: done
        engine.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "closed")
        self.peer.press(DEAL)  # nothing left to close
        self.wait_for("the second deal's record", lambda: len(self.presses("deal")) == 2)
        self.assertEqual(self.refusals("shoe"), [("round_in_progress",)])
        self.assertEqual(self.presses("deal"), [("done",), ("refused",)])
        self.assertEqual(self.refusals("deal"), [("past_betting",)])

    def test_door_and_card_reader_switches_tilt_the_table_until_they_clear(self):
        self.start_tcp()
        self.peer.wait_coils({IDLE: 1})
        self.peer.request("press", address=DOOR, value=1)
        self.wait_for("the door's tilt", lambda: "door:main" in self.status()["tilts"])
        self.assertEqual([r["door"] for r in self.records("door.opened")], ["main"])
        self.peer.wait_coils({CANDLE: 1})  # a tilt flashes the candle
        self.peer.request("press", address=READER_FAULT, value=1)
        self.wait_for("the reader's tilt", lambda: "reader" in self.status()["tilts"])
        self.peer.request("press", address=DOOR, value=0)
        self.peer.request("press", address=READER_FAULT, value=0)
        self.wait_for("both cleared", lambda: not self.status()["tilts"])
        self.assertEqual([r["door"] for r in self.records("door.closed")], ["main"])
        self.assertEqual(self.status()["daemon"]["modbus"]["switches"], {"door": False, "reader": False})

    def test_lamp_test_io_and_the_modules_identity_for_technicians(self):
        engine = self.start_tcp()
        self.peer.wait_coils({IDLE: 1})
        modbus = self.wait_for("identity", lambda: self.status()["daemon"]["modbus"]["modules"][0].get("identity"))
        self.assertEqual(modbus, {"vendor": "pitlink test peer", "product_code": "PEER-0", "revision": "3.0"})
        self.assertIn("module: pitlink test peer PEER-0 3.0", self.ctl("status").stdout)
        # io: the inputs as the module reports them now.
        self.peer.request("press", address=SHOE, value=1)
        io = json.loads(self.ctl("io", "--json").stdout)["modules"][0]
        levels = {i["name"]: i["level"] for i in io["inputs"]}
        self.assertTrue(levels["shoe"])
        self.assertFalse(levels["deal"])
        self.assertEqual([o["name"] for o in io["outputs"]][:5], ["candle", "bets_open", "no_more_bets", "idle", "closed"])
        self.peer.request("press", address=SHOE, value=0)
        # The lamp test: each lamp alone, in order, then the table's lamps again.
        writes_before = len(self.peer.request("writes")["changes"])
        self.ctl("lamps", "test", "--step-ms", "200")
        time.sleep(0.2 * 6 + 0.5)
        self.peer.wait_coils({IDLE: 1, CLOSED: 0})
        changes = self.peer.request("writes")["changes"][writes_before:]
        lit = [address for (_, address, value) in changes if value == 1]
        self.assertEqual(lit[:5], [CANDLE, BETS_OPEN, NO_MORE_BETS, IDLE, CLOSED])
        tests = self.records("modbus.lamp_test")
        self.assertEqual((tests[0]["outcome"], tests[0]["step_ms"]), ("started", 200))
        # Not during a round: refused, and journaled as refused.
        ok(self, engine.request("open_round"))
        run = self.ctl("lamps", "test", check=False)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("round_in_progress", run.stderr)
        self.assertEqual(self.records("modbus.lamp_test")[-1]["error"], "round_in_progress")

    def test_a_bad_point_map_stops_the_daemon_with_the_key_named(self):
        daemon = Daemon(self.dir, extra="modbus:\n  device: {transport: tcp, port: 1502}\n  lamps:\n"
                        "    - {name: a, coil: 0}\n    - {name: b, coil: 0}\n")
        run = subprocess.run([DAEMON, "--config", daemon.config], capture_output=True, text=True, timeout=10)
        out = run.stdout + run.stderr
        self.assertEqual(run.returncode, 78, out)
        self.assertIn("modbus.lamps[1]", out)
        self.assertIn("coil 0 drives another lamp too (a)", out)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:])
