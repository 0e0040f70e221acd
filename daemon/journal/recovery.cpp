#include "daemon/journal/recovery.h"

#include <array>
#include <set>

#include "daemon/journal/ledger/ledger_replay.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"
#include "daemon/journal/resume_facts.h"

namespace pitlink::journal {

using nlohmann::json;

std::optional<game::Paytable> findJournaledPaytable(JournalStore& store, std::string_view sha256) {
    SqliteStatement row = store.connection().prepare(
        "SELECT body FROM record WHERE kind = 'paytable.loaded' AND json_extract(body, '$.sha256') = ? "
        "ORDER BY seq DESC LIMIT 1");
    row.bind(1, sha256);
    json body;
    if (row.step()) {
        body = json::parse(row.text(0), nullptr, false);
    } else if (const auto carried = carriedState(store)) {
        // Loaded before this segment began: the segment carries the last paytable loaded.
        const json& table = carried->at("table");
        if (!table.contains("paytable") || table["paytable"].value("sha256", "") != sha256) {
            return std::nullopt;
        }
        body = table["paytable"];
    } else {
        return std::nullopt;
    }
    if (body.is_discarded() || !body.contains("content")) {
        return std::nullopt;
    }
    game::Paytable table = paytableFromJson(body.at("content"));
    if (paytableSha256(table) != sha256) {
        return std::nullopt;  // content does not hash to its name: not the paytable of the round
    }
    return table;
}

std::optional<game::Paytable> findJournaledPaytable(SegmentedJournal& journal, std::string_view sha256) {
    for (std::size_t i = journal.size(); i-- > 0;) {
        if (auto found = findJournaledPaytable(journal.segment(i), sha256)) {
            return found;
        }
    }
    return std::nullopt;
}

namespace {

// The base to replay from: the second-to-last snapshot, so that the last one is compared with
// meters recomputed from the records between them.
std::int64_t replayStart(JournalStore& store, Ledger& base) {
    const std::int64_t end = store.tipSeq() + 1;
    const auto last = store.lastSeqOfKind(kind::kMetersSnapshot, end);
    if (!last) {
        return 1;
    }
    const auto previous = store.lastSeqOfKind(kind::kMetersSnapshot, *last);
    if (!previous) {
        const std::int64_t first = store.firstSeq();
        if (first <= 1) {
            return 1;
        }
        // A segment after the first holds one snapshot (the one it opened with): the replay starts
        // there; the records before it are in sealed segments.
        base = Ledger::fromJson(json::parse(store.record(*last)->body));
        return *last + 1;
    }
    const auto record = store.record(*previous);
    base = Ledger::fromJson(json::parse(record->body));
    return *previous + 1;
}

// The game a round's round.opened names (a controller of several games), if any.
std::optional<std::string> gameOfRound(const std::vector<JournalRecord>& records) {
    for (const JournalRecord& record : records) {
        if (record.kind == kind::kRoundOpened) {
            const json body = json::parse(record.body, nullptr, false);
            if (body.is_object() && body.contains("game")) {
                return gameNameValue(body.at("game"), "round.opened's \"game\"");
            }
        }
    }
    return std::nullopt;
}

// The rounds that may be unfinished: the journal's last, and on a controller of several games
// each game's last in the segment (a rotation happens only when every game is between rounds).
std::vector<std::int64_t> lastRounds(JournalStore& store, std::optional<std::int64_t> lastRoundId) {
    std::set<std::int64_t> rounds;
    if (lastRoundId) {
        rounds.insert(*lastRoundId);
    }
    auto perGame = store.connection().prepare(
        "SELECT max(round_id) FROM record WHERE kind = 'round.opened' AND json_extract(body, '$.game') IS NOT NULL "
        "GROUP BY json_extract(body, '$.game')");
    while (perGame.step()) {
        if (!perGame.isNull(0)) {
            rounds.insert(perGame.integer(0));
        }
    }
    return {rounds.begin(), rounds.end()};
}

// The value of one credit each station played at when the table stopped: its last station.state's
// in any game (the carried ones first, the wallets' over the first game's, then the segment's in
// order; absent: the table's first, written as none).
std::map<std::int64_t, Money> stationDenominations(JournalStore& store) {
    std::map<std::int64_t, Money> out;
    const auto take = [&out](std::int64_t station, const StationState& state) {
        if (state.denomination) {
            out[station] = *state.denomination;
        } else {
            out.erase(station);
        }
    };
    if (const auto carried = carriedState(store); carried && carried->contains("table")) {
        const ResumeFacts facts = resumeFactsFromJson(carried->at("table"));
        for (const auto& [station, state] : facts.stations) {
            take(station, state);
        }
        for (const auto& [station, state] : facts.wallets) {  // a change made through another game
            take(station, state);
        }
    }
    static constexpr std::array<std::string_view, 1> kKinds{kind::kStationState};
    forEachStationRecord(store, kKinds, [&](const StationRecord& record) {
        if (record.body.is_object()) {
            take(record.station, stationStateFact(record.body));
        }
    });
    return out;
}

// Finishes a round if the table stopped in the middle of it. Adds what was done to `actions`.
void finishUnfinishedRound(JournalStore& store, Ledger& ledger, const Journal::Clock& clock, std::int64_t roundId,
                           std::vector<std::string>& actions) {
    const std::vector<JournalRecord> records = store.recordsOfRound(roundId);
    if (records.empty()) {
        return;  // ended in a sealed segment
    }
    RoundHistory round = reconstructRound(records);
    if (round.state == RoundState::Settled || round.state == RoundState::Voided) {
        return;
    }
    const std::optional<std::string> game = gameOfRound(records);
    const std::string id = std::to_string(round.roundId);
    std::string problem;
    std::optional<game::Coup> coup;
    if (round.state == RoundState::Dealing) {
        coup = completeCoup(round.cards, problem);
    } else {
        problem = "the round was " + std::string(roundStateName(round.state)) + " when the table stopped";
    }
    std::optional<game::Paytable> paytable;
    if (coup) {
        paytable = findJournaledPaytable(store, round.paytableSha);
        if (!paytable) {
            problem = "its paytable " + round.paytableSha.substr(0, 12) + " is not in the journal";
        }
    }
    const bool settle = coup && paytable;
    const auto failure = commitNow(store, ledger, clock, [&](JournalTransaction& tx) {
        if (settle) {
            // The rule the round was opened with (a round from before an upgrade keeps its own).
            const game::RoundSettlement settled = settleBets(*coup, round.bets, *paytable, round.rule);
            addSettlement(tx, round.roundId, *coup, round.bets, settled, *paytable, round.paytableSha,
                          SettlementDetail{.recovered = true, .denominations = stationDenominations(store)});
        } else {
            addVoid(tx, round.roundId, round.bets, "recovered at start-up: " + problem, VoidDetail{.recovered = true});
        }
        if (game) {
            tx.nameGame(*game);
        }
    });
    if (failure) {
        throw JournalError(*failure);
    }
    if (settle) {
        actions.push_back("round " + id + " settled from its journaled cards");
    } else {
        actions.push_back("round " + id + " voided, " + std::to_string(round.bets.size()) +
                          " bets returned: " + problem);
    }
}

}  // namespace

RecoveryReport inspectJournal(JournalStore& store, const RecoveryOptions& options) {
    RecoveryReport report;
    report.quickCheck = "skipped";
    if (options.quickCheck) {
        report.quickCheck = store.quickCheck();
        if (report.quickCheck != "ok") {
            report.tilt = "journal integrity check failed: " + report.quickCheck;
            return report;
        }
    }
    Ledger base;
    std::int64_t from = 1;
    try {
        from = replayStart(store, base);
    } catch (const std::exception& error) {
        report.tilt = std::string("journal meters snapshot unreadable: ") + error.what();
        return report;
    }
    LedgerReplay replay(std::move(base));
    const RecordVisitor visit = [&](const JournalRecord& record) { return replay.visit(record); };
    // A segment after the first is checked whole (it is bounded, and its opening records, the
    // carried state among them, are trusted only once their links are checked); a single-file
    // journal from the second-to-last snapshot unless the whole chain is asked for.
    const std::int64_t first = store.firstSeq();
    const std::int64_t chainFrom = options.fullChainCheck ? 1 : (first > 1 ? first : from);
    if (chainFrom < from) {
        // Check the links before the replay start too, without replaying them.
        report.chain = verifyChain(store, chainFrom, [&](const JournalRecord& record) {
            return record.seq >= from ? replay.visit(record) : std::string();
        });
    } else {
        report.chain = verifyChain(store, from, visit);
    }
    report.snapshotsCompared = replay.snapshotsCompared();
    if (!report.chain.ok) {
        report.tilt = "journal check failed at record " + std::to_string(report.chain.firstBadSeq.value_or(0)) + ": " +
                      report.chain.problem;
        return report;
    }
    report.ledger = replay.take();
    try {
        report.lastRoundId = store.lastRoundId();
        if (!report.lastRoundId) {
            // A segment that has dealt no round yet: the last one is in a sealed segment, ended
            // (a rotation happens only between rounds), and carried over by number.
            if (const auto carried = carriedState(store)) {
                report.lastRoundId = optionalIntegerField(carried->at("table"), "last_round", 0, kMaxInt64);
            }
        }
    } catch (const std::exception& error) {
        report.tilt = std::string("journal unreadable: ") + error.what();
    }
    return report;
}

void finishRecovery(JournalStore& store, RecoveryReport& report, const Journal::Clock& clock) {
    try {
        for (const std::int64_t round : lastRounds(store, report.lastRoundId)) {
            finishUnfinishedRound(store, report.ledger, clock, round, report.actions);
        }
    } catch (const std::exception& error) {
        report.tilt = std::string("recovery of the last round failed: ") + error.what();
        return;
    }
    // The checks themselves are on the record: an inspector sees every start-up's verdict.
    const auto failure = commitNow(store, report.ledger, clock, [&](JournalTransaction& tx) {
        tx.add(kind::kJournalChecked, std::nullopt, std::nullopt,
               json{{"quick_check", report.quickCheck},
                    {"chain_from", report.chain.from},
                    {"chain_records", report.chain.checked},
                    {"snapshots_compared", report.snapshotsCompared},
                    {"actions", report.actions}});
    });
    if (failure) {
        report.tilt = "journal cannot be written: " + *failure;
    }
}

RecoveryReport recover(JournalStore& store, const RecoveryOptions& options, const Journal::Clock& clock) {
    RecoveryReport report = inspectJournal(store, options);
    if (report.ok()) {
        finishRecovery(store, report, clock);
    }
    return report;
}

}  // namespace pitlink::journal
