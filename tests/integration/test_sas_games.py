#!/usr/bin/env python3
"""SAS for a station of several games at several denominations, and the routine polls a host sends
every day: the real pitlinkd on pty pairs, read by the independent host (sas_host.py).

A host sees the station as SAS 6.02 describes a multi-game machine: games 1..N (the controller's,
in its configuration's order), game 0 the whole station; 7E and 7F carry no game number, so each
belongs to the game of the 8C before it. The host keeps its own books from the events and
reconciles them with game N's meters, game N's with game 0's and each denomination's (LP B0)
with game 0's, at every step, including while rounds of both games are in play at once.

Usage: test_sas_games.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import json
import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import EngineClient  # noqa: E402
from test_sas import SasTable  # noqa: E402
from test_table import BANKER_WINS, PLAYER_WINS, ok  # noqa: E402
import sas_host as sh  # noqa: E402

# Two live games with the standard paytable (Banker pays 19/20); the station offers 0.01 and 0.05.
GAMES = "games:\n  - name: live-1\n  - name: live-2\n"
COIN_IN, COIN_OUT, GAMES_PLAYED, CURRENT_CREDITS = 0x00, 0x01, 0x05, 0x0C


class SasGames(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.table = None
        self.clients = []

    def tearDown(self):
        for client in self.clients:
            client.close()
        if self.table:
            self.table.close()
        self.dir.cleanup()

    def client(self, games, role):
        c = EngineClient(self.table.daemon.socket)
        self.clients.append(c)
        ok(self, c.request("hello", games=games, role=role))
        return c

    def reconcile(self, host, books, expected):
        """Game N against game 0, each denomination against game 0, the host's books against game
        N, and game N against what this test worked out by hand (`expected`: game -> (coin in,
        coin out, games)). A poll to another address (sync) between two of the same command: the
        same head again would be an implied NACK."""
        def twice(read):
            host.sync()
            return read()

        whole = host.lp_2f(0, [COIN_IN, COIN_OUT, GAMES_PLAYED])
        games = {g: twice(lambda: host.lp_52(g)) for g in (1, 2)}
        for g, meters in games.items():
            self.assertEqual((meters["coin_in"], meters["coin_out"], meters["games_played"]), expected[g], g)
            self.assertEqual(meters["jackpot"], 0)
            self.assertEqual(books.wagered.get(g, 0), meters["coin_in"] + books.in_play.get(g, 0), g)
            self.assertEqual(books.paid.get(g, 0), meters["coin_out"], g)
        self.assertEqual(whole, {COIN_IN: sum(m["coin_in"] for m in games.values()),
                                 COIN_OUT: sum(m["coin_out"] for m in games.values()),
                                 GAMES_PLAYED: sum(m["games_played"] for m in games.values())})
        by_denomination = [twice(lambda: host.lp_b0_2f(d, 0, [COIN_IN, COIN_OUT, GAMES_PLAYED])) for d in (0x01, 0x02)]
        for code in (COIN_IN, COIN_OUT, GAMES_PLAYED):
            self.assertEqual(sum(m[code] for m in by_denomination), whole[code], code)
        return by_denomination

    def test_a_station_in_two_games_at_two_denominations_reconciles_game_by_game(self):
        t = self.table = SasTable(self.dir.name, stations=(1,), extra=GAMES)
        t.daemon.rewrite_config([("stations: 4\n", "stations: 4\n  denominations: [1, 5]\n")])
        t.start()
        host = t.hosts[1]
        host.lp_0e(True)  # real-time events: 8C carries its game number
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])
        self.assertEqual((host.lp_51(), host.lp_55(), host.lp_56()), (2, 1, [1]))
        dealer1, dealer2 = self.client(["live-1"], "dealer"), self.client(["live-2"], "dealer")
        stations = self.client(["live-1", "live-2"], "stations")
        ok(self, stations.request("ticket_in", station=1, validation="811", amount=10_000))
        ok(self, stations.request("join", station=1, game="live-2"))
        host.general_poll()
        self.assertEqual(host.lp_56(), [1, 2])
        for dealer in (dealer1, dealer2):
            ok(self, dealer.request("new_shoe"))

        books = sh.GameBooks()
        books.in_play = {}

        def events():
            for event in t.events(1):
                self.assertTrue(event.rte, event)
                books.feed(event)
                yield event.code, bytes(event.data)

        def deal(dealer, cards):
            for card in cards.split():
                ok(self, dealer.request("card", card=card))
            dealer.wait_event(lambda e: e["event"] == "result")

        # Round 1: live-1 at 0.01, Player 300 wins 300. Game 1 is selected from the start: no 8C.
        ok(self, dealer1.request("open_round"))
        ok(self, stations.request("bet", station=1, spot="player", stake=300, game="live-1"))
        ok(self, dealer1.request("close_bets"))
        self.assertEqual(list(events()), [(0x7E, sh.to_bcd(300, 2) + sh.to_bcd(300, 4) + b"\x00\x00")])
        deal(dealer1, PLAYER_WINS)
        self.assertEqual(list(events()), [(0x7F, sh.to_bcd(600, 4))])
        self.reconcile(host, books, {1: (300, 600, 1), 2: (0, 0, 0)})

        # Round 2: live-2 at 0.05, Banker 200 wins 190: 8C 0002 before its 7E and nothing before its 7F.
        ok(self, stations.request("denomination", station=1, value=5, game="live-2"))
        ok(self, dealer2.request("open_round"))
        ok(self, stations.request("bet", station=1, spot="banker", stake=200, game="live-2"))
        ok(self, dealer2.request("close_bets"))
        self.assertEqual(list(events()), [(0x8C, sh.to_bcd(2, 2)),
                                          (0x7E, sh.to_bcd(200, 2) + sh.to_bcd(200, 4) + b"\x00\x00")])
        deal(dealer2, BANKER_WINS)
        self.assertEqual(list(events()), [(0x7F, sh.to_bcd(390, 4))])
        self.assertEqual(host.lp_55(), 2)

        # Round 3: both games at 0.05 at once: live-1 Banker 100 (wins 95), live-2 Player 150 (wins 150).
        ok(self, dealer1.request("open_round"))
        ok(self, dealer2.request("open_round"))
        ok(self, stations.request("bet", station=1, spot="banker", stake=100, game="live-1"))
        ok(self, stations.request("bet", station=1, spot="player", stake=150, game="live-2"))
        ok(self, dealer1.request("close_bets"))
        ok(self, dealer2.request("close_bets"))
        self.assertEqual(list(events()), [(0x8C, sh.to_bcd(1, 2)),
                                          (0x7E, sh.to_bcd(100, 2) + sh.to_bcd(400, 4) + b"\x00\x00"),
                                          (0x8C, sh.to_bcd(2, 2)),
                                          (0x7E, sh.to_bcd(150, 2) + sh.to_bcd(350, 4) + b"\x00\x00")])
        # Both rounds in play: the meters count settled rounds; the books know what is staked.
        books.in_play = {1: 100, 2: 150}
        self.reconcile(host, books, {1: (300, 600, 1), 2: (200, 390, 1)})
        self.assertEqual(host.lp_1a_current_credits(), 10_000 + 300 + 190)  # stakes in play still count
        deal(dealer1, BANKER_WINS)
        self.assertEqual(list(events()), [(0x8C, sh.to_bcd(1, 2)), (0x7F, sh.to_bcd(195, 4))])
        books.in_play = {2: 150}
        deal(dealer2, PLAYER_WINS)
        self.assertEqual(list(events()), [(0x8C, sh.to_bcd(2, 2)), (0x7F, sh.to_bcd(300, 4))])
        books.in_play = {}

        # game 1: 300 + 100 in, 600 + 195 out; game 2: 200 + 150 in, 390 + 300 out; at 0.01 round 1,
        # at 0.05 the other three.
        cent, nickel = self.reconcile(host, books, {1: (400, 795, 2), 2: (350, 690, 2)})
        self.assertEqual((cent, nickel), ({COIN_IN: 300, COIN_OUT: 600, GAMES_PLAYED: 1},
                                          {COIN_IN: 450, COIN_OUT: 885, GAMES_PLAYED: 3}))
        host.sync()
        self.assertEqual(host.lp_b0_2f(0x02, 2, [COIN_IN, COIN_OUT, GAMES_PLAYED, CURRENT_CREDITS]),
                         {COIN_IN: 350, COIN_OUT: 690, GAMES_PLAYED: 2})  # credits are the station's, not a game's
        self.assertEqual(host.lp_af(1, [0x0000, 0x000C]), {0x0000: 400, 0x000C: None})
        self.assertEqual(host.lp_1a_current_credits(), 10_000 - 750 + 1_485)
        # The journal's settlement credits name their game and the denomination played.
        self.assertEqual(t.daemon.rows(
            "SELECT json_extract(body, '$.game'), json_extract(body, '$.denomination'), "
            "json_extract(body, '$.wagered') FROM record WHERE kind = 'credit' "
            "AND json_extract(body, '$.reason') = 'settlement' ORDER BY seq"),
            [("live-1", 1, 300), ("live-2", 5, 200), ("live-1", 5, 100), ("live-2", 5, 150)])

        # After a restart the selected game, the games and every meter are what they were, and the
        # denomination the player chose through live-2 (its station.state names live-2) too.
        t.restart()
        host.lp_0e(True)
        self.assertEqual((host.lp_51(), host.lp_55(), host.lp_56(), host.lp_b1()), (2, 2, [1, 2], 0x02))
        stations = EngineClient(t.daemon.socket)
        self.clients.append(stations)
        self.assertEqual(ok(self, stations.request("status"))["stations"][0]["denomination"], 5)
        self.assertEqual(host.lp_52(1)["coin_in"], 400)
        host.sync()
        self.assertEqual(host.lp_52(2)["coin_in"], 350)
        self.assertEqual(host.lp_b0_2f(0x02, 0, [COIN_IN]), {COIN_IN: 450})
        host.general_poll()
        self.assertEqual(host.lp_b0(0x03, 0x2F, bytes([3]) + sh.to_bcd(0, 2) + b"\x00"), (0x03, 0x00, b"\x04"))

        # Without real-time events an 8C is a byte: the host reads LP 55 on it, and must get that
        # 8C's game even when the next 8C is already queued behind it.
        host.sync()
        host.lp_0e(False)
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])
        dealer1, dealer2 = self.client(["live-1"], "dealer"), self.client(["live-2"], "dealer")
        stations = self.client(["live-1", "live-2"], "stations")
        for dealer, game in ((dealer1, "live-1"), (dealer2, "live-2")):
            ok(self, dealer.request("open_round"))
            ok(self, stations.request("bet", station=1, spot="banker", stake=100, game=game))
            ok(self, dealer.request("close_bets"))
        read = []
        for _ in range(6):
            event = host.general_poll()
            if event.code == 0:
                break
            if event.code == 0x8C:
                read.append((event.code, host.lp_55()))  # a poll of another head: also the 8C's implied ACK
            else:
                read.append((event.code, None))
                host.acknowledge()
        self.assertEqual(read, [(0x8C, 1), (0x7E, None), (0x8C, 2), (0x7E, None)])

    def test_the_routine_polls_a_host_sends_every_day(self):
        t = self.table = SasTable(self.dir.name, stations=(1,), validation="secure_enhanced",
                                  cashier="  ticket_limit: 5000\n")
        c = t.start()
        host = t.hosts[1]
        host.lp_4c(0x123456, 0)  # the station numbers its own tickets
        ok(self, c.request("new_shoe"))
        ok(self, c.request("ticket_in", station=1, validation="812", amount=7_000))
        ok(self, c.request("open_round"))
        ok(self, c.request("bet", station=1, spot="player", stake=500))
        ok(self, c.request("close_bets"))
        for card in PLAYER_WINS.split():
            ok(self, c.request("card", card=card))
        c.wait_event(lambda e: e["event"] == "result")
        self.assertEqual(host.lp_18(), (1, 1))  # one game since power-up, and since the door (never opened)
        self.assertEqual(host.lp_a4(0), 5_000)  # the ticket limit in credits of 0.01
        self.assertEqual(host.lp_50(0x80), (1, 7_000))  # one ticket redeemed
        host.sync()
        self.assertEqual(host.lp_50(0x00), (0, 0))
        self.assertEqual(host.lp_a8(0x01), 0x02)  # not in a hand-pay
        # 7,500 on the credit meter: above the ticket limit, a hand-pay.
        self.assertEqual(ok(self, c.request("cash_out", station=1))["handpay"], 7_500)
        host.sync()
        self.assertEqual(host.lp_a8(0x01), 0x01)  # never to the credit meter at a table
        host.general_poll()
        self.assertEqual(host.lp_a8(0x00), 0x00)  # the standard hand-pay is the method
        self.assertEqual(host.lp_94(), 0x00)
        deadline = time.time() + 5  # the reset's credits leave once its transaction commits
        while host.lp_2d(0) == 0 and time.time() < deadline:
            time.sleep(0.05)
            host.sync()
        host.sync()
        self.assertEqual(host.lp_2d(0), 7_500)
        host.sync()
        with self.assertRaises(sh.SasNoAnswer):
            host.lp_2d(1)  # kept for the station as a whole only
        ok(self, c.request("ticket_in", station=1, validation="813", amount=2_000))
        ticket = ok(self, c.request("cash_out", station=1))
        self.assertIn("ticket", ticket)
        self.assertEqual(host.lp_50(0x00), (1, 2_000))
        host.sync()
        self.assertEqual(host.lp_50(0x80), (2, 9_000))
        # B7: the host numbers the station; LP 7B reports the asset number from then on.
        before = host.lp_b7()
        self.assertEqual((before["control"], before["asset"], before["location"]), (0x03, 1, "PIT 3 TABLE 1"))
        host.sync()
        self.assertEqual(host.lp_b7(4_242, "PIT 9 SEAT 1"), {"control": 3, "asset": 4_242, "location": "PIT 9 SEAT 1"})
        # Answered once durable: the record is on disk the moment the host has the answer, and the
        # power going then (SIGKILL) does not undo it.
        self.assertEqual(json.loads(t.daemon.rows("SELECT body FROM record WHERE kind = 'sas.machine_numbers'")[0][0]),
                         {"asset": 4_242, "location": "PIT 9 SEAT 1"})
        t.daemon.kill()
        t.start()
        self.assertEqual(int.from_bytes(host.lp_7b(bytes(8))[3:7], "little"), 4_242)
        # LP 4C and 7B alike: the power goes as the host reads the answer.
        self.assertEqual(host.lp_4c(0x13579B, 0x20), (0x13579B, 0x20))
        expiry = host.lp_7b(bytes((0x00, 0x00, 0x00, 0x00)) + sh.to_bcd(45, 2) + sh.to_bcd(0, 2))
        self.assertEqual(expiry[9:11], sh.to_bcd(45, 2))
        t.daemon.kill()
        t.start()
        self.assertEqual(host.lp_4c(0, 0), (0x13579B, 0x20))
        self.assertEqual(host.lp_7b(bytes(8))[9:11], sh.to_bcd(45, 2))
        t.restart()
        self.assertEqual(host.lp_b7(), {"control": 3, "asset": 4_242, "location": "PIT 9 SEAT 1"})
        self.assertEqual(host.lp_18(), (0, 1))  # none since this power-up; the door still closed since
        self.assertEqual(host.lp_50(0x80), (2, 9_000))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
