#!/usr/bin/env python3
"""The demo of the table's lamps, buttons and switches on a real floor (issue 21): pitlinkd with
three Modbus modules, a tower light on Modbus TCP and two units on one RS-485 line (RTU over a
socat pty pair, RTS direction control), all played by tests/integration/modbus_peer.py
(python3-pymodbus). It shows, step by step, what a technician and an inspector see:

  the safe image until the table is ready; each module's health, watchdog and identity (43/14);
  `pitlinkctl io` and `pitlinkctl lamps test`; one bad answer (a transient error, not an outage);
  a stuck coil found by the read-back; taps shorter than the poll counted by the module's edge
  counter; a door switch that tilts the table; a refused button action journaled as refused;
  SIGTERM leaving the safe image, SIGKILL leaving the module's own watchdog to drop the lamps.

Usage: demo_table_io.py --pitlinkd BIN --pitlinkctl BIN --paytable FILE --dir DIR
"""
import argparse
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from engine_client import EngineClient  # noqa: E402

PEER = os.path.join(HERE, "..", "tests", "integration", "modbus_peer.py")
# Tower module (TCP): coil 0 candle, 1 bets open, 2 "table closed" (lit only in the safe image).
CANDLE, BETS_OPEN, CLOSED = 0, 1, 2


class Peer:
    """A Modbus module played by the pymodbus peer, driven over its stdin/stdout JSON lines."""

    def __init__(self, *where):
        self.proc = subprocess.Popen(["/usr/bin/python3", PEER, *where], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if json.loads(self.proc.stdout.readline() or "{}").get("ready") is not True:
            raise SystemExit("the Modbus peer did not start")

    def ask(self, op, **fields):
        self.proc.stdin.write(json.dumps(dict(op=op, **fields)) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def coils(self, count=3, unit=None):
        extra = {} if unit is None else {"unit": unit}
        return self.ask("coils", address=0, count=count, **extra)["coils"]

    def close(self):
        self.proc.kill()
        self.proc.wait()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, check, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit("demo: %s did not happen within %.0f s" % (what, timeout))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--pitlinkd", "--pitlinkctl", "--paytable", "--dir"):
        parser.add_argument(flag, required=True)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    bus, table_end = os.path.join(args.dir, "rs485-bus"), os.path.join(args.dir, "rs485-table")
    socat = subprocess.Popen(["socat", "pty,raw,echo=0,link=%s" % bus, "pty,raw,echo=0,link=%s" % table_end],
                             stderr=subprocess.DEVNULL)
    wait_for("the pty pair", lambda: os.path.exists(bus) and os.path.exists(table_end))
    port = free_port()
    tower = Peer("--tcp", str(port))
    units = Peer("--rtu", bus, "--units", "1,2")
    config = os.path.join(args.dir, "pitlink.yaml")
    control = os.path.join(args.dir, "control.sock")
    engine_socket = os.path.join(args.dir, "engine.sock")
    rtu = ("{transport: rtu, serial_port: %s, baud: 19200, unit_id: %%d, timeout_ms: 500, byte_timeout_ms: 20, "
           "rs485: rts, rts_delay_us: 200, frame_gap_us: 2000}" % table_end)
    with open(config, "w") as f:
        f.write(
            "table:\n  source: reader\n  stations: 4\n  paytable: %s\n"
            "rounds:\n  bets_open_ms: 60000\n  last_bets_ms: 1000\n"
            "engine:\n  socket: %s\ncontrol:\n  socket: %s\njournal:\n  path: %s/journal.db\nlog:\n  level: warn\n"
            "modbus:\n  poll_ms: 100\n  debounce_ms: 20\n  read_back_ms: 200\n"
            "  reconnect_min_ms: 100\n  reconnect_max_ms: 400\n"
            "  modules:\n"
            "    - name: tower\n"
            "      device: {transport: tcp, port: %d, timeout_ms: 200}\n"
            "      at_connect: [{register: 4096, value: 10}, {register: 4106, value: 1}]   # WAGO-style watchdog, 1 s\n"
            "      at_stop: [{register: 4104, value: 43605}]                              # stopped at a clean stop\n"
            "      watchdog_ms: 1000\n"
            "    - {name: dealer, device: %s}\n"
            "    - {name: doors, device: %s}\n"
            "  lamps:\n"
            "    - {name: candle, module: tower, coil: 0, when: {tilt: fast_flash, call_attendant: on}}\n"
            "    - {name: bets_open, module: tower, coil: 1, when: {tilt: off, bets_open: on, last_bets: on}}\n"
            "    - {name: closed, module: tower, coil: 2, safe: on, when: {}}\n"
            "    - {name: door_lamp, module: doors, coil: 0, when: {door_open: on}}\n"
            "  buttons:\n"
            "    - {name: deal, module: dealer, discrete_input: 0, action: close_bets}\n"
            "    - {name: shoe, module: dealer, discrete_input: 1, action: new_shoe}\n"
            "    - {name: key, module: dealer, discrete_input: 2, action: attendant_key, counter_register: 30}\n"
            "  switches:\n"
            "    - {name: cash_door, module: doors, discrete_input: 0, door: cash_box}\n"
            % (args.paytable, engine_socket, control, args.dir, port, rtu % 1, rtu % 2))
    print("--- pitlink.yaml's modbus section: three modules, two of them units on one RS-485 line")
    with open(config) as f:
        print("".join(line for line in f.read().split("modbus:", 1)[1].splitlines(True)[:12]))

    def ctl(*argv, check=True):
        run = subprocess.run([args.pitlinkctl, *argv, "--socket", control], capture_output=True, text=True)
        if check and run.returncode != 0:
            raise SystemExit("pitlinkctl %s: %s" % (" ".join(argv), run.stderr))
        return run

    def status():
        return json.loads(ctl("status", "--json").stdout)

    def records(kind):
        db = sqlite3.connect(os.path.join(args.dir, "journal.db"))
        try:
            return [json.loads(b) for (b,) in db.execute("SELECT body FROM record WHERE kind = ? ORDER BY seq", (kind,))]
        finally:
            db.close()

    daemon = subprocess.Popen([args.pitlinkd, "--config", config])
    try:
        engine = EngineClient(engine_socket)
        engine.request("new_shoe")
        wait_for("all modules up", lambda: status()["daemon"]["modbus"]["up"])
        wait_for("the table's lamps at the next poll", lambda: tower.coils()[CLOSED] == 0)
        closed = [v for (_, a, v) in tower.ask("writes")["changes"] if a == CLOSED]
        print("--- until the table was ready the tower showed the safe image: 'closed' went", closed,
              "\ntower coils now [candle, bets_open, closed]:", tower.coils())
        print("\n--- pitlinkctl status (the Modbus part)")
        print("\n".join(line for line in ctl("status").stdout.splitlines()
                        if line.startswith(("modbus", "         "))))
        print("\n--- pitlinkctl io")
        print(ctl("io").stdout, end="")

        print("\n--- pitlinkctl lamps test --step-ms 300 (each lamp alone in turn)")
        before = len(tower.ask("writes")["changes"])
        print(ctl("lamps", "test", "--step-ms", "300").stdout, end="")
        time.sleep(0.3 * 4 + 0.4)
        lit = [a for (_, a, v) in tower.ask("writes")["changes"][before:] if v == 1]
        print("tower coils lit in turn:", lit[:3], "then back:", tower.coils())

        print("\n--- one bad answer from the tower: tried again, a transient error, not an outage")
        tower.ask("fail_next", count=1)
        module = wait_for("a transient error", lambda: (lambda m: m if m["transient_errors"] else None)(
            status()["daemon"]["modbus"]["modules"][0]))
        print("tower: up %s, transient errors %d (%s), failures %d" % (
            module["up"], module["transient_errors"], module["last_transient_error"], module["failures"]))

        print("\n--- the bets-open coil sticks off on the module: found by the read-back")
        tower.ask("stick", address=BETS_OPEN, value=0)
        engine.request("open_round")
        fault = wait_for("the fault", lambda: records("modbus.fault"))[0]
        print("journal modbus.fault:", json.dumps(fault))
        print(ctl("io").stdout.split("\n\n")[0].splitlines()[0])
        print("\n".join(line for line in ctl("io").stdout.splitlines() if "STUCK" in line))
        tower.ask("stick", address=BETS_OPEN, value=None)
        wait_for("the fault cleared", lambda: len(records("modbus.fault")) >= 2)
        print("freed: the fault cleared, bets_open lit:", tower.coils()[BETS_OPEN] == 1)

        print("\n--- three 20 ms taps on the attendant key, a fifth of a poll: the module counts the edges")
        engine.request("call_attendant", station=2)
        for _ in range(3):
            units.ask("tap", unit=1, address=2, ms=20, counter=30)
            time.sleep(0.3)
        wait_for("three presses", lambda: status()["daemon"]["modbus"]["counted_presses"] >= 3)
        for press in records("button.pressed"):
            print("journal button.pressed:", json.dumps(press))

        print("\n--- the new-shoe button mid-round: refused by the table, journaled as refused")
        units.ask("press", unit=1, address=1, value=1)
        time.sleep(0.4)
        units.ask("press", unit=1, address=1, value=0)
        wait_for("the refusal", lambda: [p for p in records("button.pressed") if p["button"] == "shoe"])
        print("journal button.pressed:", json.dumps([p for p in records("button.pressed") if p["button"] == "shoe"][0]))

        print("\n--- the cash door opens (a switch on unit 2): a tilt, the door lamp on, bets-open dark")
        units.ask("press", unit=2, address=0, value=1)
        wait_for("the door's tilt", lambda: "door:cash_box" in status()["tilts"])
        time.sleep(0.3)
        print("tilts:", status()["tilts"], "| door lamp:", units.coils(1, unit=2), "| tower:", tower.coils())
        units.ask("press", unit=2, address=0, value=0)
        wait_for("the door closed", lambda: not status()["tilts"])
        print("closed again: tilts", status()["tilts"])

        print("\n--- SIGTERM: the last cycle writes the safe image and stops the watchdog")
        daemon.terminate()
        daemon.wait(timeout=15)
        print("tower coils [candle, bets_open, closed]:", tower.coils())
        time.sleep(1.5)
        print("1.5 s later (past the watchdog's 1 s):", tower.coils(), "watchdog:", tower.ask("watchdog"))

        print("\n--- started again, then SIGKILL: nothing writes a safe image; the module's watchdog drops its outputs")
        daemon = subprocess.Popen([args.pitlinkd, "--config", config])
        engine = EngineClient(engine_socket)
        engine.request("new_shoe")
        engine.request("open_round")
        wait_for("bets open lit", lambda: tower.coils()[BETS_OPEN] == 1)
        wait_for("the watchdog running", lambda: tower.ask("watchdog")["running"])
        print("bets open:", tower.coils())
        daemon.kill()
        daemon.wait()
        killed = time.time()
        wait_for("the module's own safe state", lambda: tower.coils()[BETS_OPEN] == 0, timeout=5)
        print("%.1f s after the kill: %s, watchdog: %s" % (time.time() - killed, tower.coils(), tower.ask("watchdog")))
        print("\n--- the outages and faults an inspector reads")
        for kind in ("modbus.link", "modbus.fault", "modbus.lamp_test"):
            for r in records(kind):
                print(kind, json.dumps(r))
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        tower.close()
        units.close()
        socat.kill()
        socat.wait()


if __name__ == "__main__":
    main()
