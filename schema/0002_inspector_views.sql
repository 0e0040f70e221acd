-- pitlink journal, schema version 2: views that answer an inspector's questions with sqlite3
-- alone (schema/README.md shows the queries). Views only: no stored data changes.

-- Every record with a readable UTC time.
CREATE VIEW events AS
SELECT seq,
       strftime('%Y-%m-%d %H:%M:%f', at_ms / 1000.0, 'unixepoch') AS at_utc,
       kind, round_id, station, body
FROM record;

-- One row per round: shoe, when it opened, how it ended, its cards and outcome.
CREATE VIEW round_summary AS
SELECT o.round_id,
       json_extract(o.body, '$.shoe')           AS shoe,
       json_extract(o.body, '$.round_in_shoe')  AS round_in_shoe,
       strftime('%Y-%m-%d %H:%M:%f', o.at_ms / 1000.0, 'unixepoch') AS opened_utc,
       json_extract(o.body, '$.paytable')       AS paytable,
       json_extract(o.body, '$.paytable_sha256') AS paytable_sha256,
       (SELECT e.kind FROM record e
         WHERE e.round_id = o.round_id AND e.kind IN ('round.settled', 'round.voided')
         ORDER BY e.seq DESC LIMIT 1)           AS ended,
       (SELECT json_extract(s.body, '$.player') FROM record s
         WHERE s.round_id = o.round_id AND s.kind = 'round.settled') AS player_cards,
       (SELECT json_extract(s.body, '$.banker') FROM record s
         WHERE s.round_id = o.round_id AND s.kind = 'round.settled') AS banker_cards,
       (SELECT json_extract(s.body, '$.outcome.winner') FROM record s
         WHERE s.round_id = o.round_id AND s.kind = 'round.settled') AS winner,
       (SELECT count(*) FROM record r
         WHERE r.round_id = o.round_id AND r.kind = 'round.resettled') AS resettlements
FROM record o
WHERE o.kind = 'round.opened';

-- Game recall, one row per bet: what was staked, how it was settled, what was paid back.
CREATE VIEW round_recall AS
SELECT b.round_id, b.station,
       json_extract(b.body, '$.bet')      AS bet,
       json_extract(b.body, '$.spot')     AS spot,
       json_extract(b.body, '$.stake')    AS stake,
       json_extract(s.body, '$.result')   AS result,
       json_extract(s.body, '$.tier')     AS tier,
       json_extract(s.body, '$.win')      AS win,
       json_extract(s.body, '$.returned') AS returned,
       json_extract(s.body, '$.breakage') AS breakage
FROM record b
LEFT JOIN record s ON s.round_id = b.round_id AND s.kind = 'bet.settled'
                  AND json_extract(s.body, '$.bet') = json_extract(b.body, '$.bet')
WHERE b.kind = 'bet.accepted';

-- Every credit movement of every station, with the balance after it.
CREATE VIEW station_statement AS
SELECT seq,
       strftime('%Y-%m-%d %H:%M:%f', at_ms / 1000.0, 'unixepoch') AS at_utc,
       station, round_id,
       json_extract(body, '$.reason')  AS reason,
       json_extract(body, '$.amount')  AS amount,
       json_extract(body, '$.balance') AS balance,
       json_extract(body, '$.ref')     AS ref
FROM record
WHERE kind = 'credit';

-- Meter snapshots, one row per meter: station NULL is the table.
CREATE VIEW meter_history AS
SELECT r.seq,
       strftime('%Y-%m-%d %H:%M:%f', r.at_ms / 1000.0, 'unixepoch') AS at_utc,
       CAST(st.key AS INTEGER) AS station, m.key AS meter, m.value AS value
FROM record r, json_each(r.body, '$.stations') st, json_each(st.value, '$.meters') m
WHERE r.kind = 'meters.snapshot'
UNION ALL
SELECT r.seq,
       strftime('%Y-%m-%d %H:%M:%f', r.at_ms / 1000.0, 'unixepoch'),
       NULL, m.key, m.value
FROM record r, json_each(r.body, '$.table') m
WHERE r.kind = 'meters.snapshot';
