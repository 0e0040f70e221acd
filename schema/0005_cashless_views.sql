-- pitlink journal, schema version 5: the inspector views show cashless transfers and credit types
-- (issue 36; schema/README.md "Credit types", `aft.transfer`, `aft.acknowledged`). station_statement
-- keeps its columns and order and gains, after `game`, each movement's parts by credit type with
-- the station's promotional balances, a legacy bonus's tax status and an AFT transfer's ID; new
-- views aft_transfers (one row per transfer) and legacy_bonuses. Views only: no stored data changes.
-- Each view reads the one file it is in: a segment's rows are that segment's records.
DROP VIEW station_statement;

-- Every credit movement of every station across its games, with the balance after it (as schema
-- 4's), then its parts by credit type: `cashable` (amount - restricted - nonrestricted),
-- `restricted` and `nonrestricted` (the credit's, 0 where absent: every credit before issue 36),
-- signed like `amount`; `restricted_balance` and `nonrestricted_balance`, the station's
-- promotional credits after it (of `balance`; the rest is cashable); `tax_status` (a legacy
-- bonus's); `transfer_id` (the transaction ID of the AFT transfer a credit belongs to, whose `ref`
-- is "aft <ID>": `transfer_in`, `bonus`, `transfer_out`; NULL for every other credit).
--
-- The promotional balances are the running sums of the parts in seq order, from the station's
-- promotional credits before the file's first credit. A segment after the first starts mid-life:
-- its opening meters.snapshot holds them (`promo`, absent while the station holds none); in any
-- file they are the first snapshot's less the parts of the credits before it (0 and 0 in a
-- journal's first segment, whose credits start from nothing), so that every segment's balances
-- are the station's as the ledger keeps them (an audited snapshot equals the records before it).
CREATE VIEW station_statement AS
WITH movement AS (
    SELECT seq, at_ms, station, round_id, body,
           coalesce(json_extract(body, '$.restricted'), 0)    AS restricted,
           coalesce(json_extract(body, '$.nonrestricted'), 0) AS nonrestricted
    FROM record
    WHERE kind = 'credit'
),
opening AS (
    SELECT CAST(st.key AS INTEGER) AS station,
           coalesce(json_extract(st.value, '$.promo.restricted'), 0)
             - coalesce((SELECT sum(json_extract(c.body, '$.restricted')) FROM record c
                          WHERE c.seq < s.seq AND c.kind = 'credit'
                            AND c.station = CAST(st.key AS INTEGER)), 0) AS restricted,
           coalesce(json_extract(st.value, '$.promo.nonrestricted'), 0)
             - coalesce((SELECT sum(json_extract(c.body, '$.nonrestricted')) FROM record c
                          WHERE c.seq < s.seq AND c.kind = 'credit'
                            AND c.station = CAST(st.key AS INTEGER)), 0) AS nonrestricted
    FROM record s, json_each(s.body, '$.stations') st
    WHERE s.seq = (SELECT min(seq) FROM record WHERE kind = 'meters.snapshot')
)
SELECT m.seq,
       strftime('%Y-%m-%d %H:%M:%f', m.at_ms / 1000.0, 'unixepoch') AS at_utc,
       m.station, m.round_id,
       json_extract(m.body, '$.reason')  AS reason,
       json_extract(m.body, '$.amount')  AS amount,
       json_extract(m.body, '$.balance') AS balance,
       json_extract(m.body, '$.ref')     AS ref,
       json_extract(m.body, '$.game')    AS game,
       json_extract(m.body, '$.amount') - m.restricted - m.nonrestricted AS cashable,
       m.restricted,
       m.nonrestricted,
       coalesce(o.restricted, 0) + sum(m.restricted) OVER per_station       AS restricted_balance,
       coalesce(o.nonrestricted, 0) + sum(m.nonrestricted) OVER per_station AS nonrestricted_balance,
       json_extract(m.body, '$.tax_status') AS tax_status,
       CASE WHEN substr(json_extract(m.body, '$.ref'), 1, 4) = 'aft '
            THEN substr(json_extract(m.body, '$.ref'), 5) END AS transfer_id
FROM movement m
LEFT JOIN opening o ON o.station = m.station
WINDOW per_station AS (PARTITION BY m.station ORDER BY m.seq ROWS UNBOUNDED PRECEDING)
ORDER BY m.seq;

-- One row per AFT transfer (LP 72) of each station: a request journaled pending (status 64) with
-- its end, the next aft.transfer of the same station and ID (a transaction ID may come back once
-- the transfer that used it was acknowledged: a later, distinct transfer); a refusal found at once
-- (one record: requested_seq = ended_seq); a request still pending (ended_seq NULL). The end of a
-- transfer that a segment's segment.carried holds pending (its request is in the segment before)
-- has requested_seq NULL.
--   type, type_name   LP 72's transfer type and its name (NULL: a type SAS does not define)
--   code              `full` or `partial` (LP 72 transfer code 00, 01)
--   status, outcome   SAS's status at its end (64 while pending) and what it means: `pending`,
--                     `full` (0), `partial` (1), `cut_by_restart` (159, 9F: the power went while it
--                     was pending; nothing moved), `refused` (any other: 128-158, nothing moved)
--   asked_*, moved_*  cents by credit type: what the host asked, what moved (NULL while pending)
--   acknowledged      1 when the host acknowledged it (an aft.acknowledged of its ID before the
--                     station's next transfer), 0 when not (yet); NULL for a refusal found at once,
--                     which the host has nothing to acknowledge of (no 69)
--   expires           the local date (YYYY-MM-DD) whose end the station's restricted credits
--                     expire at after a transfer in that moved some (NULL otherwise, or never)
--   credit_seq        the credit record that moved the money: the first credit of its end's
--                     transaction (the same at_ms) with ref "aft <ID>"; NULL when nothing moved
CREATE VIEW aft_transfers AS
WITH transfer AS (
    SELECT seq, station,
           json_extract(body, '$.id')     AS id,
           json_extract(body, '$.status') AS status
    FROM record
    WHERE kind = 'aft.transfer'
),
linked AS (
    SELECT seq, station, id, status,
           lag(status) OVER same_id  AS status_before,
           lead(seq) OVER same_id    AS next_seq,
           lead(status) OVER same_id AS next_status
    FROM transfer
    WINDOW same_id AS (PARTITION BY station, id ORDER BY seq)
),
carried AS (
    -- a segment after the first: its second record (schema/README.md "Segments")
    SELECT body FROM (SELECT kind, body FROM record ORDER BY seq LIMIT 2) WHERE kind = 'segment.carried'
),
one AS (
    SELECT station, id, seq AS requested_seq,
           CASE WHEN next_status <> 64 THEN next_seq END AS ended_seq
    FROM linked
    WHERE status = 64
    UNION ALL
    SELECT l.station, l.id,
           CASE WHEN l.status_before IS NULL AND EXISTS (
                    SELECT 1 FROM carried c
                     WHERE json_extract(c.body, '$.sas.aft."' || l.station || '".current.status') = 64
                       AND json_extract(c.body, '$.sas.aft."' || l.station || '".current.id') = l.id)
                THEN NULL ELSE l.seq END,
           l.seq
    FROM linked l
    WHERE l.status <> 64 AND (l.status_before IS NULL OR l.status_before <> 64)
),
acknowledgement AS (
    -- each aft.acknowledged with the station's last aft.transfer before it
    SELECT station, id, transfer_seq FROM (
        SELECT kind, station, json_extract(body, '$.id') AS id,
               max(CASE WHEN kind = 'aft.transfer' THEN seq END)
                   OVER (PARTITION BY station ORDER BY seq ROWS UNBOUNDED PRECEDING) AS transfer_seq
        FROM record
        WHERE kind IN ('aft.transfer', 'aft.acknowledged'))
    WHERE kind = 'aft.acknowledged'
),
aft_credit AS (
    SELECT seq, at_ms, station, substr(json_extract(body, '$.ref'), 5) AS id
    FROM record
    WHERE kind = 'credit' AND substr(json_extract(body, '$.ref'), 1, 4) = 'aft '
),
described AS (
    SELECT o.station, o.id, o.requested_seq, o.ended_seq,
           r.at_ms AS requested_ms, e.at_ms AS ended_ms,
           coalesce(e.body, r.body) AS body, e.body AS end_body
    FROM one o
    LEFT JOIN record r ON r.seq = o.requested_seq
    LEFT JOIN record e ON e.seq = o.ended_seq
)
SELECT d.station,
       d.id AS transfer_id,
       json_extract(d.body, '$.type') AS type,
       CASE json_extract(d.body, '$.type')
           WHEN 0 THEN 'in_house_to_station'
           WHEN 16 THEN 'bonus_coin_out'
           WHEN 17 THEN 'bonus_jackpot'
           WHEN 32 THEN 'in_house_to_ticket'
           WHEN 64 THEN 'debit_to_station'
           WHEN 96 THEN 'debit_to_ticket'
           WHEN 128 THEN 'in_house_to_host'
           WHEN 144 THEN 'win_to_host'
       END AS type_name,
       CASE json_extract(d.body, '$.code') WHEN 0 THEN 'full' WHEN 1 THEN 'partial' END AS code,
       json_extract(d.body, '$.status') AS status,
       CASE json_extract(d.body, '$.status')
           WHEN 64 THEN 'pending'
           WHEN 0 THEN 'full'
           WHEN 1 THEN 'partial'
           WHEN 159 THEN 'cut_by_restart'
           ELSE 'refused'
       END AS outcome,
       json_extract(d.body, '$.asked.cashable')          AS asked_cashable,
       json_extract(d.body, '$.asked.restricted')        AS asked_restricted,
       json_extract(d.body, '$.asked.nonrestricted')     AS asked_nonrestricted,
       json_extract(d.end_body, '$.moved.cashable')      AS moved_cashable,
       json_extract(d.end_body, '$.moved.restricted')    AS moved_restricted,
       json_extract(d.end_body, '$.moved.nonrestricted') AS moved_nonrestricted,
       json_extract(d.body, '$.pool')       AS pool,
       json_extract(d.body, '$.expiration') AS expiration,
       json_extract(d.end_body, '$.expires') AS expires,
       json_extract(d.body, '$.flags')      AS flags,
       d.requested_seq,
       strftime('%Y-%m-%d %H:%M:%f', d.requested_ms / 1000.0, 'unixepoch') AS requested_utc,
       d.ended_seq,
       strftime('%Y-%m-%d %H:%M:%f', d.ended_ms / 1000.0, 'unixepoch') AS ended_utc,
       json_extract(d.end_body, '$.at') AS ended_local,
       CASE WHEN d.ended_seq IS NULL THEN 0
            WHEN d.requested_seq = d.ended_seq THEN NULL
            ELSE EXISTS (SELECT 1 FROM acknowledgement a
                          WHERE a.station = d.station AND a.transfer_seq = d.ended_seq AND a.id = d.id)
       END AS acknowledged,
       (SELECT min(k.seq) FROM aft_credit k
         WHERE k.station = d.station AND k.id = d.id AND k.at_ms = d.ended_ms AND k.seq > d.ended_seq) AS credit_seq
FROM described d
ORDER BY coalesce(d.requested_seq, d.ended_seq);

-- Legacy bonuses (SAS LP 8A) the host awarded, one row per `legacy_bonus` credit: cashable, with
-- its tax status (`deductible`, `non_deductible`, `wager_match`).
CREATE VIEW legacy_bonuses AS
SELECT station, seq,
       strftime('%Y-%m-%d %H:%M:%f', at_ms / 1000.0, 'unixepoch') AS at_utc,
       json_extract(body, '$.amount')     AS amount,
       json_extract(body, '$.tax_status') AS tax_status
FROM record
WHERE kind = 'credit' AND json_extract(body, '$.reason') = 'legacy_bonus';
