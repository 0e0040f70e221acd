#!/usr/bin/env python3
"""pitlink-ship's throughput against a real PostgreSQL 15 (tests/integration/pg_server.py),
with its baseline measured in the same run on the same server: a plain COPY (psql \\copy) of the
same rows into an ordinary table with the same key and no trigger, row-level security or
partition. Then N-1 more tables (journals dealt separately) shipping at once, each its own
process and role, for the server's insert rate.

Usage: bench_ship.py BUILD_DIR SOURCE_DIR [--rounds N] [--tables N] [--journal PATH] [--no-live]
  --journal: table 0's journal is this one (e.g. the year's of bench_startup --make), not dealt
  --no-live: without the live lag measure
Prints one line per figure (tests/bench/RESULTS.md "Shipping to the floor"), then the server's
cost of each part of an insert into floor.record, on the same rows inside the server.
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("build")
parser.add_argument("source")
parser.add_argument("--rounds", type=int, default=3000)
parser.add_argument("--tables", type=int, default=4)
parser.add_argument("--journal")
parser.add_argument("--no-live", action="store_true")
args = parser.parse_args()
BUILD, SOURCE = os.path.abspath(args.build), os.path.abspath(args.source)
sys.path.insert(0, os.path.join(SOURCE, "tests", "integration"))
import pg_server  # noqa: E402

DAEMON = os.path.join(BUILD, "daemon", "app", "pitlinkd")
SHIP = os.path.join(BUILD, "daemon", "ship", "pitlink-ship")
PAYTABLE = os.path.join(SOURCE, "etc", "paytables", "standard.yaml")


def deal(folder, rounds):
    os.makedirs(folder)
    config = os.path.join(folder, "pitlink.yaml")
    with open(config, "w") as f:
        f.write("table:\n  paytable: %s\n  decks: 8\n  cut_card_from_end: 14\n"
                "rounds:\n  bets_open_ms: 1\n  last_bets_ms: 1\n"
                "engine:\n  socket: engine.sock\ncontrol:\n  socket: control.sock\n"
                "journal:\n  path: journal.db\n  segment_max_mb: 8\n" % PAYTABLE)
    subprocess.run([DAEMON, "--config", config, "--rounds", str(rounds)], cwd=folder, check=True,
                   capture_output=True, timeout=1800)
    return os.path.join(folder, "journal.db")


def rows_tsv(journal, path):
    """The journal's records as COPY text rows, as the baseline loads them."""
    files = []
    segments = journal + ".segments"
    active = os.path.realpath(journal)
    if os.path.isdir(segments):
        files = sorted(os.path.join(segments, f) for f in os.listdir(segments)
                       if f.endswith(".db") and os.path.join(segments, f) != active)
    files.append(active)

    def text(v):
        if v is None:
            return "\\N"
        if isinstance(v, bytes):
            return "\\\\x" + v.hex()
        return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")

    n = 0
    with open(path, "w", encoding="utf-8") as out:
        for f in files:
            db = sqlite3.connect(f"file:{f}?mode=ro", uri=True)
            for r in db.execute("SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq"):
                out.write("\t".join(text(v) for v in ("t", 1) + tuple(r)) + "\n")
                n += 1
            db.close()
    os.chmod(path, 0o644)
    return n


def shipper_config(folder, pg, role, table, journal):
    path = os.path.join(folder, f"{role}.yaml")
    with open(path, "w") as f:
        f.write(f"journal: {journal}\ntable: {table}\n"
                f"server: \"host=127.0.0.1 port={pg.port} dbname=postgres user={role}\"\n"
                f"status: {os.path.join(folder, role + '.json')}\npoll_ms: 100\n")
    return path


