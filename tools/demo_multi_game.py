#!/usr/bin/env python3
"""The demo of a multi-game controller (issue 34, seed 000's player station: "the player can add up
to four games"): pitlinkd running three games on one journal, two live (this script plays each
one's card reader on its own dealer connection) and one RNG game dealing by itself, with stations
that play two or three of them on one credit meter. It shows the connections saying which games
they serve (hello), a station joining games, bets in several games from one write, a cash-out that
pays the credits not staked while a stake is in play in another game (its win arriving after), a
game left only once the station has no bet in it, and pitlinkctl asking about each game (--game).
Station 1 is also on a SAS link (issue 35): the accounting host sees one machine with games 1..3,
an 8C naming the game before each 7E/7F of another game, and reconciles each game's meters (LP 52)
with the whole station's and with its own books of the events.

Usage: demo_multi_game.py --pitlinkd BIN --pitlinkctl BIN --paytable FILE --dir DIR [--seed S]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "integration"))
from engine_client import EngineClient  # noqa: E402
from demo_live_table import DemoDaemon, coup_complete  # noqa: E402
import sas_host as sh  # noqa: E402

GAMES = ["live-1", "live-2", "rng-3"]


class MultiGame(DemoDaemon):
    def __init__(self, args):
        self.pty = sh.open_pty_pair()  # station 1's SAS link
        super().__init__(args, "table:\n  name: stadium-1\n  stations: 4\n  decks: 8\n  paytable: %s\n"
                               "rounds:\n  bets_open_ms: 60000\n  last_bets_ms: 500\n"
                               "games:\n"
                               "  - name: live-1\n    source: reader\n"
                               "  - name: live-2\n    source: reader\n"
                               "  - name: rng-3\n    source: rng\n"
                               "    rounds: {bets_open_ms: 1500, last_bets_ms: 300, start: timer}\n"
                               "sas:\n  validation: secure_enhanced\n  stations:\n"
                               "    - {station: 1, address: 1, port: %s, transport: pty}\n" % (args.paytable, self.pty[1]))
        self.host = sh.SasHost(sh.SasLine(self.pty[0]), 1)
        self.books = sh.GameBooks()
        socket = os.path.join(self.dir, "engine.sock")
        self.dealers = {"live-1": EngineClient(socket), "live-2": EngineClient(socket)}
        self.stations = EngineClient(socket)
        self.shoes = {}

    def show(self, who, op, reply, what=None):
        shown = ("ok " + json.dumps(what(reply["data"]) if what else reply["data"], sort_keys=True)
                 if reply["ok"] else "refused %s: %s" % (reply["error"], reply["message"]))
        game = reply.get("game")
        print("  %-16s %-40s %s" % (who + (" [%s]" % game if game else ""), op, shown))
        return reply

    def sas_events(self):
        """What the accounting host reads from station 1 now, into its books (8C/7E/7F)."""
        seen = []
        for _ in range(40):
            event = self.host.next_event()
            if event.code == 0:
                break
            self.books.feed(event)
            name = sh.EXCEPTION_NAMES.get(event.code, "")
            detail = ""
            if event.code == 0x8C:
                detail = " game %d" % sh.from_bcd(event.data[0:2])
            elif event.code == 0x7E:
                detail = " %d credits wagered" % sh.from_bcd(event.data[0:2])
            elif event.code == 0x7F:
                detail = " %d credits paid" % sh.from_bcd(event.data[0:4])
            seen.append("%02X %s%s" % (event.code, name, detail))
        if seen:
            print("  %-16s %s" % ("SAS host", "; ".join(seen)))

    def credits(self, station):
        return self.stations.request("status")["data"]["stations"][station - 1]["credits"]

    # --- each live game's card reader, on its own dealer connection ---

    def open_live(self, game):
        dealer = self.dealers[game]
        if game not in self.shoes:
            self.shoes[game] = [r + s for r in "A23456789TJQK" for s in "CDHS"] * 8
            self.rng.shuffle(self.shoes[game])
            self.show("reader " + game, "new_shoe", dealer.request("new_shoe"))
        self.show("reader " + game, "open_round", dealer.request("open_round"))

    def deal_live(self, game):
        dealer = self.dealers[game]
        self.show("reader " + game, "close_bets", dealer.request("close_bets"))
        cards = []
        while not coup_complete(cards):
            cards.append(self.shoes[game].pop(0))
            dealer.request("card", card=cards[-1])
        result = dealer.wait_event(lambda e: e["event"] == "result")
        print("  %-16s %-40s %s %d-%d, wins %s" % ("result [%s]" % game, "round %d: %s" % (
            result["round"], " ".join(cards)), result["winner"], result["player_total"], result["banker_total"],
            json.dumps(result["wins"])))
        return result

    def play(self):
        print("pitlinkd with three games on one controller (%s): live-1 and live-2 dealt by a reader,"
              " rng-3 from its own RNG shoe; four stations, one credit meter each" % self.config)
        import time
        deadline = time.time() + 10
        while True:  # the SAS link answers once pitlinkd is up
            try:
                self.host.sync()
                self.host.lp_0e(True)  # real-time events: 8C carries its game
                break
            except sh.SasError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.host.lp_4c(0x10203, 0)  # the station numbers its own tickets
        self.sas_events()
        for game, dealer in self.dealers.items():
            self.show("dealer " + game, "hello role dealer", dealer.request("hello", games=[game], role="dealer"))
        self.show("stations", "hello role stations", self.stations.request("hello", games=GAMES, role="stations"))
        self.show("stations", "ticket_in station 1, 2,000", self.stations.request(
            "ticket_in", station=1, validation="7001", amount=2000), lambda d: {"credits": d["credits"]})
        self.show("stations", "ticket_in station 2, 1,500", self.stations.request(
            "ticket_in", station=2, validation="7002", amount=1500), lambda d: {"credits": d["credits"]})
        for station, game in ((1, "live-2"), (1, "rng-3"), (2, "live-2")):
            self.show("station %d" % station, "join " + game, self.stations.request("join", station=station, game=game))
        self.show("station 3", "bet in live-2 (not joined)", self.stations.request(
            "bet", station=3, spot="player", stake=100, game="live-2"))

        print("\n--- both live games open; station 1 bets in both from one write (one credit meter)")
        for game in ("live-1", "live-2"):
            self.open_live(game)
        first = self.stations.next_id
        self.stations.next_id += 3
        bets = [{"id": first, "op": "bet", "station": 1, "spot": "player", "stake": 600, "game": "live-1"},
                {"id": first + 1, "op": "bet", "station": 1, "spot": "banker", "stake": 500, "game": "live-2"},
                {"id": first + 2, "op": "bet", "station": 1, "spot": "tie", "stake": 1000, "game": "live-2"}]
        self.stations.send_raw(("\n".join(json.dumps(b) for b in bets) + "\n").encode())
        for i, b in enumerate(bets):
            self.show("station 1", "bet %s %d" % (b["spot"], b["stake"]), self.stations.reply_to(first + i),
                      lambda d: {"credits": d["credits"]})
        self.show("station 2", "bet banker 300", self.stations.request(
            "bet", station=2, spot="banker", stake=300, game="live-2"), lambda d: {"credits": d["credits"]})
        self.show("station 2", "leave live-2 (a bet on its table)", self.stations.request(
            "leave", station=2, game="live-2"))
        while True:  # rng-3 deals by itself: the bet goes into whichever of its rounds is open for bets
            self.stations.wait_event(lambda e: e["event"] == "round" and e.get("game") == "rng-3"
                                     and e["phase"] == "bets_open")
            rng_bet = self.stations.request("bet", station=1, spot="player", stake=200, game="rng-3")
            if rng_bet["ok"]:
                break
        self.show("station 1", "bet player 200 in rng-3", rng_bet, lambda d: {"round": d["round"],
                                                                            "credits": d["credits"]})

        print("\n--- live-1 is dealt; station 1 cashes out with 500 still in play in live-2")
        self.sas_events()
        self.deal_live("live-1")
        rng_result = self.stations.wait_event(lambda e: e["event"] == "result" and e.get("game") == "rng-3"
                                              and e["round"] == rng_bet["data"]["round"])
        print("  %-16s %-40s %s, wins %s" % ("result [rng-3]", "round %d (RNG)" % rng_result["round"],
                                              rng_result["winner"], json.dumps(rng_result["wins"])))
        self.show("station 1", "cash_out", self.stations.request("cash_out", station=1),
                  lambda d: {"ticket": d["ticket"]["amount"]})
        self.deal_live("live-2")
        print("  %-16s %-40s %d (live-2's stake came back after the cash-out, with what it won)"
              % ("station 1", "credits now", self.credits(1)))
        self.show("station 2", "leave live-2 (no bet left)", self.stations.request("leave", station=2, game="live-2"))
        self.sas_events()

        print("\n--- the accounting host: station 1 is one machine with games 1..3 (issue 35)")
        self.host.sync()
        print("  LP 51 games %d, LP 55 selected game %d, LP 56 games joined %s" % (
            self.host.lp_51(), self.host.lp_55(), self.host.lp_56()))
        whole = self.host.lp_2f(0, [0x00, 0x01, 0x05])
        total = {"coin_in": 0, "coin_out": 0, "games_played": 0}
        for number, game in enumerate(GAMES, 1):
            self.host.sync()
            meters = self.host.lp_52(number)
            for key in total:
                total[key] += meters[key]
            print("  LP 52 game %d (%s): coin in %d, coin out %d, games %d; the host's books of 7E/7F after"
                  " 8C %d: %d wagered, %d paid" % (number, game, meters["coin_in"], meters["coin_out"],
                                                    meters["games_played"], number,
                                                    self.books.wagered.get(number, 0), self.books.paid.get(number, 0)))
        print("  LP 2F game 0: coin in %d, coin out %d, games %d = the sum of the games: %s" % (
            whole[0x00], whole[0x01], whole[0x05],
            (whole[0x00], whole[0x01], whole[0x05]) == (total["coin_in"], total["coin_out"], total["games_played"])))

        print("\n--- pitlinkctl, game by game")
        for game in GAMES:
            done = subprocess.run([self.args.pitlinkctl, "status", "--json", "--game", game, "--socket", self.control],
                                  capture_output=True, text=True, timeout=30)
            status = json.loads(done.stdout)
            print("  $ pitlinkctl status --game %s: %s, shoe %s, round %s (%s)" % (
                game, status["table"], status.get("shoe"), status.get("round"), status.get("phase")))
        roads = subprocess.run([self.args.pitlinkctl, "--game", "live-2", "roads", "--socket", self.control],
                               capture_output=True, text=True, timeout=30).stdout.splitlines()
        print("  $ pitlinkctl --game live-2 roads: %s" % (roads[0] if roads else "(nothing)"))
        done = subprocess.run([self.args.pitlinkctl, "recall", "--last", "4", "--json", "--socket", self.control],
                              capture_output=True, text=True, timeout=30)
        for r in json.loads(done.stdout):
            print("  recall: round %d of %s: %s" % (r["round"], r.get("game"), r["state"]))
        self.daemon.terminate()
        self.daemon.wait(timeout=30)
        print("\n--- the journal: each game's rounds name it; a station's credits are one ledger")
        subprocess.run(["sqlite3", "-header", "-column", os.path.join(self.dir, "journal.db"),
                        "SELECT json_extract(body, '$.game') AS game, count(*) AS rounds FROM record "
                        "WHERE kind = 'round.opened' GROUP BY 1"], check=False)
        self.pitlinkctl("audit", "verify", "--journal", os.path.join(self.dir, "journal.db"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pitlinkd", required=True)
    parser.add_argument("--pitlinkctl", required=True)
    parser.add_argument("--paytable", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    demo = MultiGame(args)
    try:
        demo.play()
    finally:
        if demo.daemon.poll() is None:
            demo.daemon.kill()


if __name__ == "__main__":
    main()
