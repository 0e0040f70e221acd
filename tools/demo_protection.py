#!/usr/bin/env python3
"""The demo of game protection (issue 38; docs/protection.md): pitlinkd with a physical 8-deck
shoe and the ruyi paytable, this script playing the card reader and two player stations.

The shoe is stacked at its start, as a shoe that favours Gold 7 would be: rounds of Player 9 9
against Banker 8 8 take the eights and nines out, then the rest of the shoe is dealt in a shuffled
order by the drawing rules. Gold 7 closes above +3 % (`close`); Jade 8 is watched (`alert`).
Station 1 counts perfectly (it bets Gold 7 only when the edge favours it, more the more it does);
station 2 bets Gold 7 at random. The floor sees the edge of every round (`pitlinkctl protection
--follow`), the stations see only that Gold 7 is closed, and station 1 is reported. The picture
of the shoe is written to DIR/protection-shoe.svg.

Usage: demo_protection.py --pitlinkd BIN --pitlinkctl BIN --paytable FILE --dir DIR [--seed S]
"""
import argparse
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from control_client import control  # noqa: E402
from demo_live_table import DemoDaemon, coup_complete  # noqa: E402
from engine_client import EngineClient  # noqa: E402

DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]


class ProtectedTable(DemoDaemon):
    def __init__(self, args):
        super().__init__(args, "table:\n  source: reader\n  stations: 4\n  decks: 8\n  cut_card_from_end: 14\n"
                               "  paytable: %s\nrounds:\n  bets_open_ms: 60000\n  last_bets_ms: 1000\n"
                               "protection:\n  enabled: true\n  side_bets:\n"
                               "    gold_7: {action: close, above_ppm: 30000}\n    jade_8: {action: alert}\n"
                               "  counter: {alert_z: 3, min_rounds: 10, min_staked_rounds: 3}\n" % args.ruyi)
        self.c = EngineClient(os.path.join(self.dir, "engine.sock"))

    def ask(self, op, **fields):
        reply = self.c.request(op, **fields)
        if not reply["ok"] and reply.get("error") not in ("side_bet_closed", "side_bet_edge_pending"):
            raise RuntimeError("%s refused: %s" % (op, reply))
        return reply

    def edge(self, round_in_shoe):
        for _ in range(500):
            edges = [e for e in control(self.control, cmd="protection")["edges"] if e["round_in_shoe"] == round_in_shoe]
            if edges:
                return edges[-1]
            time.sleep(0.01)
        raise RuntimeError("no edge for round %d" % round_in_shoe)

    def play(self):
        for station in (1, 2):
            self.ask("ticket_in", station=station, validation="95%d" % station, amount=1_000_000)
        self.ask("new_shoe")
        self.ask("cut", cards_behind=14)
        self.ask("burn", cards=["AS", "5C"])
        shoe = DECK * 8
        shoe.remove("AS")
        shoe.remove("5C")
        stacked = []
        for i in range(4):
            s, t = "SHDC"[i % 4], "SHDC"[(i + 1) % 4]
            stacked += ["9" + s, "8" + s, "9" + t, "8" + t]
        for card in stacked:
            shoe.remove(card)
        self.rng.shuffle(shoe)
        order = stacked + shoe
        follow = subprocess.Popen([self.args.pitlinkctl, "protection", "--follow", "--every-ms", "100", "--socket",
                                   self.control], stdout=subprocess.PIPE, text=True)
        print("=== the floor's view, as it comes (pitlinkctl protection --follow), first rounds:")
        told, refused, number = [], 0, 0
        while len(order) > 14 + 6:
            number += 1
            self.ask("open_round")
            edge = self.edge(number)["edges"]["gold_7"]
            counter = 100 * (1 + edge // 10_000) if edge > 0 else 0
            at_random = 100 * self.rng.randint(1, 5) if self.rng.random() < 0.4 else 0
            for station, stake in ((1, counter), (2, at_random)):
                if stake and not self.ask("bet", station=station, spot="gold_7", stake=stake)["ok"]:
                    refused += 1
            self.ask("bet", station=1, spot="banker", stake=1000)
            self.ask("close_bets")
            dealt = []
            while not coup_complete(dealt):
                dealt.append(order.pop(0))
                self.ask("card", card=dealt[-1])
            self.c.wait_event(lambda e: e["event"] == "result")
            if number <= 10:
                print("  " + follow.stdout.readline().rstrip())
        follow.kill()
        told = [e["closed"] for e in self.c.events if e["event"] == "side_bets"]
        shown = {e["event"] for e in self.c.events}
        print("=== %d rounds; what the stations were told: side_bets %s; an edge on the engine link: %s; "
              "Gold 7 bets refused closed: %d" % (number, told, "shoe_edge" in shown, refused))
        print("=== the floor's view now")
        self.pitlinkctl("protection")
        svg = os.path.join(self.dir, "protection-shoe.svg")
        shoe_number = str(control(self.control, cmd="protection")["shoe"])
        subprocess.run([self.args.pitlinkctl, "protection", "--shoe", shoe_number, "--svg", svg, "--station", "1",
                        "--socket", self.control], check=True, capture_output=True)
        print("=== the picture of the shoe with station 1's stakes: %s" % svg)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pitlinkd", required=True)
    parser.add_argument("--pitlinkctl", required=True)
    parser.add_argument("--paytable", required=True, help="the standard paytable; ruyi.yaml beside it is used")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args()
    args.ruyi = os.path.join(os.path.dirname(args.paytable), "ruyi.yaml")
    table = ProtectedTable(args)
    try:
        table.play()
    finally:
        table.daemon.terminate()
        table.daemon.wait(timeout=30)


if __name__ == "__main__":
    main()