def server_costs(pg, n):
    """The same n rows (the baseline's table `plain`) inserted inside the server into tables that
    add one part of floor.record at a time: what each part costs the server, without the client,
    the network or COPY's parsing."""
    def timed(sql, user=None):
        start = time.monotonic()
        pg.psql(sql, user=user)
        return time.monotonic() - start

    cols = "seq, at_ms, kind, round_id, station, body, hash"
    pg.psql("CREATE TABLE c_plain (LIKE plain INCLUDING ALL);"
            "CREATE TABLE c_json (LIKE plain INCLUDING ALL,"
            " body_json jsonb GENERATED ALWAYS AS (floor.body_jsonb(body)) STORED);"
            "CREATE TABLE c_indexed (LIKE c_json INCLUDING ALL);"
            "CREATE INDEX ON c_indexed (table_name, journal_id, round_id) WHERE round_id IS NOT NULL;"
            "CREATE INDEX ON c_indexed (kind, table_name, journal_id, seq);"
            "CREATE ROLE c_ship LOGIN IN ROLE pitlink_floor_shipper;"
            "CREATE ROLE c_owner LOGIN BYPASSRLS IN ROLE pitlink_floor_shipper;"
            "INSERT INTO floor.shippers VALUES ('c_ship', 'cost-rls'), ('c_owner', 'cost-owner');"
            "GRANT SELECT ON plain TO c_ship, c_owner;")
    lo, hi = pg.psql("SELECT min(at_ms), max(at_ms) FROM plain").split("|")
    pg.psql(f"SELECT floor.ensure_partitions({lo}, {hi})")
    for role, table in (("c_ship", "cost-rls"), ("c_owner", "cost-owner")):
        pg.psql(f"SELECT floor.register_journal('{table}', 1, 'sha256', '')", user=role)
    steps = [
        ("a plain table with the same key", timed("INSERT INTO c_plain SELECT * FROM plain")),
        ("+ body_json (jsonb parsed from the text)", timed("INSERT INTO c_json SELECT * FROM plain")),
        ("+ the views' two indexes", timed("INSERT INTO c_indexed SELECT * FROM plain")),
        ("floor.record as a shipper role with BYPASSRLS (partitions, append-only and gapless triggers)",
         timed(f"INSERT INTO floor.record (table_name, journal_id, {cols}) "
               f"SELECT 'cost-owner', 1, {cols} FROM plain ORDER BY seq", user="c_owner")),
        ("floor.record as a shipper role (row-level security too)",
         timed(f"INSERT INTO floor.record (table_name, journal_id, {cols}) "
               f"SELECT 'cost-rls', 1, {cols} FROM plain ORDER BY seq", user="c_ship")),
    ]
    held = int(pg.psql("SELECT count(*) FROM floor.record WHERE table_name IN ('cost-rls', 'cost-owner')"))
    assert held == 2 * n, (held, n)
    base = steps[0][1]
    for name, seconds in steps:
        print(f"server insert of the same {n} rows, {name}: {seconds:.2f} s = {n / seconds:,.0f} records/s "
              f"({seconds / base:.1f}x the plain table)")
    # The views' gaming day: floor.gaming_day() reads its settings at each call; the same day
    # computed with the settings joined once.
    per_row = timed("SELECT count(floor.gaming_day(at_ms)) FROM plain")
    joined = timed("SELECT count(((to_timestamp(p.at_ms / 1000.0) AT TIME ZONE s.time_zone) - s.starts_at)::date) "
                   "FROM plain p CROSS JOIN floor.gaming_day_settings s")
    print(f"the gaming day of the same {n} rows: floor.gaming_day() {per_row:.2f} s; the settings joined once "
          f"{joined:.2f} s")


