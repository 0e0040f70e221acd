-- The floor's journal on PostgreSQL 15 (issue 37; schema/floor/README.md): every table's
-- records, keyed by (table, journal, seq), as the controllers wrote them, append-only, with their
-- chain checkable in the database. Applied once, in one transaction, by a DBA
-- (`psql -X -v ON_ERROR_STOP=1 --single-transaction -f 0001_floor.sql`); forward-only: a later
-- file requires the version before it.

DO $$
BEGIN
    -- Bodies are hashed as the exact UTF-8 bytes the controller wrote: only a UTF8 database
    -- keeps text byte for byte.
    IF current_setting('server_encoding') <> 'UTF8' THEN
        RAISE EXCEPTION 'the floor schema needs a UTF8 database (this one is %)', current_setting('server_encoding');
    END IF;
    -- Roles are the cluster's: created once, kept by a second database.
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pitlink_floor_shipper') THEN
        CREATE ROLE pitlink_floor_shipper NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pitlink_floor_inspector') THEN
        CREATE ROLE pitlink_floor_inspector NOLOGIN;
    END IF;
END $$;

CREATE SCHEMA floor;  -- fails when present: this file runs once
CREATE EXTENSION IF NOT EXISTS pgcrypto WITH SCHEMA public;
DO $$
BEGIN
    -- verify_chain finds digest() and hmac() in public.
    IF (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
         WHERE e.extname = 'pgcrypto') <> 'public' THEN
        RAISE EXCEPTION 'pgcrypto is installed in another schema than public';
    END IF;
END $$;

CREATE TABLE floor.schema_version (
    version int PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    applied_by name NOT NULL DEFAULT current_user
);

