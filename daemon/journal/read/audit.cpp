#include "daemon/journal/read/audit.h"

#include <map>
#include <optional>
#include <set>

#include "daemon/game/wide_int.h"
#include "daemon/journal/ledger/ledger_replay.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store/chain_hasher.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// Sums of a round's money by station, on 128 bits: a forged journal may hold any number of records.
using Sums = std::map<std::int64_t, game::Int128>;

// A bet standing in the round the auditor follows.
struct StandingBet {
    std::int64_t station = 0;
    std::string spot;
    Money stake = 0;
};

// One bet.settled: whom and what it settled, and the bets it says it covers.
struct Settlement {
    std::int64_t seq = 0;
    std::int64_t station = 0;
    std::string spot;
    Money stake = 0;
    std::vector<std::int64_t> covers;
};

// What the auditor follows of the round in progress.
struct Track {
    std::int64_t id = 0;
    game::SettleRule rule = game::SettleRule::PerBet;
    std::map<std::int64_t, StandingBet> stakes;  // bet index -> the bet, while it stands
    std::vector<Settlement> settlements;
    Sums expectedByStation;
    Sums creditedByStation;
    int endings = 0;
    bool voided = false;
};

// Follows one round at a time per game (a game's round opens only when its round before has
// ended; a controller of several games names each round's game, schema/README.md "Games") and
// checks it when the game's next opens: settled or voided once; every bet standing covered by exactly one
// settlement of its round, of its station and spot and for the sum of the stakes it covers (by
// spot: one settlement per station's spot); and the credits of the round equal to what its
// settlement or void says.
class RoundAuditor {
public:
    void visit(const JournalRecord& record, const json& body) {
        if (record.kind == kind::kRoundOpened) {
            const std::string game = body.contains("game") ? gameNameValue(body.at("game"), "\"game\"") : "";
            if (const auto before = open_.find(game); before != open_.end()) {
                finish(before->second, false);
                open_.erase(before);
            }
            Track& t = open_[game];
            t.id = *record.roundId;
            t.rule = settleRuleField(body);
            ++rounds_;
            if (!game.empty()) {
                ++roundsByGame_[game];
            }
            return;
        }
        const auto open = std::find_if(open_.begin(), open_.end(),
                                       [&](const auto& entry) { return entry.second.id == record.roundId; });
        if (open == open_.end()) {
            return;  // re-settlements of older rounds are checked by the ledger (balances) only
        }
        Track& t = open->second;
        const std::string_view k = record.kind;
        const std::int64_t station = record.station.value_or(-1);  // -1: a record that lacks it
        if (!record.station && (k == kind::kBetAccepted || k == kind::kBetSettled)) {
            problem(t, std::string(k) + " record " + std::to_string(record.seq) + " without a station");
        }
        if (k == kind::kBetAccepted) {
            t.stakes[betIndex(body)] =
                StandingBet{station, stringField(body, "spot"), integerField(body, "stake", 1, kMaxBodyStake)};
        } else if (k == kind::kBetWithdrawn) {
            t.stakes.erase(betIndex(body));
        } else if (k == kind::kRoundSettled || k == kind::kRoundVoided) {
            ++t.endings;
            t.voided = k == kind::kRoundVoided;
        } else if (k == kind::kBetSettled) {
            t.settlements.push_back(Settlement{record.seq, station, stringField(body, "spot"),
                                               integerField(body, "stake", 0, kMaxBodyMoney),
                                               settledBetIndexes(body, t.rule)});
            t.expectedByStation[station] += integerField(body, "returned", 0, kMaxBodyMoney);
        } else if (k == kind::kCredit && t.endings > 0) {
            const std::string& why = stringField(body, "reason");
            if (why == reason::kSettlement || why == reason::kBetReturn) {
                t.creditedByStation[station] += integerField(body, "amount", -kMaxBodyMoney, kMaxBodyMoney);
            }
        }
    }

    // At the journal's end: each game's last round may still be running.
    void finish() {
        for (const auto& [game, t] : open_) {
            finish(t, true);
        }
        open_.clear();
    }

    [[nodiscard]] std::int64_t rounds() const { return rounds_; }
    [[nodiscard]] const std::map<std::string, std::int64_t>& roundsByGame() const { return roundsByGame_; }
    std::vector<std::string> problems;

private:
    // `last`: the game's last round, which may still be running.
    void finish(const Track& t, bool last) {
        if (t.endings == 0) {
            if (!last) {
                problem(t, "never settled or voided");
            }
        } else if (t.endings > 1) {
            problem(t, "ended " + std::to_string(t.endings) + " times");
        } else if (t.voided) {
            Sums stakes;
            for (const auto& [bet, standing] : t.stakes) {
                stakes[standing.station] += standing.stake;
            }
            if (!t.settlements.empty()) {
                problem(t, "voided but has settled bets");
            }
            if (stakes != t.creditedByStation) {
                problem(t, "voided but the stakes returned differ from the stakes standing");
            }
        } else {
            checkCoverage(t);
            if (t.expectedByStation != t.creditedByStation) {
                problem(t, "settlement credits differ from what its bets returned");
            }
        }
    }

