#!/usr/bin/env python3
"""The floor schema (schema/floor/0001_floor.sql, issue 37) on a real PostgreSQL 15 server the test
starts itself (pg_server.py): applied once as a DBA would; real pitlink journals loaded the way a
shipper must (COPY into a temporary table, then one INSERT through row-level security) by this
test's own loader, which reads the SQLite files with Python's sqlite3 (schema/README.md), not
pitlink's code; floor.verify_chain checked against the test's own hashlib/hmac chain, finding a
journal edited on the controller and a record edited on the server; append-only, gapless and
own-table rules; an immediate server stop in the middle of a batch.

    python3 tests/integration/test_floor_schema.py BUILD_DIR SOURCE_DIR
"""
import collections
import datetime
import hashlib
import hmac
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import zoneinfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_server  # noqa: E402

SOURCE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..")
MIGRATION = os.path.join(SOURCE, "schema", "floor", "0001_floor.sql")
VIEWS = os.path.join(SOURCE, "schema", "floor", "0002_floor_views.sql")
FIXTURES = os.path.join(SOURCE, "tests", "fixtures", "journal")
COLUMNS = "table_name, journal_id, seq, at_ms, kind, round_id, station, body, hash"
# The shipper's batch: a temporary table COPY can fill (COPY into floor.record is refused under RLS).
BATCH_TABLE = ("CREATE TEMP TABLE batch (table_name text, journal_id bigint, seq bigint, at_ms bigint, kind text, "
               "round_id bigint, station bigint, body text, hash bytea);")
ZERO = bytes(32)
NOV_2026 = 1_793_491_200_000  # 2026-11-01 00:00 UTC in ms
DEC_2026 = 1_796_083_200_000  # 2026-12-01 00:00 UTC


def segment_files(journal):
    """journal.db (one segment), or the link to the active segment with the sealed ones beside it."""
    if not os.path.islink(journal):
        return [journal]
    active = os.path.basename(os.readlink(journal))
    folder = journal + ".segments"
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.startswith("segment-") and f.endswith(".db") and f <= active)


def read_journal(journal):
    """Every record of every segment, in order: (seq, at_ms, kind, round_id, station, body, hash)."""
    records = []
    for path in segment_files(journal):
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        records += db.execute("SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq")
        db.close()
    return records


def journal_identity(journal):
    db = sqlite3.connect(f"file:{segment_files(journal)[-1]}?mode=ro&immutable=1", uri=True)
    info = dict(db.execute("SELECT key, value FROM journal_info"))
    db.close()
    return int(info["created_at_ms"]), info["chain"], info.get("key_fingerprint", "")


def canonical(seq, at, kind, rnd, station, body):
    return "\t".join([str(seq), str(at), kind, "" if rnd is None else str(rnd),
                      "" if station is None else str(station), body]).encode()


def chained(rows, key=None):
    """(seq, at, kind, round, station, body) rows with their links: SHA-256, or HMAC-SHA-256."""
    prev, out = ZERO, []
    for seq, at, kind, rnd, station, body in rows:
        text = prev + canonical(seq, at, kind, rnd, station, body)
        prev = hmac.new(key, text, hashlib.sha256).digest() if key else hashlib.sha256(text).digest()
        out.append((seq, at, kind, rnd, station, body, prev))
    return out


def first_break(records):
    """The first seq whose link does not follow (the test's own check), or None."""
    prev = ZERO
    for seq, at, kind, rnd, station, body, h in records:
        prev = hashlib.sha256(prev + canonical(seq, at, kind, rnd, station, body)).digest()
        if prev != bytes(h):
            return seq
    return None


def copy_text(value):
    """A value in COPY's text format."""
    if value is None:
        return "\\N"
    if isinstance(value, (bytes, memoryview)):
        return "\\\\x" + bytes(value).hex()
    text = str(value)
    return (text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))


