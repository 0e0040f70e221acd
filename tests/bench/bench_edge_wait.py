#!/usr/bin/env python3
"""How often a side bet waits for its edge (issue 38; docs/protection.md "Waiting and closed
bets"), on the real pitlinkd: an RNG table with rounds.start: deal opens the next round at once,
before the worker has the new edge. A station here bets Gold 7 (under `close`) the moment each
round opens, retries every millisecond while the bet is refused side_bet_edge_pending, then
deals. Measured in the same run, as the baseline: the same station's Banker bet right after
(never guarded), whose reply time is the table's own.

Usage: bench_edge_wait.py BUILD_DIR SOURCE_DIR [--rounds N] [--decks D]
Prints the rounds, how many opened before their edge, how many first bets waited, the waits'
median and largest, and the Banker bet's median reply time (tests/bench/RESULTS.md).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("build")
parser.add_argument("source")
parser.add_argument("--rounds", type=int, default=300)
parser.add_argument("--decks", type=int, default=8)
args = parser.parse_args()
BUILD, SOURCE = os.path.abspath(args.build), os.path.abspath(args.source)
sys.path.insert(0, os.path.join(SOURCE, "tools"))
from engine_client import EngineClient  # noqa: E402
from control_client import control  # noqa: E402

with tempfile.TemporaryDirectory() as d:
    config = os.path.join(d, "pitlink.yaml")
    with open(config, "w") as f:
        f.write("table:\n  source: rng\n  stations: 2\n  decks: %d\n  paytable: %s\n"
                "rounds:\n  start: deal\n  bets_open_ms: 600000\n"
                "engine:\n  socket: %s/engine.sock\ncontrol:\n  socket: %s/control.sock\n"
                "journal:\n  path: %s/journal.db\nlog:\n  level: warn\n"
                "protection:\n  enabled: true\n  side_bets:\n    gold_7: {action: close, above_ppm: 0}\n"
                % (args.decks, os.path.join(SOURCE, "etc", "paytables", "ruyi.yaml"), d, d, d))
    daemon = subprocess.Popen([os.path.join(BUILD, "daemon", "app", "pitlinkd"), "--config", config])
    try:
        c = EngineClient(os.path.join(d, "engine.sock"))
        assert c.request("ticket_in", station=1, validation="77", amount=1_000_000)["ok"]
        waits, first_waited, banker = [], 0, []
        while c.request("status")["data"]["phase"] != "bets_open":  # the first round opened at start
            time.sleep(0.01)
        for _ in range(args.rounds):
            start = time.perf_counter()
            tries = 0
            while True:
                reply = c.request("bet", station=1, spot="gold_7", stake=100)
                tries += 1
                if reply["ok"] or reply.get("error") == "side_bet_closed":
                    break
                assert reply.get("error") == "side_bet_edge_pending", reply
                time.sleep(0.001)
            waits.append(time.perf_counter() - start)
            first_waited += tries > 1
            start = time.perf_counter()
            reply = c.request("bet", station=1, spot="banker", stake=100)
            banker.append(time.perf_counter() - start)
            assert reply["ok"], reply
            c.events.clear()
            assert c.request("deal", station=1)["ok"]
            c.wait_event(lambda e: e["event"] == "round" and e.get("phase") == "bets_open")
        worker = control(os.path.join(d, "control.sock"), cmd="protection")["worker"]
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
    waited = sorted(w for w in waits)
    print("rounds %d (%d decks); opened before their edge %d; first Gold 7 bet waited in %d (%.1f %%)"
          % (args.rounds, args.decks, worker["rounds_opened_before_edge"], first_waited,
             100.0 * first_waited / args.rounds))
    print("time to a Gold 7 bet taken or refused closed: median %.2f ms, 99th %.2f ms, largest %.2f ms; "
          "refusals side_bet_edge_pending %d; edges computed %d, stale %d"
          % (1000 * statistics.median(waited), 1000 * waited[int(0.99 * (len(waited) - 1))], 1000 * waited[-1],
             worker["bets_waited"], worker["edges_computed"], worker["edges_stale"]))
    print("baseline, the Banker bet sent right after: median reply %.2f ms"
          % (1000 * statistics.median(banker)))