    void checkCoverage(const Track& t) {
        std::set<std::int64_t> covered;
        std::set<std::pair<std::int64_t, std::string>> spots;
        for (const Settlement& s : t.settlements) {
            const std::string which = "bet.settled " + std::to_string(s.seq);
            game::Int128 sum = 0;
            bool standing = true;
            for (const std::int64_t bet : s.covers) {
                if (!covered.insert(bet).second) {
                    problem(t, "bet " + std::to_string(bet) + " settled twice");
                }
                const auto it = t.stakes.find(bet);
                if (it == t.stakes.end()) {
                    problem(t, which + " settles bet " + std::to_string(bet) + ", which was not standing");
                    standing = false;
                    continue;
                }
                if (it->second.station != s.station || it->second.spot != s.spot) {
                    problem(t, which + " settles bet " + std::to_string(bet) + " of another station or spot");
                }
                sum += it->second.stake;
            }
            if (standing && sum != s.stake) {
                problem(t, which + " settles a stake of " + std::to_string(s.stake) + ", its bets sum to " +
                               std::to_string(static_cast<std::int64_t>(sum)));
            }
            if (t.rule == game::SettleRule::PerSpot && !spots.emplace(s.station, s.spot).second) {
                problem(t, "station " + std::to_string(s.station) + "'s " + s.spot +
                               " is settled in parts; a spot is one bet");
            }
        }
        for (const auto& [bet, standing] : t.stakes) {
            if (covered.count(bet) == 0) {
                problem(t, "bet " + std::to_string(bet) + " was never settled");
            }
        }
    }

    static std::int64_t betIndex(const json& body) { return integerField(body, "bet", 1, kMaxInt64); }
    void problem(const Track& t, const std::string& what) {
        problems.push_back("round " + std::to_string(t.id) + ": " + what);
    }
    std::map<std::string, Track> open_;  // by game ("": a round that names none)
    std::int64_t rounds_ = 0;
    std::map<std::string, std::int64_t> roundsByGame_;  // the rounds naming a game, by game
};

}  // namespace

std::string checkSegmentSeal(SegmentedJournal& journal, std::size_t index, std::optional<json>* carried) {
    JournalStore& before = journal.segment(index - 1);
    const std::int64_t lastSeq = before.tipSeq();
    const Digest lastHash = before.tipHash();
    JournalStore& store = journal.segment(index);
    auto next = carriedState(store);
    // A controller of several games names its first game in what it carried: the records of the
    // segment before are divided among the games as the daemon divided them.
    std::string firstGame;
    if (next && next->at("table").contains("first_game") && next->at("table").at("first_game").is_string()) {
        firstGame = next->at("table").at("first_game").get<std::string>();
    }
    json table = resumeFactsJson(carried != nullptr && index > 1 ? resumeFacts(before, *carried, firstGame)
                                                                 : resumeFacts(before, firstGame));
    const std::int64_t first = store.firstSeq();
    const std::string where = "segment " + journal.file(index);
    if (first != lastSeq + 1) {
        return where + " starts at record " + std::to_string(first) + ", the one before it ends at " +
               std::to_string(lastSeq);
    }
    if (sealedLink(store, first) != lastHash) {
        return where + ": its segment.sealed does not name the last link of the segment before it";
    }
    if (next && !next->at("table").contains("shoe")) {
        // Sealed before issue 33: the shoe in play was not carried over (its table started a new
        // shoe after such a rotation); what it carried is compared without it.
        table.erase("shoe");
    }
    const bool same = next && next->at("table") == table;
    if (carried != nullptr) {
        *carried = std::move(next);
    }
    if (!same) {
        return where + ": the state it carried over differs from the segment before it";
    }
    return {};
}

namespace {

// Meters and rounds, record by record, whatever reads the records and checks their links.
class RecordAuditor {
public:
    // `fromStart`: the records start at 1. Otherwise (the oldest segments archived away) the
    // meters are replayed from the first snapshot on: the records before it are the archive's.
    explicit RecordAuditor(bool fromStart) : replaying_(fromStart) {}

    // Empty, or what is wrong with the record.
    std::string visit(const JournalRecord& record) {
        if (!replaying_) {
            if (record.kind == kind::kMetersSnapshot) {
                replay_ = LedgerReplay(Ledger::fromJson(json::parse(record.body)));
                replaying_ = true;
            }
            return {};
        }
        std::string problem = replay_.visit(record);
        if (!problem.empty()) {
            return problem;
        }
        if (record.roundId) {
            try {
                rounds_.visit(record, json::parse(record.body));
            } catch (const json::exception& error) {
                return "record " + std::to_string(record.seq) + ": " + error.what();
            }
        }
        return {};
    }

