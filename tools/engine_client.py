#!/usr/bin/env python3
"""A small reference client of pitlinkd's engine link (protocols/engine/README.md), and the demo's
simulated player stations.

As a library: EngineClient(path).request("bet", station=1, spot="banker", stake=500) returns the
reply; events (round, card, result, credits, ticket, ...) are kept in .events as they arrive.

As a program: `engine_client.py SOCKET [--stations N] [--seed S]` plays N stations until pitlinkd
closes the link: each station redeems a ticket, bets (or repeats its last bets, or raises them by
a chip) on most rounds, sometimes tips, calls an attendant or cashes out and comes back with the
ticket just printed.
"""
import argparse
import json
import random
import socket
import sys
import time


class EngineClient:
    def __init__(self, path, timeout=10.0, connect_for=10.0):
        """`path`: the Unix socket, or a (host, port) pair for the link on TCP loopback."""
        deadline = time.time() + connect_for
        while True:
            try:
                family = socket.AF_INET if isinstance(path, tuple) else socket.AF_UNIX
                self.sock = socket.socket(family, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.settimeout(timeout)
        self.buffer = b""
        self.events = []
        self.next_id = 1

    def close(self):
        self.sock.close()

    def send_raw(self, data):
        self.sock.sendall(data)

    def read_message(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("pitlinkd closed the engine link")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def read_reply(self):
        """Reads until the next reply, whatever its id; events on the way are kept."""
        while True:
            message = self.read_message()
            if "event" not in message:
                return message
            self.events.append(message)

    def reply_to(self, request_id):
        """Reads until the reply with this id; events on the way are kept."""
        while True:
            message = self.read_message()
            if "event" in message:
                self.events.append(message)
            elif message.get("id") == request_id:
                return message

    def request(self, op, **fields):
        request_id = self.next_id
        self.next_id += 1
        self.send_raw((json.dumps(dict(id=request_id, op=op, **fields)) + "\n").encode())
        return self.reply_to(request_id)

    def wait_event(self, predicate, timeout=10.0):
        """Returns the first event (already received or coming) that satisfies predicate."""
        deadline = time.time() + timeout
        while True:
            for i, event in enumerate(self.events):
                if predicate(event):
                    return self.events.pop(i)
            if time.time() > deadline:
                raise TimeoutError("no such event")
            message = self.read_message()
            if "event" in message:
                self.events.append(message)


def play(path, stations, seed):
    rng = random.Random(seed)
    client = EngineClient(path)
    rounds = 0
    for s in range(1, stations + 1):
        client.request("ticket_in", station=s, validation="%018d" % (rng.randrange(10**17)), amount=50_000)
    while True:
        try:
            event = client.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "bets_open", timeout=60)
        except (ConnectionError, TimeoutError, OSError):
            return
        client.events.clear()
        rounds += 1
        try:
            if rounds == 4 and stations >= 3:
                # Station 3's player leaves: with the accounting host's host cash-out on (the
                # demo's SAS simulator asks for it), the cash-out is offered to the host (6A) and
                # answered `to_host` once its transfer took the credits (else a ticket).
                reply = client.request("cash_out", station=3)
                print("station 3 cashes out: %s" % json.dumps(reply.get("data", reply)), flush=True)
            for s in range(1, stations + 1):
                roll = rng.random()
                if roll < 0.10:
                    client.request("repeat", station=s)  # the last round's bets again (if it had any)
                elif roll < 0.75:
                    spot = rng.choice(["banker", "banker", "player", "player", "tie", "player_pair"])
                    client.request("bet", station=s, spot=spot, stake=rng.choice([100, 200, 500, 1000]))
                    if rng.random() < 0.2:
                        client.request("raise", station=s, chip=100)  # raise bet by a chip
                elif roll < 0.78:
                    client.request("tip", station=s, amount=100)
                elif roll < 0.80:
                    client.request("call_attendant", station=s)
                elif roll < 0.82:
                    reply = client.request("cash_out", station=s)
                    if reply["ok"] and "ticket" in reply["data"]:
                        # The player comes back with the ticket just printed (its amount counts
                        # only where the table redeems tickets itself).
                        ticket = reply["data"]["ticket"]
                        client.request("ticket_in", station=s, validation=ticket["validation"], amount=ticket["amount"])
        except (ConnectionError, OSError):
            return


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("socket")
    parser.add_argument("--stations", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    play(args.socket, args.stations, args.seed)
    sys.exit(0)
