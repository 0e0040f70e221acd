-- The floor schema, version 2 (issue 37; schema/floor/README.md "Views"): the floor's views over
-- every table's journals, read from body_json (the body's jsonb), keyed by table and journal, with
-- the gaming day each row falls in (its start and time zone in floor.gaming_day_settings). Unlike
-- a controller's per-segment views, these see a journal whole. Indexes for them. Views and one
-- settings row only: no record changes.

DO $$
BEGIN
    IF (SELECT max(version) FROM floor.schema_version) <> 1 THEN
        RAISE EXCEPTION 'floor schema 2 follows version 1 (this database is at %)',
            (SELECT max(version) FROM floor.schema_version);
    END IF;
END $$;

-- Rows of one round, of one kind, of one station: the views' lookups (built on every partition).
CREATE INDEX record_round ON floor.record (table_name, journal_id, round_id) WHERE round_id IS NOT NULL;
CREATE INDEX record_kind ON floor.record (kind, table_name, journal_id, seq);

-- The casino's gaming day: it starts at `starts_at` local time in `time_zone` (an IANA name); a
-- record before that time belongs to the day before. One row; the DBA sets it.
CREATE TABLE floor.gaming_day_settings (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    time_zone text NOT NULL DEFAULT 'UTC' CHECK (now() AT TIME ZONE time_zone IS NOT NULL),
    starts_at interval NOT NULL DEFAULT '06:00' CHECK (starts_at >= '0' AND starts_at < '24:00')
);
INSERT INTO floor.gaming_day_settings DEFAULT VALUES;

CREATE FUNCTION floor.gaming_day(p_at_ms bigint) RETURNS date
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT ((to_timestamp(p_at_ms / 1000.0) AT TIME ZONE s.time_zone) - s.starts_at)::date
      FROM floor.gaming_day_settings s
$$;

CREATE FUNCTION floor.at_utc(p_at_ms bigint) RETURNS timestamp
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT to_timestamp(p_at_ms / 1000.0) AT TIME ZONE 'UTC' $$;

-- Every record with its UTC time, gaming day and game (NULL where the record names none).
CREATE VIEW floor.events WITH (security_invoker = true) AS
SELECT table_name, journal_id, seq, floor.at_utc(at_ms) AS at_utc, floor.gaming_day(at_ms) AS gaming_day,
       kind, round_id, station, body_json ->> 'game' AS game, body_json
  FROM floor.record;

-- One row per round of every table: its game, shoe, when it opened, how it ended (the last
-- round.settled or round.voided), its cards and winner as last settled (a re-settlement's
-- correction included), and how many times it was re-settled.
CREATE VIEW floor.rounds WITH (security_invoker = true) AS
SELECT o.table_name, o.journal_id, o.round_id,
       o.body_json ->> 'game' AS game,
       (o.body_json ->> 'shoe')::bigint AS shoe,
       (o.body_json ->> 'round_in_shoe')::int AS round_in_shoe,
       floor.at_utc(o.at_ms) AS opened_utc,
       floor.gaming_day(o.at_ms) AS gaming_day,
       o.body_json ->> 'paytable' AS paytable,
       e.kind AS ended,
       s.body_json -> 'player' AS player_cards,
       s.body_json -> 'banker' AS banker_cards,
       s.body_json #>> '{outcome,winner}' AS winner,
       (SELECT count(*) FROM floor.record r
         WHERE r.table_name = o.table_name AND r.journal_id = o.journal_id AND r.round_id = o.round_id
           AND r.kind = 'round.resettled') AS resettlements
  FROM floor.record o
  LEFT JOIN LATERAL (
        SELECT r.kind FROM floor.record r
         WHERE r.table_name = o.table_name AND r.journal_id = o.journal_id AND r.round_id = o.round_id
           AND r.kind IN ('round.settled', 'round.voided')
         ORDER BY r.seq DESC LIMIT 1) e ON true
  LEFT JOIN LATERAL (
        SELECT r.body_json FROM floor.record r
         WHERE r.table_name = o.table_name AND r.journal_id = o.journal_id AND r.round_id = o.round_id
           AND r.kind IN ('round.settled', 'round.resettled')
         ORDER BY r.seq DESC LIMIT 1) s ON true
 WHERE o.kind = 'round.opened';