    void finish(AuditReport& report) {
        rounds_.finish();
        report.snapshotsCompared = replay_.snapshotsCompared();
        report.roundsChecked = rounds_.rounds();
        report.roundsByGame = rounds_.roundsByGame();
        report.roundProblems = std::move(rounds_.problems);
        report.ledger = replay_.take();
    }

private:
    bool replaying_;
    LedgerReplay replay_;
    RoundAuditor rounds_;
};

}  // namespace

struct StreamAudit::State {
    State(std::optional<std::vector<std::uint8_t>> key, std::int64_t firstSeq, const Digest& before)
        : hasher(std::move(key)), auditor(firstSeq <= 1), next(firstSeq), previous(before) {
        report.chain.from = firstSeq;
    }
    ChainHasher hasher;
    RecordAuditor auditor;
    std::int64_t next;
    Digest previous;
    std::string canonical;
    AuditReport report;
};

StreamAudit::StreamAudit(std::optional<std::vector<std::uint8_t>> key, std::int64_t firstSeq, const Digest& before)
    : state_(std::make_unique<State>(std::move(key), firstSeq, before)) {}

StreamAudit::~StreamAudit() = default;

bool StreamAudit::visit(const JournalRecord& record) {
    State& s = *state_;
    ChainCheck& chain = s.report.chain;
    if (!chain.ok) {
        return false;
    }
    const auto fail = [&](std::string problem) {
        chain.ok = false;
        chain.firstBadSeq = record.seq;
        chain.problem = std::move(problem);
        return false;
    };
    const std::string at = "record " + std::to_string(record.seq);
    if (record.seq != s.next) {
        return fail("record " + std::to_string(s.next) + " is missing (" + at + " comes next)");
    }
    if (record.kind == kind::kSegmentSealed && record.seq > 1 && !sealNames(record, record.seq - 1, s.previous)) {
        return fail(at + ": its segment.sealed does not name the record before it and its link");
    }
    s.canonical = canonicalBytes(record);
    if (s.hasher.link(s.previous, s.canonical) != record.hash) {
        return fail(at + " (" + record.kind + ") does not match its chain link: edited, or signed with another key");
    }
    if (std::string problem = s.auditor.visit(record); !problem.empty()) {
        return fail(std::move(problem));
    }
    s.previous = record.hash;
    ++s.next;
    ++chain.checked;
    return true;
}

AuditReport StreamAudit::finish() {
    state_->auditor.finish(state_->report);
    return std::move(state_->report);
}

AuditReport auditJournal(SegmentedJournal& journal) {
    AuditReport report;
    // A journal whose oldest segments were archived away starts from its first segment's opening
    // snapshot; the records before it are the archive's to check.
    RecordAuditor auditor(journal.segment(0).firstSeq() <= 1);
    const RecordVisitor visit = [&](const JournalRecord& record) { return auditor.visit(record); };
    report.chain.from = journal.segment(0).firstSeq();
    for (std::size_t i = 0; i < journal.size() && report.chain.ok; ++i) {
        if (i > 0) {
            if (std::string problem = checkSegmentSeal(journal, i); !problem.empty()) {
                report.chain.ok = false;
                report.chain.firstBadSeq = journal.segment(i).firstSeq();
                report.chain.problem = std::move(problem);
                break;
            }
        }
        JournalStore& store = journal.segment(i);
        const ChainCheck segment = verifyChain(store, store.firstSeq(), visit);
        report.chain.checked += segment.checked;
        if (!segment.ok) {
            report.chain.ok = false;
            report.chain.firstBadSeq = segment.firstBadSeq;
            report.chain.problem =
                journal.size() > 1 ? "segment " + journal.file(i) + ": " + segment.problem : segment.problem;
        }
    }
    auditor.finish(report);
    return report;
}

json auditReportJson(const AuditReport& report) {
    json out{{"ok", report.ok()},
             {"chain_ok", report.chain.ok},
             {"records_checked", report.chain.checked},
             {"snapshots_compared", report.snapshotsCompared},
             {"rounds_checked", report.roundsChecked},
             {"round_problems", report.roundProblems},
             {"meters", report.ledger.toJson()}};
    if (!report.roundsByGame.empty()) {
        out["rounds_checked_by_game"] = report.roundsByGame;
    }
    if (!report.chain.ok) {
        out["first_bad_record"] = report.chain.firstBadSeq.value_or(0);
        out["problem"] = report.chain.problem;
    }
    return out;
}

}  // namespace pitlink::journal
