#!/usr/bin/python3
"""A Modbus I/O module for pitlinkd to talk to: a python3-pymodbus server (Debian's
/usr/bin/python3) on loopback TCP or on a serial port (RTU, e.g. one end of a socat pty pair).

It holds coils, discrete inputs and input registers at addresses 0-255 and holding registers at
0-4351 (zero-based, as on the wire), for any unit id, or, with --units 1,2, one such module per
unit id (several units on one RS-485 bus). It answers function 43/14 (Read Device
Identification: vendor "pitlink test peer", product code "PEER-<unit>", revision "3.0").

Like a WAGO 750-352 coupler's "alternative" watchdog, holding register 0x1000 (4096) is a
time-out in 100 ms steps and writing 1 to 0x100A (4106) starts it: any request retriggers it; when
no request comes for that long, every coil and holding register 0-255 drops to 0 (the module's
own safe state), and the next request starts it again; 0xAA55 written to 0x1008 stops it.

Its stdin takes one JSON command per line (with "unit": N where there are several) and answers
each on stdout with one JSON line, so that a test plays the table's hardware:

  {"op": "press", "address": 2, "value": 1}     set discrete input 2 (a button) to 1 or 0
  {"op": "tap", "address": 2, "ms": 20, "counter": 30}
      discrete input 2 high for 20 ms, and input register 30 (its edge counter) counts one
  {"op": "input_register", "address": 5, "value": 4}
  {"op": "coils", "address": 0, "count": 4}     -> {"coils": [0, 1, 0, 0]}
  {"op": "registers", "address": 10, "count": 1} -> {"registers": [3]}   (holding registers)
  {"op": "writes"}                              -> {"writes": N, "changes": [[t, address, value], ...]}
      every write request seen, and every coil change with its time (time.monotonic())
  {"op": "stick", "address": 1, "value": 0}     coil 1 stuck at 0 (writes to it do nothing); "value": null frees it
  {"op": "fail_next", "count": 1}              the next request(s) answered with an exception
  {"op": "slow_next", "seconds": 0.5}          the next request answered that late
  {"op": "watchdog"}                           -> {"running": bool, "expired": N, "timeout_ms": T}

With --names 0=candle,1=bets_open ... it prints lamp changes instead ("lamp candle on", a lamp
changing faster than every 1.2 s once as "flashing"), and --press 3:4 presses the button on
discrete input 3 every 4 s: that is what the demo shows. A test starts it, and kills it
(SIGKILL) to play a dead module.
"""
import argparse
import asyncio
import json
import logging
import sys
import threading
import time

from pymodbus.device import ModbusDeviceIdentification
from pymodbus.datastore import ModbusSequentialDataBlock, ModbusServerContext, ModbusSlaveContext
from pymodbus.server import StartAsyncSerialServer, StartAsyncTcpServer
from pymodbus.transaction import ModbusRtuFramer

SIZE = 256
HOLDING_SIZE = 0x1100
WATCHDOG_TIME, WATCHDOG_STOP, WATCHDOG_START = 0x1000, 0x1008, 0x100A
FLASHING_S = 1.2


class Module:
    """One unit's state beyond its data blocks: the watchdog, requests to fail, the last request."""

    def __init__(self):
        self.lock = threading.Lock()
        self.last_request = time.monotonic()
        self.fail_next = 0
        self.slow_next = 0.0
        self.running = False
        self.expired = 0

    def touch(self):
        """A request came: it retriggers the watchdog (and restarts it after an expiry)."""
        with self.lock:
            self.last_request = time.monotonic()
            slow, self.slow_next = self.slow_next, 0.0
            if self.fail_next > 0:
                self.fail_next -= 1
                return False
        if slow:
            time.sleep(slow)  # the answer goes out late (the whole server waits, as a busy module)
        return True


class Block(ModbusSequentialDataBlock):
    """A data block whose every request retriggers the module's watchdog; fails on command."""

    def __init__(self, module, size):
        super().__init__(0, [0] * size)
        self.module = module

    def validate(self, address, count=1):
        return self.module.touch() and super().validate(address, count)