-- Every credit movement of every station of every table, with the balance after it, its parts
-- by credit type (cashable = amount - restricted - nonrestricted), a legacy bonus's tax status
-- and an AFT transfer's ID (ref "aft <ID>").
CREATE VIEW floor.station_statement WITH (security_invoker = true) AS
SELECT table_name, journal_id, seq, floor.at_utc(at_ms) AS at_utc, floor.gaming_day(at_ms) AS gaming_day,
       station, round_id,
       body_json ->> 'reason' AS reason,
       (body_json ->> 'amount')::bigint AS amount,
       (body_json ->> 'balance')::bigint AS balance,
       body_json ->> 'ref' AS ref,
       body_json ->> 'game' AS game,
       (body_json ->> 'amount')::bigint - coalesce((body_json ->> 'restricted')::bigint, 0)
           - coalesce((body_json ->> 'nonrestricted')::bigint, 0) AS cashable,
       coalesce((body_json ->> 'restricted')::bigint, 0) AS restricted,
       coalesce((body_json ->> 'nonrestricted')::bigint, 0) AS nonrestricted,
       body_json ->> 'tax_status' AS tax_status,
       CASE WHEN left(body_json ->> 'ref', 4) = 'aft ' THEN substr(body_json ->> 'ref', 5) END AS transfer_id
  FROM floor.record
 WHERE kind = 'credit';

-- Per table and gaming day, each reason's money: how many movements, their sum (signed as the
-- credit meter moves: bets negative, wins positive), and what went in and out.
CREATE VIEW floor.daily_movements WITH (security_invoker = true) AS
SELECT table_name, gaming_day, reason, count(*) AS movements, sum(amount) AS net,
       sum(greatest(amount, 0)) AS credited, -sum(least(amount, 0)) AS debited
  FROM floor.station_statement
 GROUP BY table_name, gaming_day, reason;

-- Tips to the dealer.
CREATE VIEW floor.tips WITH (security_invoker = true) AS
SELECT table_name, journal_id, seq, floor.at_utc(at_ms) AS at_utc, floor.gaming_day(at_ms) AS gaming_day,
       station, (body_json ->> 'amount')::bigint AS amount, body_json ->> 'game' AS game
  FROM floor.record
 WHERE kind = 'tip';

-- Hand-pays: each one pending, with the attendant's reset that paid it (the station's next
-- handpay.reset; NULL while it is pending).
CREATE VIEW floor.handpays WITH (security_invoker = true) AS
SELECT p.table_name, p.journal_id, p.seq, floor.at_utc(p.at_ms) AS at_utc, floor.gaming_day(p.at_ms) AS gaming_day,
       p.station, p.round_id,
       p.body_json ->> 'kind' AS handpay_kind,
       (p.body_json ->> 'amount')::bigint AS amount,
       p.body_json ->> 'why' AS why,
       r.seq AS reset_seq, floor.at_utc(r.at_ms) AS reset_utc, r.body_json ->> 'by' AS reset_by
  FROM floor.record p
  LEFT JOIN LATERAL (
        SELECT x.seq, x.at_ms, x.body_json FROM floor.record x
         WHERE x.table_name = p.table_name AND x.journal_id = p.journal_id AND x.kind = 'handpay.reset'
           AND x.station = p.station AND x.seq > p.seq
         ORDER BY x.seq LIMIT 1) r ON true
 WHERE p.kind = 'handpay.pending';

-- Tickets printed at a station (`out`) and inserted (`in`).
CREATE VIEW floor.tickets WITH (security_invoker = true) AS
SELECT table_name, journal_id, seq, floor.at_utc(at_ms) AS at_utc, floor.gaming_day(at_ms) AS gaming_day,
       station,
       CASE kind WHEN 'ticket.issued' THEN 'out' ELSE 'in' END AS direction,
       body_json ->> 'validation' AS validation,
       (body_json ->> 'amount')::bigint AS amount
  FROM floor.record
 WHERE kind IN ('ticket.issued', 'ticket.redeemed');

