#!/usr/bin/env python3
"""The demo's floor (issue 37): a local PostgreSQL 15 started here (initdb and pg_ctl in a
temporary folder, as tests/integration/pg_server.py does), the floor schema applied by
`pitlink-ship --migrate`, a shipper role per table as a DBA makes them, two tables' journals
shipped by pitlink-ship, then what the floor sees: a query over both tables, each chain checked
on the server, and a record edited there found by floor.verify_chain and by pitlink-ship.

Usage: demo_floor.py --ship PATH --table NAME=JOURNAL [--table NAME=JOURNAL ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
import pg_server  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--ship", required=True)
parser.add_argument("--table", action="append", required=True, help="NAME=JOURNAL")
args = parser.parse_args()


def show(title, text):
    print(f"--- {title}")
    print(text)


pg = pg_server.PgServer()
work = tempfile.mkdtemp(prefix="pitlink-floor-demo-")
try:
    print(f"a PostgreSQL 15 server on 127.0.0.1:{pg.port} (its data in {pg.dir})")
    migrate = subprocess.run([args.ship, "--migrate", "--server",
                              f"host=127.0.0.1 port={pg.port} dbname=postgres user={pg.superuser}"],
                             capture_output=True, text=True, check=True)
    show("pitlink-ship --migrate (the DBA applies schema/floor)", migrate.stdout.strip())
    pg.psql("CREATE ROLE inspector LOGIN IN ROLE pitlink_floor_inspector;")
    for n, spec in enumerate(args.table):
        name, journal = spec.split("=", 1)
        role = f"ship_{n + 1}"
        pg.psql(f"CREATE ROLE {role} LOGIN IN ROLE pitlink_floor_shipper; "
                f"INSERT INTO floor.shippers VALUES ('{role}', '{name}');")
        config = os.path.join(work, f"{role}.yaml")
        status = os.path.join(work, f"{role}.json")
        with open(config, "w") as f:
            f.write(f"journal: {journal}\ntable: {name}\n"
                    f"server: \"host=127.0.0.1 port={pg.port} dbname=postgres user={role}\"\nstatus: {status}\n")
        shipped = subprocess.run([args.ship, "--config", config, "--once"], capture_output=True, text=True)
        with open(status) as f:
            st = json.load(f)
        show(f"pitlink-ship --once: table {name} ({journal})",
             f"exit {shipped.returncode}: {st['state']}, {st['shipped']} records shipped, the server at record "
             f"{st['server_seq']} of {st['journal_seq']}, links checked: {st['links_checked']}")
    show("the floor: rounds and money of every table (floor.rounds, floor.station_statement; as the inspector)",
         pg.psql("""
            SELECT r.table_name, count(*) AS rounds,
                   count(*) FILTER (WHERE r.winner = 'banker') AS banker,
                   count(*) FILTER (WHERE r.winner = 'player') AS player,
                   count(*) FILTER (WHERE r.winner = 'tie') AS tie,
                   -coalesce((SELECT sum(s.amount) FROM floor.station_statement s
                               WHERE s.table_name = r.table_name AND s.reason = 'tip'), 0) AS tips_cents
              FROM floor.rounds r GROUP BY r.table_name ORDER BY r.table_name""",
                 user="inspector").replace("|", "  ").join(["table  rounds  banker  player  tie  tips_cents\n", ""]))
    checks = []
    for spec in args.table:
        name = spec.split("=", 1)[0]
        checks.append(name + ": " + pg.psql(
            f"SELECT 'ok ' || ok || ', ' || checked || ' records checked' FROM floor.journals j, "
            f"floor.verify_chain(j.table_name, j.journal_id) WHERE j.table_name = '{name}'", user="inspector"))
    show("floor.verify_chain: each journal's chain recomputed on the server (pgcrypto)", "\n".join(checks))
    audit = subprocess.run([os.path.join(os.path.dirname(args.ship), "pitlink-floor-audit"), "--server",
                            f"host=127.0.0.1 port={pg.port} dbname=postgres user=inspector", "--table",
                            args.table[0].split("=", 1)[0]], capture_output=True, text=True)
    show("pitlink-floor-audit: the inspector's whole audit, from the server (links, meters, rounds)",
         audit.stdout.strip())
    print("--- an edit on the server, as its owner could make it, and what finds it")
    name = args.table[0].split("=", 1)[0]
    pg.psql(f"""SET session_replication_role = replica;
                UPDATE floor.record SET body = body || ' ' WHERE table_name = '{name}' AND seq = 10;""")
    print(pg.psql(f"SELECT 'verify_chain: ok ' || ok || ', first bad record ' || first_bad_seq || ': ' || problem "
                  f"FROM floor.journals j, floor.verify_chain(j.table_name, j.journal_id) "
                  f"WHERE j.table_name = '{name}'", user="inspector"))
    config = os.path.join(work, "ship_1.yaml")
    with open(config, "a") as f:
        f.write("verify_every_ms: 1\n")
    subprocess.run([args.ship, "--config", config, "--once"], capture_output=True, text=True)
    with open(os.path.join(work, "ship_1.json")) as f:
        st = json.load(f)
    print(f"pitlink-ship: {st['state']}: {st['error']}")
finally:
    pg.close()
