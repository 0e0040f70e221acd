-- pitlink journal, schema version 1: the append-only, hash-chained record of the table.
-- Every fact of the table is one row of `record`; see schema/README.md for every kind.

-- What the journal is: when it was created, how its chain is computed, which key (fingerprint
-- only) signs it. Written once when the journal is created.
CREATE TABLE journal_info (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE record (
    seq      INTEGER PRIMARY KEY CHECK (seq >= 1),  -- 1, 2, 3, ... without gaps: the chain order
    at_ms    INTEGER NOT NULL,                      -- journal clock, UTC milliseconds since 1970
    kind     TEXT NOT NULL,                         -- what the record says: 'round.opened', 'credit', ...
    round_id INTEGER,                               -- the round it belongs to, if any
    station  INTEGER,                               -- the player station it belongs to, if any
    body     TEXT NOT NULL CHECK (json_valid(body)),-- the facts: canonical JSON (sorted keys, no spaces)
    hash     BLOB NOT NULL CHECK (length(hash) = 32)-- chain link: SHA-256 or HMAC-SHA-256 (README)
);
-- Indexes are few and partial on purpose: every index leaf a commit touches is another page
-- written and synced before the table can acknowledge (tests/bench/RESULTS.md).
CREATE INDEX record_by_round     ON record(round_id, seq) WHERE round_id IS NOT NULL;
CREATE INDEX record_station_bets ON record(station, round_id) WHERE kind = 'bet.accepted';
CREATE INDEX record_rounds       ON record(seq) WHERE kind = 'round.opened';
CREATE INDEX record_snapshots    ON record(seq) WHERE kind = 'meters.snapshot';
CREATE INDEX record_paytables    ON record(seq) WHERE kind = 'paytable.loaded';
CREATE INDEX record_shoes        ON record(seq) WHERE kind = 'shoe.started';

-- Append-only: nothing recorded is ever changed or removed. (Someone who drops these triggers
-- still cannot edit a record unnoticed: the hash chain breaks at the edited record.)
CREATE TRIGGER record_is_append_only_update BEFORE UPDATE ON record
BEGIN SELECT RAISE(ABORT, 'journal records are append-only: UPDATE refused'); END;
CREATE TRIGGER record_is_append_only_delete BEFORE DELETE ON record
BEGIN SELECT RAISE(ABORT, 'journal records are append-only: DELETE refused'); END;
CREATE TRIGGER journal_info_is_write_once_update BEFORE UPDATE ON journal_info
BEGIN SELECT RAISE(ABORT, 'journal_info is write-once: UPDATE refused'); END;
CREATE TRIGGER journal_info_is_write_once_delete BEFORE DELETE ON journal_info
BEGIN SELECT RAISE(ABORT, 'journal_info is write-once: DELETE refused'); END;
