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

# Coils: 0 candle, 1 bets open, 2 no more bets, 3 idle; holding register 10 bit 2 mirrors bets open.
CANDLE, BETS_OPEN, NO_MORE_BETS, IDLE = 0, 1, 2, 3
# Discrete inputs: 0 deal, 2 void (needs confirming), 3 attendant key, 4 confirm.
DEAL, VOID, ATTENDANT_KEY, CONFIRM = 0, 2, 3, 4


def modbus_config(device, extra=""):
    return ("modbus:\n  device: %s\n  poll_ms: 20\n  debounce_ms: 20\n  reconnect_min_ms: 100\n"
            "  reconnect_max_ms: 400\n%s"
            "  lamps:\n"
            "    - {name: candle, coil: 0, when: {tilt: fast_flash, handpay: slow_flash, call_attendant: on}}\n"
            "    - {name: bets_open, coil: 1, when: {tilt: off, bets_open: on, last_bets: on}}\n"
            "    - {name: no_more_bets, coil: 2, when: {no_more_bets: on, dealing: on}}\n"
            "    - {name: idle, coil: 3, when: {idle: on}}\n"
            "    - {name: status_bets, register: 10, bit: 2, when: {bets_open: on}}\n"
            "  buttons:\n"
            "    - {name: deal, discrete_input: 0, action: close_bets}\n"
            "    - {name: void, discrete_input: 2, action: void_round, confirm: true}\n"
            "    - {name: attendant_key, discrete_input: 3, action: attendant_key}\n"
            "    - {name: confirm, discrete_input: 4, action: confirm}\n" % (device, extra))


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
            coils = self.coils()
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
        for p in self.extra_processes:
            p.kill()
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start_tcp(self, extra="", peer=True, table_extra=""):
        self.port = free_port()
        if peer:
            self.peer = Peer("--tcp", str(self.port))
        self.daemon = Daemon(self.dir, extra=table_extra + modbus_config("{transport: tcp, port: %d}" % self.port, extra))
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
        time.sleep(0.3)
        self.assertEqual(self.presses("attendant_key"), [("done",)] * len(holds))
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
        self.assertIn("connect", modbus["error"])
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
        module_end, table_end = os.path.join(self.dir, "module"), os.path.join(self.dir, "table")
        socat = subprocess.Popen(["socat", "pty,raw,echo=0,link=%s" % module_end, "pty,raw,echo=0,link=%s" % table_end],
                                 stderr=subprocess.DEVNULL)
        self.extra_processes.append(socat)
        deadline = time.time() + 5
        while not (os.path.exists(module_end) and os.path.exists(table_end)) and time.time() < deadline:
            time.sleep(0.05)
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
        self.assertTrue(self.status()["daemon"]["modbus"]["device"].startswith("rtu "))

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

    def test_a_bad_point_map_stops_the_daemon_with_the_key_named(self):
        daemon = Daemon(self.dir, extra="modbus:\n  device: {transport: tcp, port: 1502}\n  lamps:\n"
                        "    - {name: a, coil: 0}\n    - {name: b, coil: 0}\n")
        run = subprocess.run([DAEMON, "--config", daemon.config], capture_output=True, text=True, timeout=10)
        out = run.stdout + run.stderr
        self.assertEqual(run.returncode, 78, out)
        self.assertIn("modbus.lamps", out)
        self.assertIn("coil 0 drives another lamp too", out)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:])
