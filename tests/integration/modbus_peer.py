#!/usr/bin/python3
"""A Modbus I/O module for pitlinkd to talk to: a python3-pymodbus server (Debian's
/usr/bin/python3) on loopback TCP or on a serial port (RTU, e.g. one end of a socat pty pair).

It holds coils, discrete inputs, holding and input registers at addresses 0-255 (zero-based, as
on the wire) for any unit id. Its stdin takes one JSON command per line and answers each on
stdout with one JSON line, so that a test plays the table's hardware:

  {"op": "press", "address": 2, "value": 1}     set discrete input 2 (a button) to 1 or 0
  {"op": "input_register", "address": 5, "value": 4}
  {"op": "coils", "address": 0, "count": 4}     -> {"coils": [0, 1, 0, 0]}
  {"op": "registers", "address": 10, "count": 1} -> {"registers": [3]}   (holding registers)
  {"op": "writes"}                              -> {"writes": N, "changes": [[t, address, value], ...]}
      every write request seen, and every coil change with its time (time.monotonic())

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

from pymodbus.datastore import ModbusSequentialDataBlock, ModbusServerContext, ModbusSlaveContext
from pymodbus.server import StartAsyncSerialServer, StartAsyncTcpServer
from pymodbus.transaction import ModbusRtuFramer

SIZE = 256
FLASHING_S = 1.2


class CoilBlock(ModbusSequentialDataBlock):
    """Coils that remember every write request and every change, with its time."""

    def __init__(self, on_change):
        super().__init__(0, [0] * SIZE)
        self.writes = 0
        self.changes = []
        self.on_change = on_change

    def setValues(self, address, values):  # noqa: N802 (pymodbus API)
        if not isinstance(values, list):
            values = [values]
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

    coils = CoilBlock(on_change)
    store = ModbusSlaveContext(di=ModbusSequentialDataBlock(0, [0] * SIZE), co=coils,
                               hr=ModbusSequentialDataBlock(0, [0] * SIZE),
                               ir=ModbusSequentialDataBlock(0, [0] * SIZE), zero_mode=True)
    context = ModbusServerContext(slaves=store, single=True)

    def control():
        for line in sys.stdin:
            try:
                command = json.loads(line)
                op = command["op"]
                if op == "press":
                    store.setValues(2, command["address"], [command["value"]])
                    answer = {"ok": True}
                elif op == "input_register":
                    store.setValues(4, command["address"], [command["value"]])
                    answer = {"ok": True}
                elif op == "coils":
                    answer = {"coils": [int(bool(v)) for v in store.getValues(1, command["address"], command["count"])]}
                elif op == "registers":
                    answer = {"registers": store.getValues(3, command["address"], command["count"])}
                elif op == "writes":
                    answer = {"writes": coils.writes, "changes": list(coils.changes)}
                else:
                    answer = {"error": f"unknown op {op}"}
            except (ValueError, KeyError) as error:
                answer = {"error": str(error)}
            print(json.dumps(answer), flush=True)

    def dealer(address, period):
        while True:
            time.sleep(period)
            print(f"button {address} pressed", flush=True)
            store.setValues(2, address, [1])
            time.sleep(0.3)
            store.setValues(2, address, [0])

    if not names:
        threading.Thread(target=control, daemon=True).start()
    if args.press:
        address, period = args.press.split(":")
        threading.Thread(target=dealer, args=(int(address), float(period)), daemon=True).start()

    async def serve():
        if args.tcp:
            # Reusing the address: a test restarts the module on the same port at once.
            server = await StartAsyncTcpServer(context=context, address=("127.0.0.1", args.tcp), defer_start=True,
                                               allow_reuse_address=True)
            task = asyncio.create_task(server.serve_forever())
            await server.serving
        else:
            server = await StartAsyncSerialServer(context=context, framer=ModbusRtuFramer, port=args.rtu,
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