def ship(pg, tmp, role, table, journal_id, records, chain="sha256", fingerprint=""):
    """The shipper's way in: register the journal, COPY into a temporary table, one INSERT."""
    path = os.path.join(tmp, f"batch-{role}-{time.monotonic_ns()}.tsv")
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write("\t".join(copy_text(v) for v in (table, journal_id) + tuple(r)) + "\n")
    os.chmod(path, 0o644)
    return pg.psql(f"""
        SELECT last_seq FROM floor.register_journal('{table}', {journal_id}, '{chain}', '{fingerprint}');
        {BATCH_TABLE}
        \\copy batch FROM '{path}'
        INSERT INTO floor.record ({COLUMNS}) SELECT {COLUMNS} FROM batch ORDER BY seq;
    """, user=role)


def floor_server(migrations, shippers, extra=""):
    """A server with the floor schema `migrations` applied, a login role shipping each table of
    `shippers` {role: table} (the DBA's step), an inspector, then `extra` SQL."""
    pg = pg_server.PgServer()
    for path in migrations:
        pg.psql_file(path)
    roles = "".join(f"CREATE ROLE {role} LOGIN IN ROLE pitlink_floor_shipper;\n" for role in shippers)
    rows = ", ".join(f"('{role}', '{table}')" for role, table in shippers.items())
    pg.psql(f"""{roles}CREATE ROLE inspector LOGIN IN ROLE pitlink_floor_inspector;
        INSERT INTO floor.shippers VALUES {rows};
        {extra}""")
    return pg


