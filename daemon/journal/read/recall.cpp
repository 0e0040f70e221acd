#include "daemon/journal/read/recall.h"

#include <utility>

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"

namespace pitlink::journal {

using nlohmann::json;

RecalledRound recallRound(SegmentedJournal& journal, std::int64_t roundId) {
    RecalledRound recalled{reconstructRound(journal.recordsOfRound(roundId)), {}};
    for (const JournalRecord& record : recalled.round.records) {
        if (record.kind != kind::kCredit || !record.station) {
            continue;
        }
        const auto [amount, balance] = readRecordBody(record.seq, record.kind, record.body, [](const json& body) {
            return std::pair{integerField(body, "amount", -kMaxBodyMoney, kMaxBodyMoney),
                             integerField(body, "balance", -kMaxBodyMoney, kMaxBodyMoney)};
        });
        auto [it, first] = recalled.credits.try_emplace(*record.station);
        if (first) {
            it->second.before = balance - amount;
        }
        it->second.after = balance;
    }
    return recalled;
}

std::vector<RecalledRound> recallRounds(SegmentedJournal& journal, int count, std::optional<std::int64_t> station,
                                        const std::optional<GameOfRounds>& game) {
    // The newest segment first; both queries walk an index backwards: the cost does not grow with
    // the journal. A round's bets are all in the segment it was played in.
    static constexpr const char* kOfGame =
        " AND (?3 IS NULL OR json_extract(o.body, '$.game') = ?3 OR (?4 AND json_extract(o.body, '$.game') IS NULL))";
    const std::string ofStation =
        std::string(
            "SELECT DISTINCT b.round_id FROM record b JOIN record o ON o.round_id = b.round_id AND o.kind = "
            "'round.opened' WHERE b.station = ?1 AND b.kind = 'bet.accepted'") +
        kOfGame + " ORDER BY b.round_id DESC LIMIT ?2";
    const std::string ofTable =
        std::string("SELECT o.round_id FROM record o WHERE o.kind = 'round.opened' AND ?1 IS NULL") + kOfGame +
        " ORDER BY o.seq DESC LIMIT ?2";
    std::vector<std::int64_t> ids;
    for (std::size_t i = journal.size(); i-- > 0 && static_cast<int>(ids.size()) < count;) {
        if (station && !journal.holdsBetsOf(i, *station)) {
            continue;
        }
        JournalStore& store = journal.segment(i);
        SqliteStatement rounds = store.connection().prepare(station ? ofStation : ofTable);
        const auto wanted = static_cast<std::int64_t>(count - static_cast<int>(ids.size()));
        if (station) {
            rounds.bind(1, *station);
        } else {
            rounds.bind(1, std::nullopt);
        }
        rounds.bind(2, wanted);
        if (game) {
            rounds.bind(3, std::string_view(game->name)).bind(4, static_cast<std::int64_t>(game->first ? 1 : 0));
        } else {
            rounds.bind(3, std::nullopt).bind(4, static_cast<std::int64_t>(0));
        }
        while (rounds.step()) {
            ids.push_back(rounds.integer(0));
        }
    }
    std::vector<RecalledRound> out;
    out.reserve(ids.size());
    for (const std::int64_t id : ids) {
        out.push_back(recallRound(journal, id));
    }
    return out;
}

std::optional<std::string> firstGameOf(SegmentedJournal& journal) {
    for (std::size_t i = journal.size(); i-- > 0;) {
        SqliteStatement started = journal.segment(i).connection().prepare(
            "SELECT coalesce(json_extract(body, '$.games[0]'), json_extract(body, '$.table')) FROM record "
            "WHERE kind = 'daemon.started' ORDER BY seq DESC LIMIT 1");
        if (started.step() && !started.isNull(0)) {
            return std::string(started.text(0));
        }
    }
    return std::nullopt;
}

json recalledRoundJson(const RecalledRound& recalled) {
    const RoundHistory& round = recalled.round;
    // One line per stake the round's rule settles: per spot (with the additions that built it), or
    // per bet in rounds opened before settlement by spot.
    json bets = json::array();
    for (const game::SettledStake& stake : game::stakesToSettle(gameBets(round.bets), round.rule)) {
        const RoundBet& first = round.bets[stake.covers.front()];
        json indexes = json::array();
        json additions = json::array();
        for (const std::size_t i : stake.covers) {
            const RoundBet& bet = round.bets[i];
            indexes.push_back(bet.index);
            json addition{{"bet", bet.index}, {"stake", bet.stake}};
            if (!bet.action.empty()) {
                addition["action"] = bet.action;
            }
            additions.push_back(std::move(addition));
        }
        json entry{{"station", first.station},
                   {"spot", game::betTypeName(first.spot)},
                   {"stake", stake.bet.stake},
                   {"bets", std::move(indexes)},
                   {"additions", std::move(additions)}};
        if (round.rule == game::SettleRule::PerBet) {
            entry["bet"] = first.index;
        }
        if (const auto it = round.outcomes.find(first.index); it != round.outcomes.end()) {
            entry["result"] = it->second.result;
            entry["tier"] = it->second.tier;
            entry["win"] = it->second.win;
            entry["returned"] = it->second.returned;
            entry["breakage"] = it->second.breakage;
        }
        bets.push_back(std::move(entry));
    }
    json credits = json::object();
    for (const auto& [station, moved] : recalled.credits) {
        credits[std::to_string(station)] = {{"before", moved.before}, {"after", moved.after}};
    }
    json cards = json::array();
    for (const DealtCard& dealt : round.cards) {
        cards.push_back({{"position", dealt.position}, {"card", dealt.card.toString()}});
    }
    json out{{"round", round.roundId},
             {"shoe", round.shoe},
             {"round_in_shoe", round.roundInShoe},
             {"state", roundStateName(round.state)},
             {"settle", game::settleRuleName(round.rule)},
             {"opened_at_ms", round.openedAtMs},
             {"paytable", round.paytableId},
             {"paytable_sha256", round.paytableSha},
             {"cards_dealt", std::move(cards)},
             {"bets", std::move(bets)},
             {"credits", std::move(credits)},
             {"resettlements", round.resettlements}};
    if (!round.gameName.empty()) {
        out["game"] = round.gameName;
    }
    if (!round.settlement.is_null()) {
        out["player"] = round.settlement.at("player");
        out["banker"] = round.settlement.at("banker");
        out["outcome"] = round.settlement.at("outcome");
    }
    if (round.state == RoundState::Voided) {
        out["void_reason"] = round.voidReason;
    }
    return out;
}

json stationBetListJson(const RecalledRound& recalled, std::int64_t station) {
    json out = recalledRoundJson(recalled);
    json bets = json::array();
    std::int64_t staked = 0;
    std::int64_t returned = 0;
    for (json& bet : out["bets"]) {
        if (bet.at("station").get<std::int64_t>() != station) {
            continue;  // another player's bets are not this station's to see
        }
        staked += bet.at("stake").get<std::int64_t>();
        returned += bet.value("returned", std::int64_t{0});
        bet.erase("station");
        bets.push_back(std::move(bet));
    }
    out["bets"] = std::move(bets);
    out["staked"] = staked;
    out["returned"] = returned;
    const auto credits = recalled.credits.find(station);
    out["credits"] = credits == recalled.credits.end()
                         ? json(nullptr)
                         : json{{"before", credits->second.before}, {"after", credits->second.after}};
    out.erase("paytable_sha256");
    return out;
}

}  // namespace pitlink::journal
