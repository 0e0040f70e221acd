-- pitlink journal, schema version 3: round_recall shows each stake as it was settled. From this
-- version on a round is settled by spot (round.opened `settle`: "spot"): a station's additions to
-- one spot are one bet, settled together (schema/README.md "Settlement by spot"). Views only: no
-- stored data changes.
DROP VIEW round_recall;

-- Game recall, one row per stake settled: in a round settled by spot, each station's spot with the
-- bets that built it (`additions`: bet, stake, action, in the order placed); in a round opened
-- before that rule, each bet. Withdrawn bets are not rows. The result is the settlement in force:
-- the latest `bet.adjusted` of the stake (`adjusted` = 1), else its `bet.settled`.
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
       coalesce(s.kind = 'bet.adjusted', 0) AS adjusted
FROM stake k
LEFT JOIN record s ON s.seq = (
    SELECT max(x.seq) FROM record x
     WHERE x.round_id = k.round_id AND x.kind IN ('bet.settled', 'bet.adjusted')
       AND coalesce(json_extract(x.body, '$.bets[0]'), json_extract(x.body, '$.bet')) = k.bet);
