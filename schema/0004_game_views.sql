-- pitlink journal, schema version 4: the inspector views say which game a row is of, on a
-- controller of several games (pitlink.yaml `games`; schema/README.md "Games"). Each view keeps its
-- columns and order and gains `game` last: the game the record (for round_summary and
-- round_recall, the round's round.opened) names; NULL where it names none: a journal of one game,
-- and the station's wallet (credits outside a round, tickets, tips, hand-pays). Views only: no
-- stored data changes.
DROP VIEW events;
DROP VIEW round_summary;
DROP VIEW round_recall;
DROP VIEW station_statement;

-- Every record with a readable UTC time.
CREATE VIEW events AS
SELECT seq,
       strftime('%Y-%m-%d %H:%M:%f', at_ms / 1000.0, 'unixepoch') AS at_utc,
       kind, round_id, station, body,
       json_extract(body, '$.game') AS game
FROM record;

-- One row per round: shoe, when it opened, how it ended, its cards and outcome, its game.
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
         WHERE r.round_id = o.round_id AND r.kind = 'round.resettled') AS resettlements,
       json_extract(o.body, '$.game')           AS game
FROM record o
WHERE o.kind = 'round.opened';

-- Game recall, one row per stake settled (as schema 3's, see 0003_spot_recall.sql), and the
-- round's game.
CREATE VIEW round_recall AS
WITH standing AS (
    SELECT b.seq, b.round_id, b.station,
           json_extract(b.body, '$.bet')    AS bet,
           json_extract(b.body, '$.spot')   AS spot,
           json_extract(b.body, '$.stake')  AS stake,
           json_extract(b.body, '$.action') AS action,
           coalesce((SELECT json_extract(o.body, '$.settle') FROM record o
                      WHERE o.round_id = b.round_id AND o.kind = 'round.opened'), 'bet') AS settle
    FROM record b
    WHERE b.kind = 'bet.accepted'
      AND NOT EXISTS (SELECT 1 FROM record w
                       WHERE w.round_id = b.round_id AND w.kind = 'bet.withdrawn'
                         AND json_extract(w.body, '$.bet') = json_extract(b.body, '$.bet'))
    ORDER BY b.seq
),
stake AS (
    SELECT round_id, station, settle, min(bet) AS bet, spot, sum(stake) AS stake,
           json_group_array(bet) AS bets,
           -- json_patch leaves `action` out where an old journal's bet has none
           json_group_array(json_patch(json_object('bet', bet, 'stake', stake),
                                       json_object('action', action))) AS additions
    FROM standing
    GROUP BY round_id, station, spot, CASE settle WHEN 'spot' THEN 0 ELSE bet END
)
SELECT k.round_id, k.station, k.settle, k.bet, k.bets, k.additions, k.spot, k.stake,
       json_extract(s.body, '$.result')   AS result,
       json_extract(s.body, '$.tier')     AS tier,
       json_extract(s.body, '$.win')      AS win,
       json_extract(s.body, '$.returned') AS returned,
       json_extract(s.body, '$.breakage') AS breakage,
       coalesce(s.kind = 'bet.adjusted', 0) AS adjusted,
       (SELECT json_extract(o.body, '$.game') FROM record o
         WHERE o.round_id = k.round_id AND o.kind = 'round.opened') AS game
FROM stake k
LEFT JOIN record s ON s.seq = (
    SELECT max(x.seq) FROM record x
     WHERE x.round_id = k.round_id AND x.kind IN ('bet.settled', 'bet.adjusted')
       AND coalesce(json_extract(x.body, '$.bets[0]'), json_extract(x.body, '$.bet')) = k.bet);

-- Every credit movement of every station across its games, with the balance after it: the
-- station's one credit meter; `game` is the game of the round that moved it (NULL outside a
-- round: tickets, tips, hand-pays, cash-outs).
CREATE VIEW station_statement AS
SELECT seq,
       strftime('%Y-%m-%d %H:%M:%f', at_ms / 1000.0, 'unixepoch') AS at_utc,
       station, round_id,
       json_extract(body, '$.reason')  AS reason,
       json_extract(body, '$.amount')  AS amount,
       json_extract(body, '$.balance') AS balance,
       json_extract(body, '$.ref')     AS ref,
       json_extract(body, '$.game')    AS game
FROM record
WHERE kind = 'credit';