class FloorSchema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pg = floor_server([MIGRATION], {"ship_t1": "table-1", "ship_t2": "table-2"},
                              "SELECT floor.ensure_partitions(1793491200000, 1798761600000);")
        cls.tmp = tempfile.mkdtemp(prefix="pitlink-floor-")

    @classmethod
    def tearDownClass(cls):
        cls.pg.close()
        subprocess.run(["rm", "-rf", cls.tmp], check=False)

    def ship(self, role, table, journal_id, records, chain="sha256", fingerprint=""):
        return ship(self.pg, self.tmp, role, table, journal_id, records, chain, fingerprint)

    def verify(self, table, journal_id, key=None, user="inspector"):
        arg = "NULL" if key is None else f"'\\x{key.hex()}'::bytea"
        out = self.pg.psql(f"SELECT ok, checked, coalesce(first_bad_seq, 0), coalesce(problem, '') "
                           f"FROM floor.verify_chain('{table}', {journal_id}, {arg})", user=user)
        ok, checked, bad, problem = out.split("|", 3)
        return ok == "t", int(checked), int(bad), problem

    def test_1_migration_applies_once_and_needs_utf8(self):
        self.assertEqual(self.pg.psql("SELECT version, name FROM floor.schema_version"), "1|0001_floor.sql")
        with self.assertRaises(pg_server.PgError) as again:
            self.pg.psql_file(MIGRATION)
        self.assertIn("already exists", str(again.exception))
        self.assertEqual(self.pg.psql("SELECT count(*) FROM floor.schema_version"), "1")
        self.pg.psql("CREATE DATABASE ascii TEMPLATE template0 ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'")
        with self.assertRaises(pg_server.PgError) as ascii_db:
            self.pg.psql_file(MIGRATION, database="ascii")
        self.assertIn("needs a UTF8 database", str(ascii_db.exception))

    def test_2_real_journals_verify_where_they_are(self):
        # One segment (fixture v3) and a journal of three segments, each checked here first.
        single = read_journal(os.path.join(FIXTURES, "v3.db"))
        segmented_path = os.path.join(FIXTURES, "release-f918d9b", "journal.db")
        segmented = read_journal(segmented_path)
        self.assertEqual(len(segment_files(segmented_path)), 3)
        self.assertIsNone(first_break(single))
        self.assertIsNone(first_break(segmented))
        ident, chain, fingerprint = journal_identity(segmented_path)
        self.assertEqual((chain, fingerprint), ("sha256", ""))
        self.ship("ship_t1", "table-1", 101, single)
        self.ship("ship_t1", "table-1", ident, segmented)
        self.assertEqual(self.verify("table-1", 101), (True, len(single), 0, ""))
        self.assertEqual(self.verify("table-1", ident), (True, len(segmented), 0, ""))
        # What the server holds is what the controller wrote, record by record.
        held = self.pg.psql(f"SELECT seq || ':' || encode(hash, 'hex') FROM floor.record "
                            f"WHERE table_name = 'table-1' AND journal_id = {ident} ORDER BY seq", user="inspector")
        self.assertEqual(held.split("\n"), [f"{r[0]}:{bytes(r[6]).hex()}" for r in segmented])
        self.assertEqual(self.pg.psql(f"SELECT last_seq FROM floor.journals WHERE journal_id = {ident}"),
                         str(segmented[-1][0]))
        # body_json is the body for queries; the body stays the exact text.
        self.assertEqual(self.pg.psql(
            f"SELECT count(*) FROM floor.record WHERE journal_id = {ident} AND body_json IS DISTINCT FROM body::jsonb"),
            "0")
        kinds = self.pg.psql(f"SELECT count(*) FROM floor.record WHERE journal_id = {ident} "
                             "AND body_json ? 'last_hash' AND kind = 'segment.sealed'")
        self.assertEqual(int(kinds), sum(1 for r in segmented if r[2] == "segment.sealed"))

    def test_3_an_edited_journal_and_a_record_edited_on_the_server_are_found(self):
        edited = read_journal(os.path.join(FIXTURES, "edited.db"))
        bad = first_break(edited)
        self.assertIsNotNone(bad)
        self.ship("ship_t1", "table-1", 102, edited)
        ok, checked, seq, problem = self.verify("table-1", 102)
        self.assertEqual((ok, checked, seq), (False, bad - 1, bad))
        self.assertIn("does not match its chain link", problem)

        records = read_journal(os.path.join(FIXTURES, "v3.db"))
        self.ship("ship_t1", "table-1", 103, records)
        self.assertTrue(self.verify("table-1", 103)[0])
        # A superuser edits a body behind the triggers' back: the chain says where.
        target = records[9]
        self.pg.psql(f"""
            SET session_replication_role = replica;
            UPDATE floor.record SET body = '{{"tampered":1}}'
             WHERE table_name = 'table-1' AND journal_id = 103 AND seq = {target[0]};
        """)
        ok, checked, seq, problem = self.verify("table-1", 103)
        self.assertEqual((ok, checked, seq), (False, target[0] - 1, target[0]))

        # The newest record taken away behind the triggers' back: the journal's head says so.
        self.ship("ship_t1", "table-1", 105, records)
        self.pg.psql(f"""
            SET session_replication_role = replica;
            DELETE FROM floor.record WHERE table_name = 'table-1' AND journal_id = 105 AND seq = {records[-1][0]};
        """)
        self.assertEqual(self.verify("table-1", 105),
                         (False, len(records) - 1, len(records),
                          f"the records end at {len(records) - 1}, the journal's head is at {len(records)}"))

    def test_4_append_only_even_for_the_owner(self):
        records = read_journal(os.path.join(FIXTURES, "v3.db"))
        self.ship("ship_t1", "table-1", 104, records[:5])
        partition = self.pg.psql("SELECT tableoid::regclass FROM floor.record WHERE journal_id = 104 LIMIT 1")
        for sql in ("UPDATE floor.record SET kind = 'x' WHERE journal_id = 104",
                    "DELETE FROM floor.record WHERE journal_id = 104",
                    f"UPDATE {partition} SET kind = 'x' WHERE journal_id = 104",
                    f"DELETE FROM {partition} WHERE journal_id = 104",
                    "TRUNCATE floor.record", f"TRUNCATE {partition}", "TRUNCATE floor.record_default",
                    "UPDATE floor.journals SET last_seq = 1 WHERE journal_id = 104",
                    "DELETE FROM floor.journals WHERE journal_id = 104"):
            with self.assertRaises(pg_server.PgError, msg=sql) as refused:
                self.pg.psql(sql)
            self.assertRegex(str(refused.exception), "append-only|only moves on", sql)
        self.assertEqual(self.pg.psql("SELECT count(*) FROM floor.record WHERE journal_id = 104"), "5")
        # The shipper has no right to either.
        with self.assertRaises(pg_server.PgError):
            self.pg.psql("DELETE FROM floor.record WHERE journal_id = 104", user="ship_t1")

    def test_5_gapless_in_order_and_never_twice(self):
        rows = chained([(s, NOV_2026 + s * 1000, "test.record", None, None, json.dumps({"n": s}))
                        for s in range(1, 11)])
        self.ship("ship_t2", "table-2", 201, rows[:4])
        for batch, why in ((rows[5:7], "a gap"), (rows[2:6], "records already held"),
                           ([rows[4], rows[4]], "the same record twice")):
            with self.assertRaises(pg_server.PgError, msg=why) as refused:
                self.ship("ship_t2", "table-2", 201, batch)
            self.assertRegex(str(refused.exception), "are not the next ones|duplicate key", why)
        # Record 3 again with a forged time in another month: another partition, still refused.
        forged = chained([(s, DEC_2026 + s if s == 3 else NOV_2026 + s * 1000, "test.record", None, None,
                           json.dumps({"n": s})) for s in range(1, 4)])[2:]
        with self.assertRaises(pg_server.PgError):
            self.ship("ship_t2", "table-2", 201, forged)
        self.ship("ship_t2", "table-2", 201, rows[4:])
        self.assertEqual(self.verify("table-2", 201), (True, 10, 0, ""))
        self.assertEqual(self.pg.psql("SELECT count(DISTINCT tableoid) FROM floor.record WHERE journal_id = 201"), "1")

    def test_6_a_shipper_writes_and_reads_its_own_table_only(self):
        rows = chained([(s, NOV_2026 + s, "test.record", None, s, "{}") for s in range(1, 4)])
        with self.assertRaises(pg_server.PgError) as other:
            self.ship("ship_t1", "table-2", 301, rows)
        self.assertIn("does not ship table table-2", str(other.exception))
        # Registered by its own shipper, table-2's journal is still closed to ship_t1's rows.
        self.ship("ship_t2", "table-2", 302, rows[:1])
        path = os.path.join(self.tmp, "other.tsv")
        with open(path, "w") as f:
            f.write("\t".join(copy_text(v) for v in ("table-2", 302) + tuple(rows[1])) + "\n")
        with self.assertRaises(pg_server.PgError) as rls:
            self.pg.psql(f"""
                {BATCH_TABLE}
                \\copy batch FROM '{path}'
                INSERT INTO floor.record ({COLUMNS}) SELECT {COLUMNS} FROM batch;
            """, user="ship_t1")
        self.assertIn("row-level security", str(rls.exception))
        # COPY straight into the records is refused under row-level security (PostgreSQL 15).
        with self.assertRaises(pg_server.PgError) as copy:
            self.pg.psql(f"\\copy floor.record ({COLUMNS}) FROM '{path}'", user="ship_t2")
        self.assertIn("COPY FROM not supported with row-level security", str(copy.exception))
        # Reads: each shipper sees its own table; the inspector sees all and writes nothing.
        self.assertEqual(self.pg.psql("SELECT DISTINCT table_name FROM floor.record", user="ship_t2"), "table-2")
        self.assertNotIn("table-2", self.pg.psql("SELECT DISTINCT table_name FROM floor.record", user="ship_t1"))
        everyone = self.pg.psql("SELECT DISTINCT table_name FROM floor.record ORDER BY 1", user="inspector")
        self.assertIn("table-2", everyone)
        with self.assertRaises(pg_server.PgError) as inspector:
            self.pg.psql("INSERT INTO floor.record (table_name, journal_id, seq, at_ms, kind, body, hash) "
                         "VALUES ('table-2', 302, 2, 1, 'x', '{}', '\\x00')", user="inspector")
        self.assertIn("permission denied", str(inspector.exception))

    def test_7_hmac_chain_needs_its_key(self):
        key = bytes(range(40))
        rows = chained([(s, NOV_2026 + s, "test.record", s // 3 or None, None, json.dumps({"n": s, "t": "é\u0001"}))
                        for s in range(1, 8)], key=key)
        self.ship("ship_t2", "table-2", 401, rows, chain="hmac-sha256", fingerprint=hashlib.sha256(key).hexdigest())
        self.assertEqual(self.verify("table-2", 401, key), (True, 7, 0, ""))
        self.assertEqual(self.verify("table-2", 401), (False, 0, 0, "HMAC-chained: pass its key"))
        self.assertEqual(self.verify("table-2", 401, key[:-1] + b"x"), (False, 0, 0, "not this journal's key"))
        # A fingerprint that is not SHA-256 hex as pitlink writes it (lower case) is refused.
        with self.assertRaises(pg_server.PgError) as upper:
            self.ship("ship_t2", "table-2", 402, rows, chain="hmac-sha256",
                      fingerprint=hashlib.sha256(key).hexdigest().upper())
        self.assertIn("journals_check", str(upper.exception))
        # The same records chained with SHA-256 do not pass as this journal's.
        self.assertEqual(self.verify("table-1", 101, key), (False, 0, 0, "sha256-chained: no key"))

    def test_7b_partitions_are_utc_months_whatever_the_session_time_zone(self):
        # 2028-01 to 2028-05 made from a session in Los Angeles (daylight saving time begins in
        # March): each partition is one UTC month, from its first millisecond.
        self.pg.psql("SET TimeZone = 'America/Los_Angeles'; "
                     "SELECT floor.ensure_partitions(1830297600000, 1840838400000)", user="ship_t1")
        bounds = self.pg.psql("SELECT c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid) FROM pg_class c "
                              "WHERE c.relname LIKE 'record_2028m%' AND c.relkind = 'r' ORDER BY c.relname")
        def ms(y, m):
            return int(datetime.datetime(y, m, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000)
        self.assertEqual(bounds.split("\n"),
                         [f"record_2028m{m:02d} FOR VALUES FROM ('{ms(2028, m)}') TO ('{ms(2028, m + 1)}')"
                          for m in range(1, 6)])
        self.assertEqual(ms(2028, 1), 1830297600000)

    def test_8_a_body_jsonb_cannot_hold_still_verifies(self):
        rows = chained([(1, NOV_2026, "dispute.opened", None, 3, '{"text":"a\\u0000b"}'),
                        (2, NOV_2026 + 1, "test.record", None, None, '{"n":2}')])
        self.ship("ship_t2", "table-2", 501, rows)
        self.assertEqual(self.pg.psql("SELECT seq || ':' || coalesce(body_json::text, 'null') FROM floor.record "
                                      "WHERE journal_id = 501 ORDER BY seq"), '1:null\n2:{"n": 2}')
        self.assertEqual(self.verify("table-2", 501), (True, 2, 0, ""))

    def test_9_an_immediate_stop_mid_batch_loses_the_whole_batch_only(self):
        rows = chained([(s, NOV_2026 + s, "test.record", s, s % 9, json.dumps({"n": s, "pad": "x" * 200}))
                        for s in range(1, 200_001)])
        self.ship("ship_t2", "table-2", 601, rows[:100])
        path = os.path.join(self.tmp, "big.tsv")
        with open(path, "w") as f:
            for r in rows[100:]:
                f.write("\t".join(copy_text(v) for v in ("table-2", 601) + tuple(r)) + "\n")
        os.chmod(path, 0o644)
        batch = subprocess.Popen(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.pg.port), "-U", "ship_t2",
             "-d", "postgres"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
        batch.stdin.write(f"""
            {BATCH_TABLE}
            \\copy batch FROM '{path}'
            INSERT INTO floor.record ({COLUMNS}) SELECT {COLUMNS} FROM batch ORDER BY seq;
        """)
        batch.stdin.close()
        # The INSERT running (not the COPY before it): the power goes.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.pg.psql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'ship_t2' AND state = 'active' "
                            "AND query LIKE 'INSERT INTO floor.record%'") == "1":
                break
            time.sleep(0.005)
        else:
            self.fail("the batch's INSERT was never seen running")
        self.pg.stop("immediate")
        batch.wait(timeout=30)
        self.assertNotEqual(batch.returncode, 0)
        self.pg.start()
        self.assertEqual(self.pg.psql("SELECT last_seq FROM floor.journals WHERE journal_id = 601"), "100")
        self.assertEqual(self.pg.psql("SELECT count(*), max(seq) FROM floor.record WHERE journal_id = 601"), "100|100")
        self.ship("ship_t2", "table-2", 601, rows[100:])  # sent again: all of it, once
        self.assertEqual(self.verify("table-2", 601), (True, len(rows), 0, ""))


class FloorViews(unittest.TestCase):
    """Schema 2's views over two tables' journals (the release fixture of three segments, shipped
    as two tables), each figure computed here from the SQLite records with Python's json."""

    @classmethod
    def setUpClass(cls):
        cls.pg = floor_server([MIGRATION, VIEWS], {"ship_a": "table-a", "ship_b": "table-b"},
                              "UPDATE floor.gaming_day_settings SET time_zone = 'America/Los_Angeles', "
                              "starts_at = '06:00';")
        cls.tmp = tempfile.mkdtemp(prefix="pitlink-floor-")
        journal = os.path.join(FIXTURES, "release-f918d9b", "journal.db")
        cls.records = read_journal(journal)
        cls.journal_id = journal_identity(journal)[0]
        cls.bodies = [(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in cls.records]
        ship(cls.pg, cls.tmp, "ship_a", "table-a", cls.journal_id, cls.records)
        ship(cls.pg, cls.tmp, "ship_b", "table-b", cls.journal_id, cls.records)

    @classmethod
    def tearDownClass(cls):
        cls.pg.close()
        subprocess.run(["rm", "-rf", cls.tmp], check=False)

    def query(self, sql):
        out = self.pg.psql(sql, user="inspector")
        return [line.split("|") for line in out.split("\n")] if out else []

    def of_kind(self, kind):
        return [b for b in self.bodies if b[2] == kind]

    def test_1_schema_2_follows_1_once(self):
        self.assertEqual(self.pg.psql("SELECT string_agg(version || ':' || name, ',' ORDER BY version) "
                                      "FROM floor.schema_version"), "1:0001_floor.sql,2:0002_floor_views.sql")
        with self.assertRaises(pg_server.PgError) as again:
            self.pg.psql_file(VIEWS)
        self.assertIn("follows version 1", str(again.exception))

    def test_2_rounds_of_both_tables(self):
        expected = {}
        for seq, at, kind, rnd, station, body in self.bodies:
            if kind == "round.opened":
                expected[rnd] = {"game": body.get("game", ""), "ended": "", "winner": "", "resettled": 0}
            elif kind in ("round.settled", "round.voided"):
                expected[rnd]["ended"] = kind
            if kind in ("round.settled", "round.resettled"):
                expected[rnd]["winner"] = body["outcome"]["winner"]
            if kind == "round.resettled":
                expected[rnd]["resettled"] += 1
        rows = self.query("SELECT table_name, round_id, coalesce(game, ''), coalesce(ended, ''), "
                          "coalesce(winner, ''), resettlements FROM floor.rounds ORDER BY table_name, round_id")
        want = [[t, str(rnd), e["game"], e["ended"], e["winner"], str(e["resettled"])]
                for t in ("table-a", "table-b") for rnd, e in sorted(expected.items())]
        self.assertEqual(rows, want)
        self.assertGreater(sum(e["resettled"] for e in expected.values()), 0)
        self.assertIn("round.voided", [e["ended"] for e in expected.values()])
        # The floor's question over two tables: rounds per table.
        self.assertEqual(self.query("SELECT table_name, count(*) FROM floor.rounds GROUP BY 1 ORDER BY 1"),
                         [["table-a", str(len(expected))], ["table-b", str(len(expected))]])

    def test_3_statement_tips_tickets_per_station(self):
        credits, tips = collections.Counter(), collections.Counter()
        tickets = collections.Counter()
        for seq, at, kind, rnd, station, body in self.bodies:
            if kind == "credit":
                credits[station] += body["amount"]
            elif kind == "tip":
                tips[station] += body["amount"]
            elif kind in ("ticket.issued", "ticket.redeemed"):
                tickets[("out" if kind == "ticket.issued" else "in", station)] += body["amount"]
        self.assertEqual(self.query("SELECT station, sum(amount) FROM floor.station_statement "
                                    "WHERE table_name = 'table-a' GROUP BY 1 ORDER BY 1"),
                         [[str(s), str(v)] for s, v in sorted(credits.items())])
        self.assertEqual(self.query("SELECT station, sum(amount) FROM floor.tips WHERE table_name = 'table-b' "
                                    "GROUP BY 1 ORDER BY 1"), [[str(s), str(v)] for s, v in sorted(tips.items())])
        self.assertEqual(self.query("SELECT direction, station, sum(amount) FROM floor.tickets "
                                    "WHERE table_name = 'table-a' GROUP BY 1, 2 ORDER BY 1, 2"),
                         [[d, str(s), str(v)] for (d, s), v in sorted(tickets.items())])

    def test_4_handpays_disputes_resettlements_tilts(self):
        handpays = []
        for i, (seq, at, kind, rnd, station, body) in enumerate(self.bodies):
            if kind == "handpay.pending":
                reset = next((b for b in self.bodies[i + 1:] if b[2] == "handpay.reset" and b[4] == station), None)
                handpays.append([str(seq), str(station), body["kind"], str(body["amount"]),
                                 "" if reset is None else str(reset[0]), "" if reset is None else reset[5]["by"]])
        self.assertEqual(self.query("SELECT seq, station, handpay_kind, amount, coalesce(reset_seq::text, ''), "
                                    "coalesce(reset_by, '') FROM floor.handpays WHERE table_name = 'table-a' "
                                    "ORDER BY seq"), handpays)
        self.assertTrue(any(h[4] == "" for h in handpays) and any(h[4] != "" for h in handpays))
        disputes = []
        for i, (seq, at, kind, rnd, station, body) in enumerate(self.bodies):
            if kind == "dispute.raised":
                r = next((b for b in self.bodies[i + 1:]
                          if b[2] == "dispute.resolved" and b[3] == rnd and b[4] == station), None)
                disputes.append([str(rnd), str(station), body["text"], "" if r is None else r[5]["decision"]])
        self.assertEqual(self.query("SELECT round_id, station, text, coalesce(decision, '') FROM floor.disputes "
                                    "WHERE table_name = 'table-b' ORDER BY seq"), disputes)
        self.assertEqual(len(disputes), 3)
        self.assertEqual(self.query("SELECT round_id, previous_winner, winner FROM floor.resettlements "
                                    "WHERE table_name = 'table-a' ORDER BY seq"),
                         [[str(b[3]), b[5]["previous_outcome"]["winner"], b[5]["outcome"]["winner"]]
                          for b in self.of_kind("round.resettled")])
        tilts = []
        for i, (seq, at, kind, rnd, station, body) in enumerate(self.bodies):
            if kind == "tilt.raised":
                ended, cleared = "", ""
                for b in self.bodies[i + 1:]:
                    if b[2] == "daemon.started":  # a start-up begins untilted
                        ended = "restart"
                        break
                    if b[2] == "tilt.cleared" and b[5]["cause"] == body["cause"]:
                        ended, cleared = "cleared", str(b[0])
                        break
                tilts.append([body["cause"], ended, cleared])
        self.assertEqual(self.query("SELECT cause, coalesce(ended, ''), coalesce(cleared_seq::text, '') FROM "
                                    "floor.tilts WHERE table_name = 'table-a' ORDER BY seq"), tilts)
        self.assertEqual([t[1] for t in tilts], ["cleared", "cleared"])

    def test_5_gaming_days_in_the_casinos_time_zone(self):
        # 06:00 in Los Angeles on 2026-11-18 is 14:00 UTC (PST, UTC-8): a millisecond before it is
        # still the 17th's gaming day. In July (PDT, UTC-7) the day starts at 13:00 UTC.
        for utc, day in (("2026-11-18T13:59:59.999", "2026-11-17"), ("2026-11-18T14:00:00", "2026-11-18"),
                         ("2026-07-04T12:59:59", "2026-07-03"), ("2026-07-04T13:00:00", "2026-07-04")):
            ms = int(datetime.datetime.fromisoformat(utc + "+00:00").timestamp() * 1000)
            self.assertEqual(self.pg.psql(f"SELECT floor.gaming_day({ms})", user="inspector"), day, utc)
        # Each reason's money per gaming day, as Python's zoneinfo places the credits.
        zone = zoneinfo.ZoneInfo("America/Los_Angeles")
        days = collections.Counter()
        for seq, at, kind, rnd, station, body in self.bodies:
            if kind == "credit":
                local = datetime.datetime.fromtimestamp(at / 1000, tz=zone) - datetime.timedelta(hours=6)
                days[(local.date().isoformat(), body["reason"])] += body["amount"]
        self.assertEqual(self.query("SELECT gaming_day, reason, net FROM floor.daily_movements "
                                    "WHERE table_name = 'table-a' ORDER BY 1, 2"),
                         [[d, r, str(v)] for (d, r), v in sorted(days.items())])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