-- Disputes: each raised, with its resolution (the next dispute.resolved of the same round and
-- station; NULL while open).
CREATE VIEW floor.disputes WITH (security_invoker = true) AS
SELECT d.table_name, d.journal_id, d.seq, floor.at_utc(d.at_ms) AS at_utc, floor.gaming_day(d.at_ms) AS gaming_day,
       d.round_id, d.station, d.body_json ->> 'text' AS text, (d.body_json ->> 'held')::boolean AS held,
       r.seq AS resolved_seq, r.body_json ->> 'decision' AS decision, r.body_json ->> 'by' AS resolved_by,
       r.body_json ->> 'reason' AS reason, (r.body_json ->> 'resettled')::boolean AS resettled
  FROM floor.record d
  LEFT JOIN LATERAL (
        SELECT x.seq, x.body_json FROM floor.record x
         WHERE x.table_name = d.table_name AND x.journal_id = d.journal_id AND x.kind = 'dispute.resolved'
           AND x.round_id = d.round_id AND x.station = d.station AND x.seq > d.seq
         ORDER BY x.seq LIMIT 1) r ON true
 WHERE d.kind = 'dispute.raised';

-- Re-settlements: the round, who and why, the winner before and after.
CREATE VIEW floor.resettlements WITH (security_invoker = true) AS
SELECT table_name, journal_id, seq, floor.at_utc(at_ms) AS at_utc, floor.gaming_day(at_ms) AS gaming_day,
       round_id, body_json ->> 'game' AS game, body_json ->> 'operator' AS operator,
       body_json ->> 'reason' AS reason,
       body_json #>> '{previous_outcome,winner}' AS previous_winner,
       body_json #>> '{outcome,winner}' AS winner
  FROM floor.record
 WHERE kind = 'round.resettled';

-- Tilts: each raised, with how it ended: `cleared` by the next clear of the same cause, or
-- `restart` (a tilt is the running table's: a start-up, daemon.started, begins without it);
-- NULL while the table is tilted.
CREATE VIEW floor.tilts WITH (security_invoker = true) AS
SELECT t.table_name, t.journal_id, t.seq, floor.at_utc(t.at_ms) AS at_utc, floor.gaming_day(t.at_ms) AS gaming_day,
       t.body_json ->> 'cause' AS cause, t.body_json ->> 'message' AS message,
       CASE WHEN c.seq IS NOT NULL THEN 'cleared' WHEN s.seq IS NOT NULL THEN 'restart' END AS ended,
       c.seq AS cleared_seq, floor.at_utc(c.at_ms) AS cleared_utc, c.body_json ->> 'by' AS cleared_by
  FROM floor.record t
  LEFT JOIN LATERAL (
        SELECT min(x.seq) AS seq FROM floor.record x
         WHERE x.table_name = t.table_name AND x.journal_id = t.journal_id AND x.kind = 'daemon.started'
           AND x.seq > t.seq) s ON true
  LEFT JOIN LATERAL (
        SELECT x.seq, x.at_ms, x.body_json FROM floor.record x
         WHERE x.table_name = t.table_name AND x.journal_id = t.journal_id AND x.kind = 'tilt.cleared'
           AND x.body_json ->> 'cause' = t.body_json ->> 'cause' AND x.seq > t.seq
           AND (s.seq IS NULL OR x.seq < s.seq)
         ORDER BY x.seq LIMIT 1) c ON true
 WHERE t.kind = 'tilt.raised';

-- The views run with the caller's rights (security_invoker), so row-level security applies
-- through them: a shipper would see its own table's rows only. They are the inspector's.
GRANT SELECT ON floor.events, floor.rounds, floor.station_statement, floor.daily_movements, floor.tips,
    floor.handpays, floor.tickets, floor.disputes, floor.resettlements, floor.tilts, floor.gaming_day_settings
    TO pitlink_floor_inspector;
GRANT EXECUTE ON FUNCTION floor.gaming_day(bigint), floor.at_utc(bigint) TO pitlink_floor_inspector;

INSERT INTO floor.schema_version (version, name) VALUES (2, '0002_floor_views.sql');