-- Which login role ships which table's journal: the DBA's map (one table per role; a table may
-- have several roles, e.g. a replacement controller's).
CREATE TABLE floor.shippers (
    role_name name PRIMARY KEY,
    table_name text NOT NULL CHECK (table_name <> '')
);

-- Each journal of each table: its identity (the controller's journal_info) and its head, the
-- last record the server holds. A replacement controller's new journal is another row beside
-- the old one. The head makes appends gapless and in order (floor.record_appended), which keeps
-- (table, journal, seq) unique across the monthly partitions.
CREATE TABLE floor.journals (
    table_name text NOT NULL,
    journal_id bigint NOT NULL,  -- journal_info's created_at_ms
    chain text NOT NULL CHECK (chain IN ('sha256', 'hmac-sha256')),
    key_fingerprint text NOT NULL  -- SHA-256 hex of the HMAC key; '' for sha256
        CHECK ((chain = 'sha256' AND key_fingerprint = '')
               OR (chain = 'hmac-sha256' AND key_fingerprint ~ '^[0-9a-f]{64}$')),
    last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    last_hash bytea NOT NULL DEFAULT '\x0000000000000000000000000000000000000000000000000000000000000000'
        CHECK (length(last_hash) = 32),
    last_at_ms bigint,
    registered_at timestamptz NOT NULL DEFAULT now(),
    registered_by name NOT NULL DEFAULT session_user,
    PRIMARY KEY (table_name, journal_id)
);

-- The records, as schema/README.md "Hash chain" hashes them: `body` is the exact canonical text
-- (hashed); `body_json` is for queries only (jsonb reorders keys and cannot hold \u0000: NULL
-- then). Partitioned by UTC month of at_ms; at_ms is in the key because a partitioned table's
-- key must hold the partition column.
CREATE FUNCTION floor.body_jsonb(t text) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN strpos(t, E'\\u0000') > 0 THEN NULL ELSE t::jsonb END $$;

CREATE TABLE floor.record (
    table_name text NOT NULL,
    journal_id bigint NOT NULL,
    seq bigint NOT NULL CHECK (seq >= 1),
    at_ms bigint NOT NULL,
    kind text NOT NULL,
    round_id bigint,
    station bigint,
    body text NOT NULL,
    body_json jsonb GENERATED ALWAYS AS (floor.body_jsonb(body)) STORED,
    hash bytea NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (table_name, journal_id, seq, at_ms)
) PARTITION BY RANGE (at_ms);
CREATE TABLE floor.record_default PARTITION OF floor.record DEFAULT;

-- Append-only: no row changes or goes, on the parent or on any partition (PostgreSQL clones a
-- parent's row triggers to every partition, now and later); TRUNCATE is refused per table.
CREATE FUNCTION floor.refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'floor.%: records are append-only (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER record_append_only BEFORE UPDATE OR DELETE ON floor.record
    FOR EACH ROW EXECUTE FUNCTION floor.refuse_change();
CREATE TRIGGER record_no_truncate BEFORE TRUNCATE ON floor.record
    FOR EACH STATEMENT EXECUTE FUNCTION floor.refuse_change();
CREATE TRIGGER record_no_truncate BEFORE TRUNCATE ON floor.record_default
    FOR EACH STATEMENT EXECUTE FUNCTION floor.refuse_change();

-- Every insert statement: per journal, the new records must be exactly the next ones after the
-- head (no gap, no repeat, in any month), and the head moves to the last of them. Two writers
-- of one journal serialise on the head's row: the second finds it moved and fails.
CREATE FUNCTION floor.record_appended() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
    AS $$
DECLARE
    j record;
    head floor.journals%ROWTYPE;
    tail record;
BEGIN
    FOR j IN SELECT table_name, journal_id, min(seq) AS lo, max(seq) AS hi, count(*) AS n,
                    count(DISTINCT seq) AS distinct_n
               FROM new_rows GROUP BY table_name, journal_id ORDER BY table_name, journal_id LOOP
        SELECT * INTO head FROM floor.journals
         WHERE table_name = j.table_name AND journal_id = j.journal_id FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'journal % of table % is not registered (floor.register_journal)', j.journal_id,
                j.table_name USING ERRCODE = 'PF002';
        END IF;
        IF j.lo <> head.last_seq + 1 OR j.hi - j.lo + 1 <> j.n OR j.n <> j.distinct_n THEN
            RAISE EXCEPTION 'table % journal %: records % to % are not the next ones (the server holds up to %)',
                j.table_name, j.journal_id, j.lo, j.hi, head.last_seq USING ERRCODE = 'PF001';
        END IF;
        SELECT seq, hash, at_ms INTO tail FROM new_rows
         WHERE table_name = j.table_name AND journal_id = j.journal_id AND seq = j.hi;
        UPDATE floor.journals SET last_seq = tail.seq, last_hash = tail.hash, last_at_ms = tail.at_ms
         WHERE table_name = j.table_name AND journal_id = j.journal_id;
    END LOOP;
    RETURN NULL;
END $$;
CREATE TRIGGER record_appended AFTER INSERT ON floor.record
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION floor.record_appended();

-- A journal's identity never changes and its head only moves on.
CREATE FUNCTION floor.journal_moves_on() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' OR NEW.table_name <> OLD.table_name OR NEW.journal_id <> OLD.journal_id
       OR NEW.chain <> OLD.chain OR NEW.key_fingerprint <> OLD.key_fingerprint
       OR NEW.registered_at <> OLD.registered_at OR NEW.registered_by <> OLD.registered_by
       OR NEW.last_seq <= OLD.last_seq THEN
        RAISE EXCEPTION 'floor.journals: a journal''s identity is fixed and its head only moves on (% refused)', TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER journals_move_on BEFORE UPDATE OR DELETE ON floor.journals
    FOR EACH ROW EXECUTE FUNCTION floor.journal_moves_on();
CREATE TRIGGER journals_no_truncate BEFORE TRUNCATE ON floor.journals
    FOR EACH STATEMENT EXECUTE FUNCTION floor.refuse_change();

-- The shipper's start: its journal registered (once; again with the same identity it is the
-- same row), the row returned with its head. Only for a table the calling role ships.
CREATE FUNCTION floor.register_journal(p_table text, p_journal bigint, p_chain text, p_key_fingerprint text)
    RETURNS floor.journals
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
    AS $$
DECLARE
    j floor.journals%ROWTYPE;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM floor.shippers WHERE role_name = session_user AND table_name = p_table) THEN
        RAISE EXCEPTION 'role % does not ship table % (floor.shippers)', session_user, p_table
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO floor.journals (table_name, journal_id, chain, key_fingerprint)
    VALUES (p_table, p_journal, p_chain, p_key_fingerprint) ON CONFLICT DO NOTHING;
    SELECT * INTO j FROM floor.journals WHERE table_name = p_table AND journal_id = p_journal;
    IF j.chain <> p_chain OR j.key_fingerprint <> p_key_fingerprint THEN
        RAISE EXCEPTION 'table % journal % is registered with chain % key %, not % %', p_table, p_journal, j.chain,
            j.key_fingerprint, p_chain, p_key_fingerprint USING ERRCODE = 'PF003';
    END IF;
    RETURN j;
END $$;

-- The UTC months from..to (epoch ms) as partitions, those missing: a month whose records already
-- went to the default partition stays there (attaching it would fail), with a notice.
CREATE FUNCTION floor.ensure_partitions(p_from_ms bigint, p_to_ms bigint) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog SET TimeZone = 'UTC'  -- months of UTC
    AS $$
DECLARE
    month timestamptz := date_trunc('month', to_timestamp(p_from_ms / 1000.0) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    last_month timestamptz := date_trunc('month', to_timestamp(p_to_ms / 1000.0) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    name text;
    lo bigint;
    hi bigint;
    made int := 0;
BEGIN
    IF p_to_ms < p_from_ms OR p_to_ms - p_from_ms > 31622400000::bigint * 5 THEN
        RAISE EXCEPTION 'ensure_partitions: % to % is not a range of at most five years', p_from_ms, p_to_ms;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('floor.ensure_partitions'));  -- one shipper at a time
    WHILE month <= last_month LOOP
        name := 'record_' || to_char(month AT TIME ZONE 'UTC', 'YYYY"m"MM');
        lo := (extract(epoch FROM month) * 1000)::bigint;
        hi := (extract(epoch FROM month + interval '1 month') * 1000)::bigint;
        IF to_regclass('floor.' || name) IS NULL THEN
            IF EXISTS (SELECT 1 FROM floor.record_default WHERE at_ms >= lo AND at_ms < hi) THEN
                RAISE NOTICE 'floor.%: records of that month are already in floor.record_default: they stay there', name;
            ELSE
                BEGIN
                    EXECUTE format('CREATE TABLE floor.%I PARTITION OF floor.record FOR VALUES FROM (%s) TO (%s)',
                                   name, lo, hi);
                    EXECUTE format('CREATE TRIGGER record_no_truncate BEFORE TRUNCATE ON floor.%I '
                                   'FOR EACH STATEMENT EXECUTE FUNCTION floor.refuse_change()', name);
                    made := made + 1;
                EXCEPTION WHEN duplicate_table THEN
                    NULL;  -- made meanwhile by a transaction that did not take the lock
                END;
            END IF;
        END IF;
        month := month + interval '1 month';
    END LOOP;
    RETURN made;
END $$;

-- An inspector's check of a journal's chain where the records are (schema/README.md "Hash
-- chain"): link n = SHA-256(link n-1 || canonical n), or HMAC-SHA-256 with the journal's key
-- (passed with the call, never stored: mind log_statement), link 0 = 32 zero bytes, canonical =
-- seq TAB at_ms TAB kind TAB round_id TAB station TAB body (NULL as ''), UTF-8; the records
-- must end at the journal's head. The first problem, or ok with the number of records checked.
-- Runs with the caller's rights: a shipper sees only its own table.
CREATE FUNCTION floor.verify_chain(p_table text, p_journal bigint, p_key bytea DEFAULT NULL)
    RETURNS TABLE (ok boolean, checked bigint, first_bad_seq bigint, problem text)
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public
    AS $$
DECLARE
    j floor.journals%ROWTYPE;
    r record;
    prev bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
    expected bigint := 1;
    link bytea;
BEGIN
    ok := false;
    checked := 0;
    SELECT * INTO j FROM floor.journals WHERE table_name = p_table AND journal_id = p_journal;
    IF NOT FOUND THEN
        problem := 'no such journal';
        RETURN NEXT;
        RETURN;
    END IF;
    IF (j.chain = 'hmac-sha256') <> (p_key IS NOT NULL) THEN
        problem := CASE WHEN p_key IS NULL THEN 'HMAC-chained: pass its key' ELSE 'sha256-chained: no key' END;
        RETURN NEXT;
        RETURN;
    END IF;
    IF p_key IS NOT NULL AND encode(digest(p_key, 'sha256'), 'hex') <> j.key_fingerprint THEN
        problem := 'not this journal''s key';
        RETURN NEXT;
        RETURN;
    END IF;
    FOR r IN SELECT seq, at_ms, kind, round_id, station, body, hash FROM floor.record
              WHERE table_name = p_table AND journal_id = p_journal ORDER BY seq LOOP
        IF r.seq <> expected THEN
            first_bad_seq := expected;
            problem := format('record %s is missing (next found: %s)', expected, r.seq);
            RETURN NEXT;
            RETURN;
        END IF;
        link := prev || convert_to(r.seq::text || E'\t' || r.at_ms::text || E'\t' || r.kind || E'\t' ||
                                   coalesce(r.round_id::text, '') || E'\t' || coalesce(r.station::text, '') || E'\t' ||
                                   r.body, 'UTF8');
        link := CASE WHEN p_key IS NULL THEN digest(link, 'sha256') ELSE hmac(link, p_key, 'sha256') END;
        IF link <> r.hash THEN
            first_bad_seq := r.seq;
            problem := format('record %s (%s) does not match its chain link: edited, or signed with another key',
                              r.seq, r.kind);
            RETURN NEXT;
            RETURN;
        END IF;
        prev := r.hash;
        expected := expected + 1;
        checked := checked + 1;
    END LOOP;
    -- The records end where the journal's head says: none cut off the end.
    IF expected - 1 <> j.last_seq OR prev <> j.last_hash THEN
        first_bad_seq := expected;
        problem := format('the records end at %s, the journal''s head is at %s', expected - 1, j.last_seq);
        RETURN NEXT;
        RETURN;
    END IF;
    ok := true;
    RETURN NEXT;
END $$;

-- Rights. Shippers insert and read their own table's records only (row-level security on the
-- login role, session_user, as register_journal checks it: SET ROLE gives no other table; the
-- owner, who applies the migrations, is not subject to it). PostgreSQL 15 refuses COPY FROM into
-- a table with row-level security: a shipper copies into a temporary table and inserts from it.
REVOKE ALL ON ALL TABLES IN SCHEMA floor FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA floor FROM PUBLIC;
GRANT USAGE ON SCHEMA floor TO pitlink_floor_shipper, pitlink_floor_inspector;
GRANT SELECT, INSERT ON floor.record TO pitlink_floor_shipper;
GRANT SELECT ON floor.journals, floor.shippers, floor.schema_version TO pitlink_floor_shipper;
GRANT EXECUTE ON FUNCTION floor.register_journal(text, bigint, text, text), floor.ensure_partitions(bigint, bigint),
    floor.body_jsonb(text), floor.verify_chain(text, bigint, bytea) TO pitlink_floor_shipper;
GRANT SELECT ON ALL TABLES IN SCHEMA floor TO pitlink_floor_inspector;
GRANT EXECUTE ON FUNCTION floor.verify_chain(text, bigint, bytea), floor.body_jsonb(text) TO pitlink_floor_inspector;

ALTER TABLE floor.record ENABLE ROW LEVEL SECURITY;
CREATE POLICY shipper_inserts_own_table ON floor.record FOR INSERT TO pitlink_floor_shipper
    WITH CHECK (table_name IN (SELECT s.table_name FROM floor.shippers s WHERE s.role_name = session_user));
CREATE POLICY shipper_reads_own_table ON floor.record FOR SELECT TO pitlink_floor_shipper
    USING (table_name IN (SELECT s.table_name FROM floor.shippers s WHERE s.role_name = session_user));
CREATE POLICY inspector_reads ON floor.record FOR SELECT TO pitlink_floor_inspector USING (true);
ALTER TABLE floor.journals ENABLE ROW LEVEL SECURITY;
CREATE POLICY shipper_reads_own_journals ON floor.journals FOR SELECT TO pitlink_floor_shipper
    USING (table_name IN (SELECT s.table_name FROM floor.shippers s WHERE s.role_name = session_user));
CREATE POLICY inspector_reads ON floor.journals FOR SELECT TO pitlink_floor_inspector USING (true);

INSERT INTO floor.schema_version (version, name) VALUES (1, '0001_floor.sql');