class HoldingBlock(Block):
    """Holding registers; 0xAA55 or 0x55AA written to 0x1008 stops the watchdog (as on a WAGO coupler)."""

    def setValues(self, address, values):  # noqa: N802 (pymodbus API)
        if not isinstance(values, list):
            values = [values]
        super().setValues(address, values)
        if address <= WATCHDOG_STOP < address + len(values) and values[WATCHDOG_STOP - address] in (0xAA55, 0x55AA):
            super().setValues(WATCHDOG_START, [0])


class CoilBlock(Block):
    """Coils that remember every write request and every change, with its time; some stuck."""

    def __init__(self, module, on_change):
        super().__init__(module, SIZE)
        self.writes = 0
        self.changes = []
        self.on_change = on_change
        self.stuck = {}

    def setValues(self, address, values):  # noqa: N802 (pymodbus API)
        if not isinstance(values, list):
            values = [values]
        values = [self.stuck.get(address + i, v) for i, v in enumerate(values)]
        now = time.monotonic()
        before = self.getValues(address, len(values))
        super().setValues(address, values)
        self.writes += 1
        for i, (old, new) in enumerate(zip(before, values)):
            if bool(old) != bool(new):
                self.changes.append([now, address + i, int(bool(new))])
                self.on_change(address + i, bool(new))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT")
    where.add_argument("--rtu", metavar="DEVICE", help="serve Modbus RTU on this serial port")
    parser.add_argument("--baud", type=int, default=19200)
    parser.add_argument("--units", default="", help="one module per unit id (e.g. 1,2); default: any unit id")
    parser.add_argument("--names", default="", help="coil names for printing lamp changes: 0=candle,1=green")
    parser.add_argument("--press", default="", metavar="ADDRESS:SECONDS",
                        help="press the button on this discrete input for 0.3 s every SECONDS (the demo's dealer)")
    args = parser.parse_args()

    logging.getLogger("pymodbus").setLevel(logging.CRITICAL)  # a client going away is not news
    names = dict((int(a), n) for a, n in (p.split("=", 1) for p in args.names.split(",") if p))

    last_change = {}  # address -> (time, shown as flashing)

    def on_change(address, on):
        """Prints a lamp's change; a lamp changing faster than FLASHING_S is shown once as flashing."""
        if not names:
            return
        now = time.monotonic()
        then, flashing = last_change.get(address, (0.0, False))
        fast = now - then < FLASHING_S
        last_change[address] = (now, fast)
        if fast and flashing:
            return
        state = "flashing" if fast else ("on" if on else "off")
        print(f"lamp {names.get(address, address)} {state}", flush=True)

    units = [int(u) for u in args.units.split(",") if u] or [0]
    modules, stores, coil_blocks = {}, {}, {}
    for unit in units:
        module = Module()
        coils = CoilBlock(module, on_change)
        modules[unit], coil_blocks[unit] = module, coils
        stores[unit] = ModbusSlaveContext(di=Block(module, SIZE), co=coils, hr=HoldingBlock(module, HOLDING_SIZE),
                                          ir=Block(module, SIZE), zero_mode=True)
    if args.units:
        context = ModbusServerContext(slaves=stores, single=False)
    else:
        context = ModbusServerContext(slaves=stores[0], single=True)

    def watchdogs():
        """Each unit's watchdog: outputs to 0 when no request came for its time-out."""
        while True:
            time.sleep(0.01)
            for unit, module in modules.items():
                store = stores[unit]
                timeout_s = store.getValues(3, WATCHDOG_TIME, 1)[0] / 10.0
                started = store.getValues(3, WATCHDOG_START, 1)[0] == 1 and timeout_s > 0
                with module.lock:
                    quiet = time.monotonic() - module.last_request
                    if not started:
                        module.running = False
                        continue
                    if not module.running:
                        if quiet < timeout_s:
                            module.running = True  # (re)started by a request
                        continue
                    if quiet < timeout_s:
                        continue
                    module.running = False
                    module.expired += 1
                coil_blocks[unit].setValues(0, [0] * SIZE)
                ModbusSequentialDataBlock.setValues(store.store["h"], 0, [0] * SIZE)
                print(json.dumps({"watchdog_expired": unit}), file=sys.stderr, flush=True)

    def tap(store, address, ms, counter):
        store.setValues(2, address, [1])
        if counter is not None:
            count = store.getValues(4, counter, 1)[0]
            store.setValues(4, counter, [(count + 1) % 65536])
        time.sleep(ms / 1000.0)
        store.setValues(2, address, [0])

    def control():
        for line in sys.stdin:
            try:
                command = json.loads(line)
                op = command["op"]
                unit = command.get("unit", units[0])
                store, coils, module = stores[unit], coil_blocks[unit], modules[unit]
                if op == "press":
                    store.setValues(2, command["address"], [command["value"]])
                    answer = {"ok": True}
                elif op == "tap":
                    tap(store, command["address"], command["ms"], command.get("counter"))
                    answer = {"ok": True}
                elif op == "input_register":
                    store.setValues(4, command["address"], [command["value"]])
                    answer = {"ok": True}
                elif op == "coils":
                    answer = {"coils": [int(bool(v)) for v in coils.getValues(command["address"], command["count"])]}
                elif op == "registers":
                    answer = {"registers": store.store["h"].getValues(command["address"], command["count"])}
                elif op == "writes":
                    answer = {"writes": coils.writes, "changes": list(coils.changes)}
                elif op == "stick":
                    if command["value"] is None:
                        coils.stuck.pop(command["address"], None)
                    else:
                        coils.stuck[command["address"]] = command["value"]
                        ModbusSequentialDataBlock.setValues(coils, command["address"], [command["value"]])
                    answer = {"ok": True}
                elif op == "fail_next":
                    with module.lock:
                        module.fail_next = command["count"]
                    answer = {"ok": True}
                elif op == "slow_next":
                    with module.lock:
                        module.slow_next = command["seconds"]
                    answer = {"ok": True}
                elif op == "watchdog":
                    with module.lock:
                        answer = {"running": module.running, "expired": module.expired,
                                  "timeout_ms": store.getValues(3, WATCHDOG_TIME, 1)[0] * 100}
                else:
                    answer = {"error": f"unknown op {op}"}
            except (ValueError, KeyError) as error:
                answer = {"error": str(error)}
            print(json.dumps(answer), flush=True)

    threading.Thread(target=watchdogs, daemon=True).start()

    def dealer(address, period):
        while True:
            time.sleep(period)
            print(f"button {address} pressed", flush=True)
            stores[units[0]].setValues(2, address, [1])
            time.sleep(0.3)
            stores[units[0]].setValues(2, address, [0])

    if not names:
        threading.Thread(target=control, daemon=True).start()
    if args.press:
        address, period = args.press.split(":")
        threading.Thread(target=dealer, args=(int(address), float(period)), daemon=True).start()

    identity = ModbusDeviceIdentification(info_name={"VendorName": "pitlink test peer",
                                                     "ProductCode": "PEER-%d" % units[0],
                                                     "MajorMinorRevision": "3.0"})

    async def serve():
        if args.tcp:
            # Reusing the address: a test restarts the module on the same port at once.
            server = await StartAsyncTcpServer(context=context, identity=identity, address=("127.0.0.1", args.tcp),
                                               defer_start=True, allow_reuse_address=True)
            task = asyncio.create_task(server.serve_forever())
            await server.serving
        else:
            server = await StartAsyncSerialServer(context=context, identity=identity, framer=ModbusRtuFramer,
                                                  port=args.rtu,
                                                  baudrate=args.baud, bytesize=8, parity="N", stopbits=1,
                                                  defer_start=True)
            await server.start()
            task = asyncio.create_task(server.serve_forever())
        print(json.dumps({"ready": True}), flush=True)
        await task

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
