#!/usr/bin/env python3
"""The demo of a live table (issue 20): pitlinkd with a physical shoe, this script playing the
card reader (it cuts, burns and deals an 8-deck shoe by the drawing rules) and four player
stations that use what the seed documents give a player: limit levels and the limits shown over
the spots, raise, repeat and auto-repeat, live roads and statistics after every result, the bet
list, a reservation, a dispute that an operator resolves by re-settlement with pitlinkctl, and
(issue 33) a power loss in the middle of the shoe, after which the table goes on with it.

Usage: demo_live_table.py --pitlinkd BIN --pitlinkctl BIN --paytable FILE --dir DIR [--seed S]
"""
import argparse
import json
import os
import random
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EngineClient  # noqa: E402

# Seed 002's seven tables, in cents: the level's Player/Banker range; a tie range at every level.
LEVELS = [(200, 4100), (500, 10200), (1000, 20500), (2000, 41000), (5000, 102000), (10000, 155000),
          (20000, 210000)]


def value(card):
    return 0 if card[0] in "TJQK" else 1 if card[0] == "A" else int(card[0])


def coup_complete(cards):
    """True once `cards` (deal order P1 B1 P2 B2 ...) make a whole coup by the drawing rules."""
    if len(cards) < 4:
        return False
    p = (value(cards[0]) + value(cards[2])) % 10
    b = (value(cards[1]) + value(cards[3])) % 10
    if p >= 8 or b >= 8:
        return len(cards) == 4
    if p <= 5:
        if len(cards) < 5:
            return False
        third = value(cards[4])
        draws = (b <= 2 or (b == 3 and third != 8) or (b == 4 and 2 <= third <= 7) or
                 (b == 5 and 4 <= third <= 7) or (b == 6 and 6 <= third <= 7))
        return len(cards) == (6 if draws else 5)
    return len(cards) == (5 if b <= 5 else 4)


class DemoDaemon:
    """What the demos share: pitlink.yaml in --dir (`sections`: the table's, then the engine and
    control sockets, the journal and the log level in that directory), pitlinkd started on it, and
    pitlinkctl against its control socket."""

    def __init__(self, args, sections):
        self.args = args
        self.rng = random.Random(args.seed)
        self.dir = args.dir
        os.makedirs(self.dir, exist_ok=True)
        self.config = os.path.join(self.dir, "pitlink.yaml")
        self.control = os.path.join(self.dir, "control.sock")
        with open(self.config, "w") as f:
            f.write(sections + "engine:\n  socket: %s/engine.sock\ncontrol:\n  socket: %s\n"
                    "journal:\n  path: %s/journal.db\nlog:\n  level: warn\n" % (self.dir, self.control, self.dir))
        self.daemon = subprocess.Popen([args.pitlinkd, "--config", self.config])

    def pitlinkctl(self, *args):
        done = subprocess.run([self.args.pitlinkctl, *args, "--socket", self.control], capture_output=True,
                              text=True, timeout=30)
        print("  $ pitlinkctl %s\n%s" % (shlex.join(args), "".join("    " + line + "\n" for line in
                                                                   (done.stdout + done.stderr).splitlines())))
        return done