def main():
    work = tempfile.mkdtemp(prefix="bench-ship-")
    pg = pg_server.PgServer()
    try:
        migrate = subprocess.run([SHIP, "--migrate", "--server",
                                  f"host=127.0.0.1 port={pg.port} dbname=postgres user={pg.superuser}"],
                                 capture_output=True, text=True, check=True)
        journals = [os.path.abspath(args.journal) if args.journal and i == 0
                    else deal(os.path.join(work, f"table{i}"), args.rounds) for i in range(args.tables)]
        for i in range(args.tables):
            pg.psql(f"CREATE ROLE ship{i} LOGIN IN ROLE pitlink_floor_shipper; "
                    f"INSERT INTO floor.shippers VALUES ('ship{i}', 'table-{i}');")
        # Baseline: the same rows of table 0 by a plain COPY into a plain table.
        tsv = os.path.join(work, "rows.tsv")
        n = rows_tsv(journals[0], tsv)
        pg.psql("CREATE TABLE plain (table_name text, journal_id bigint, seq bigint, at_ms bigint, kind text, "
                "round_id bigint, station bigint, body text, hash bytea, PRIMARY KEY (table_name, journal_id, seq))")
        start = time.monotonic()
        pg.psql(f"\\copy plain FROM '{tsv}'")
        copy_s = time.monotonic() - start
        # One table's journal shipped from scratch.
        start = time.monotonic()
        subprocess.run([SHIP, "--config", shipper_config(work, pg, "ship0", "table-0", journals[0]), "--once"],
                       check=True, capture_output=True, timeout=7200)
        ship_s = time.monotonic() - start
        held = int(pg.psql("SELECT count(*) FROM floor.record"))
        assert held == n, (held, n)
        print(f"one table from scratch: {n} records in {ship_s:.2f} s = {n / ship_s:,.0f} records/s; "
              f"plain COPY of the same rows: {copy_s:.2f} s = {n / copy_s:,.0f} records/s "
              f"(shipping at {100 * copy_s / ship_s:.0f}% of it)")
        server_costs(pg, n)
        # The other tables at once (each its own process and role).
        start = time.monotonic()
        procs = [subprocess.Popen([SHIP, "--config", shipper_config(work, pg, f"ship{i}", f"table-{i}", journals[i]),
                                   "--once"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for i in range(1, args.tables)]
        for p in procs:
            assert p.wait(timeout=3600) == 0
        many_s = time.monotonic() - start
        total = int(pg.psql("SELECT count(*) FROM floor.record")) - n
        if args.tables > 1:
            print(f"{args.tables - 1} tables shipping at once: {total} records in {many_s:.2f} s = "
                  f"{total / many_s:,.0f} records/s inserted by the server")
        if args.no_live:
            return
        # The live lag at the service's pace (poll_ms 250): a durable record (the engine link's
        # reply to a ticket in comes once it is on the disk) until the server holds it.
        live = os.path.join(work, "live")
        os.makedirs(live)
        config = os.path.join(live, "pitlink.yaml")
        with open(config, "w") as f:
            f.write("table:\n  paytable: %s\n  stations: 4\nengine:\n  socket: %s/engine.sock\n"
                    "control:\n  socket: %s/control.sock\njournal:\n  path: %s/journal.db\n"
                    % (PAYTABLE, live, live, live))
        daemon = subprocess.Popen([DAEMON, "--config", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pg.psql("CREATE ROLE shiplive LOGIN IN ROLE pitlink_floor_shipper; "
                "INSERT INTO floor.shippers VALUES ('shiplive', 'live');")
        ship_config = shipper_config(work, pg, "shiplive", "live", os.path.join(live, "journal.db"))
        text = open(ship_config).read().replace("poll_ms: 100", "poll_ms: 250")
        with open(ship_config, "w") as f:
            f.write(text)
        try:
            while not os.path.exists(os.path.join(live, "engine.sock")):
                time.sleep(0.05)
            sys.path.insert(0, os.path.join(SOURCE, "tools"))
            from engine_client import EngineClient
            client = EngineClient(os.path.join(live, "engine.sock"))
            shipper = subprocess.Popen([SHIP, "--config", ship_config], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            lags = []
            count = lambda: int(pg.psql("SELECT count(*) FROM floor.record WHERE table_name = 'live'"))
            while count() == 0:
                time.sleep(0.05)
            for i in range(40):
                before = count()
                client.request("ticket_in", station=1 + i % 4, validation=str(7_000_000_000 + i), amount=100)
                durable = time.monotonic()
                while count() <= before:
                    time.sleep(0.005)
                lags.append(time.monotonic() - durable)
                time.sleep(0.1 + (i % 7) * 0.03)  # not in step with the shipper's polls
            shipper.terminate()
            shipper.wait(timeout=20)
        finally:
            daemon.terminate()
            daemon.wait(timeout=20)
        lags.sort()
        print(f"live lag (poll_ms 250, 40 ticket-ins): median {1000 * lags[len(lags) // 2]:.0f} ms, "
              f"90th percentile {1000 * lags[int(len(lags) * 0.9)]:.0f} ms, max {1000 * lags[-1]:.0f} ms "
              f"(the psql poll of the count adds about 10-20 ms)")
        print(migrate.stdout.strip())
    finally:
        pg.close()
        shutil.rmtree(work, ignore_errors=True)


main()