class LiveTable(DemoDaemon):
    def __init__(self, args):
        super().__init__(args, "table:\n  name: live-1\n  source: reader\n  stations: 4\n  decks: 8\n  paytable: %s\n"
                               "  denominations: [1, 25, 100]\n"
                               "rounds:\n  bets_open_ms: 60000\n  last_bets_ms: 1000\n"
                               "bets:\n  levels:\n%s  spots:\n    tie: {min: 100, max: 5000}\n"
                               % (args.paytable, "".join("    - {min: %d, max: %d}\n" % level for level in LEVELS)))
        self.link = EngineClient(os.path.join(self.dir, "engine.sock"))
        self.shoe = []

    # --- what the front ends send, and what they show ---

    def ask(self, op, **fields):
        reply = self.link.request(op, **fields)
        return reply

    def show(self, who, op, reply, what=None):
        shown = ("ok " + json.dumps(what(reply["data"]) if what else reply["data"], sort_keys=True)
                 if reply["ok"] else "refused %s: %s" % (reply["error"], reply["message"]))
        print("  %-10s %-34s %s" % (who, op, shown))
        return reply

    # --- the card reader ---

    def new_shoe(self):
        self.shoe = [r + s for r in "A23456789TJQK" for s in "CDHS"] * 8
        self.rng.shuffle(self.shoe)
        self.show("reader", "new_shoe", self.ask("new_shoe"))
        cut = 60
        self.show("reader", "cut (cards_behind %d)" % cut, self.ask("cut", cards_behind=cut))
        turned = self.shoe[0]
        count = 10 if turned[0] in "TJQK" else value(turned)
        burned = [self.shoe.pop(0) for _ in range(1 + count)]
        self.show("reader", "burn %s" % " ".join(burned), self.ask("burn", cards=burned))
        empty = self.link.wait_event(lambda e: e["event"] == "roads")  # the new shoe's roads: empty
        print("  %-10s %-34s shoe %d: %d rounds" % ("event", "roads", empty["shoe"], empty["statistics"]["rounds"]))

    def deal(self):
        cards = []
        while not coup_complete(cards):
            cards.append(self.shoe.pop(0))
            self.ask("card", card=cards[-1])
        result = self.link.wait_event(lambda e: e["event"] == "result")
        roads = self.link.wait_event(lambda e: e["event"] == "roads")
        stats = roads["statistics"]
        print("  %-10s %-34s %s %d-%d, wins %s | roads: %d rounds (B %d, P %d, T %d), big road %d columns"
              % ("result", "round %d: %s" % (result["round"], " ".join(cards)), result["winner"],
                 result["player_total"], result["banker_total"], json.dumps(result["wins"]), stats["rounds"],
                 stats["banker_wins"], stats["player_wins"], stats["ties"], len(roads["big_road"]["columns"])))
        return result

    def play(self):
        print("pitlinkd on a reader table (%s), four stations, seed 002's seven limit levels" % self.config)
        for station in range(1, 5):
            self.ask("ticket_in", station=station, validation="%018d" % (700 + station), amount=50_000)
        self.new_shoe()
        print("- limit levels: station 1 plays at level 3 (10/205); what its display shows over the spots")
        self.show("station 1", "limit_level 3", self.ask("limit_level", station=1, level=3),
                  lambda d: {spot: d["spots"][spot] for spot in ("banker", "tie")})

        disputed = False
        for n in range(1, 10):
            print("- round %d" % n)
            self.show("dealer", "open_round", self.ask("open_round"))
            self.show("station 1", "bet banker 2000", self.ask("bet", station=1, spot="banker", stake=2000),
                      lambda d: d["slip"])
            if n == 1:
                self.show("station 2", "bet player 500", self.ask("bet", station=2, spot="player", stake=500),
                          lambda d: d["slip"])
                self.show("station 3", "bet tie 200", self.ask("bet", station=3, spot="tie", stake=200),
                          lambda d: d["slip"])
                self.show("station 3", "bet banker 1000", self.ask("bet", station=3, spot="banker", stake=1000),
                          lambda d: d["slip"])
                self.show("station 3", "raise by a 500 chip", self.ask("raise", station=3, chip=500),
                          lambda d: d["slip"])
                self.show("station 3", "limits: show winnings", self.ask("limits", station=3),
                          lambda d: d["winnings"])
            elif n == 2:
                self.show("station 3", "repeat", self.ask("repeat", station=3), lambda d: d["slip"])
                self.show("station 3", "double", self.ask("double", station=3), lambda d: d["slip"])
                self.show("station 3", "undo (the whole double)", self.ask("undo", station=3), lambda d: d["slip"])
            elif n == 4:
                self.show("station 4", "reserve (PIN 2468)", self.ask("reserve", station=4, on=True, pin="2468"))
                self.show("station 4", "bet player 500", self.ask("bet", station=4, spot="player", stake=500))
                self.show("station 4", "reserve off (PIN 1357)",
                          self.ask("reserve", station=4, on=False, pin="1357"))
                self.show("station 4", "reserve off (PIN 2468)",
                          self.ask("reserve", station=4, on=False, pin="2468"))
                self.show("station 4", "denomination 0.25", self.ask("denomination", station=4, value=25),
                          lambda d: {"denomination": d["denomination"], "offered": d["denominations"]})
                self.show("station 4", "bet player 110", self.ask("bet", station=4, spot="player", stake=110))
                self.show("station 4", "bet player 250", self.ask("bet", station=4, spot="player", stake=250),
                          lambda d: d["slip"])
            station2 = self.ask("status")["data"]["stations"][1]
            if station2["auto_repeat"]:
                print("  %-10s %-34s %s" % ("station 2", "(bets placed by auto-repeat)",
                                             {b["spot"]: b["stake"] for b in station2["bets"]}))
            self.show("dealer", "close_bets", self.ask("close_bets"))
            result = self.deal()
            if n == 1:
                self.show("station 2", "auto_repeat on", self.ask("auto_repeat", station=2, on=True))
            if n >= 4 and not disputed and result["winner"] == "player":
                self.dispute(result)
                disputed = True

        print("- the bet list of station 1 (seeds 002/003), read from the journal")
        listed = self.ask("bet_list", station=1, rounds=3)["data"]["rounds"]
        for r in listed:
            print("  round %d: %s staked %d, returned %d, credits %d -> %d%s" % (
                r["round"], r["outcome"]["winner"] if "outcome" in r else r["state"], r["staked"], r["returned"],
                r["credits"]["before"], r["credits"]["after"],
                ", re-settled %dx" % r["resettlements"] if r["resettlements"] else ""))
        self.power_loss()
        print("- the card reader fails, and comes back")
        self.show("reader", "reader ok: false", self.ask("reader", ok=False, message="shoe cover open"))
        self.show("dealer", "open_round", self.ask("open_round"))
        self.show("reader", "reader ok: true", self.ask("reader", ok=True))
        self.show("dealer", "open_round", self.ask("open_round"))
        self.show("dealer", "void_round", self.ask("void_round", reason="end of the demo"))
        self.daemon.terminate()
        self.daemon.wait(timeout=30)

    def power_loss(self):
        """Issue 33: the controller loses power in the middle of the shoe (pitlinkd killed), and the
        physical shoe stays in the shoe box: at the restart the table goes on with it."""
        def shoe_state(d):
            return {k: d[k] for k in ("shoe", "round_in_shoe", "cards_left", "shoe_resumed")}
        print("- the controller loses power in the middle of the shoe (SIGKILL); the shoe stays in the box")
        self.show("status", "before", self.ask("status"), shoe_state)
        before = self.ask("roads")["data"]["statistics"]
        self.daemon.kill()
        self.daemon.wait(timeout=30)
        os.remove(os.path.join(self.dir, "engine.sock"))
        self.daemon = subprocess.Popen([self.args.pitlinkd, "--config", self.config])
        self.link = EngineClient(os.path.join(self.dir, "engine.sock"))
        self.show("status", "after the restart", self.ask("status"), shoe_state)
        after = self.ask("roads")["data"]["statistics"]
        print("  %-10s %-34s %d rounds before, %d after (B %d, P %d, T %d)" % (
            "roads", "the same shoe's roads", before["rounds"], after["rounds"], after["banker_wins"],
            after["player_wins"], after["ties"]))
        self.show("dealer", "open_round", self.ask("open_round"))
        self.show("dealer", "close_bets", self.ask("close_bets"))
        result = self.deal()
        print("  %-10s %-34s shoe %d round %d, %d cards left" % ("result", "the shoe goes on", result["shoe"],
                                                                  result["round_in_shoe"], result["cards_left"]))

    def dispute(self, result):
        round_id = result["round"]
        print("- station 1 disputes round %d; the table holds until the floor decides" % round_id)
        self.show("station 1", "dispute round %d" % round_id,
                  self.ask("dispute", station=1, round=round_id, text="the banker's card was misread"))
        self.show("dealer", "open_round", self.ask("open_round"))
        # The video shows another coup: banker 9 against player 6 (station 1's banker bet lost; it
        # wins 19/20 of its stake once re-settled).
        credits = self.ask("status")["data"]["stations"][0]["credits"]
        print("  station 1 credits before the decision: %d" % credits)
        self.pitlinkctl("dispute", "resolve", "1", "--upheld", "--cards", "2S 9H 4D KC", "--reason",
                        "video review: the banker's first card was a nine")
        told = self.link.wait_event(lambda e: e["event"] == "dispute" and e["status"] != "open")
        moved = self.link.wait_event(lambda e: e["event"] == "credits" and e.get("resettled_round") == round_id)
        print("  %-10s %-34s %s; station 1 credits now %d" % ("event", "dispute " + told["status"],
                                                               "re-settled" if told["resettled"] else "",
                                                               moved["credits"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pitlinkd", required=True)
    parser.add_argument("--pitlinkctl", required=True)
    parser.add_argument("--paytable", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--seed", type=int, default=20)
    LiveTable(parser.parse_args()).play()


if __name__ == "__main__":
    main()
