#include "daemon/journal/read/record_audit.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// Stands for the body of a record whose body no check reads.
const json& noBody() {
    static const json empty = json::object();
    return empty;
}

std::string notAnObject(const JournalRecord& record) {
    return "record " + std::to_string(record.seq) + " has a body that is not a JSON object";
}

}  // namespace

// ---- RoundAuditor

bool RoundAuditor::readsBody(std::string_view k) {
    return k == kind::kRoundOpened || k == kind::kBetAccepted || k == kind::kBetWithdrawn || k == kind::kBetSettled ||
           k == kind::kCredit;
}

void RoundAuditor::visit(const JournalRecord& record, const json& body) {
    if (record.kind == kind::kRoundOpened) {
        const std::string game = body.contains("game") ? gameNameValue(body.at("game"), "\"game\"") : "";
        if (const auto before = open_.find(game); before != open_.end()) {
            finish(before->second, false, record.seq);
            open_.erase(before);
        }
        if (fresh_) {
            firstOpening_.try_emplace(game, record.seq);
            openedIds_.insert(*record.roundId);
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
    const auto open =
        std::find_if(open_.begin(), open_.end(), [&](const auto& entry) { return entry.second.id == record.roundId; });
    if (open != open_.end()) {
        place(open->second, record, body);
    } else if (fresh_) {
        unplaced_.push_back(Unplaced{record, body});  // perhaps a round the records before these left open
    }
    // else a re-settlement of an older round: checked by the ledger (balances) only
}

void RoundAuditor::place(Track& t, const JournalRecord& record, const json& body) {
    const std::string_view k = record.kind;
    const std::int64_t station = record.station.value_or(-1);  // -1: a record that lacks it
    if (!record.station && (k == kind::kBetAccepted || k == kind::kBetSettled)) {
        problem(t, record.seq, std::string(k) + " record " + std::to_string(record.seq) + " without a station");
    }
    const auto betIndex = [&] { return integerField(body, "bet", 1, kMaxInt64); };
    if (k == kind::kBetAccepted) {
        t.stakes[betIndex()] =
            StandingBet{station, stringField(body, "spot"), integerField(body, "stake", 1, kMaxBodyStake)};
    } else if (k == kind::kBetWithdrawn) {
        t.stakes.erase(betIndex());
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

bool RoundAuditor::canAbsorb(const RoundAuditor& next) const {
    return std::none_of(open_.begin(), open_.end(),
                        [&](const auto& entry) { return next.openedIds_.count(entry.second.id) > 0; });
}

void RoundAuditor::absorb(RoundAuditor&& next) {
    if (fresh_) {
        // What it could not place would have to be kept for the one before it: the audit joins
        // each segment to the auditor that followed every record before it, never to a fresh one.
        throw std::logic_error("RoundAuditor::absorb into an auditor that does not know the rounds before");
    }
    // What `next` could not place, in record order: a game's first opening there ends the round
    // this auditor holds open for the game; a record of a round not open there is this auditor's
    // if it holds that round open still (else a re-settlement of an older round, as in visit()).
    std::vector<std::pair<std::int64_t, const std::string*>> openings;
    for (const auto& [game, seq] : next.firstOpening_) {
        openings.emplace_back(seq, &game);
    }
    std::sort(openings.begin(), openings.end());
    auto opening = openings.begin();
    const auto endOpenedBefore = [&](std::int64_t seq) {
        for (; opening != openings.end() && opening->first < seq; ++opening) {
            if (const auto before = open_.find(*opening->second); before != open_.end()) {
                finish(before->second, false, opening->first);
                open_.erase(before);
            }
        }
    };
    for (const Unplaced& u : next.unplaced_) {
        endOpenedBefore(u.record.seq);
        const auto open = std::find_if(open_.begin(), open_.end(),
                                       [&](const auto& entry) { return entry.second.id == u.record.roundId; });
        if (open != open_.end()) {
            place(open->second, u.record, u.body);
        }
    }
    endOpenedBefore(INT64_MAX);
    for (auto& [game, track] : next.open_) {
        open_[game] = std::move(track);
    }
    rounds_ += next.rounds_;
    for (const auto& [game, count] : next.roundsByGame_) {
        roundsByGame_[game] += count;
    }
    problems_.insert(problems_.end(), std::make_move_iterator(next.problems_.begin()),
                     std::make_move_iterator(next.problems_.end()));
}

void RoundAuditor::finish() {
    for (const auto& [game, t] : open_) {
        finish(t, true, INT64_MAX);
    }
    open_.clear();
}

std::vector<std::string> RoundAuditor::problems() const {
    std::vector<FoundProblem> inOrder = problems_;
    std::stable_sort(inOrder.begin(), inOrder.end(),
                     [](const FoundProblem& a, const FoundProblem& b) { return a.first < b.first; });
    std::vector<std::string> out;
    out.reserve(inOrder.size());
    for (auto& [seq, what] : inOrder) {
        out.push_back(std::move(what));
    }
    return out;
}

void RoundAuditor::finish(const Track& t, bool last, std::int64_t at) {
    if (t.endings == 0) {
        if (!last) {
            problem(t, at, "never settled or voided");
        }
    } else if (t.endings > 1) {
        problem(t, at, "ended " + std::to_string(t.endings) + " times");
    } else if (t.voided) {
        Sums stakes;
        for (const auto& [bet, standing] : t.stakes) {
            stakes[standing.station] += standing.stake;
        }
        if (!t.settlements.empty()) {
            problem(t, at, "voided but has settled bets");
        }
        if (stakes != t.creditedByStation) {
            problem(t, at, "voided but the stakes returned differ from the stakes standing");
        }
    } else {
        checkCoverage(t, at);
        if (t.expectedByStation != t.creditedByStation) {
            problem(t, at, "settlement credits differ from what its bets returned");
        }
    }
}

void RoundAuditor::checkCoverage(const Track& t, std::int64_t at) {
    std::set<std::int64_t> covered;
    std::set<std::pair<std::int64_t, std::string>> spots;
    for (const Settlement& s : t.settlements) {
        const std::string which = "bet.settled " + std::to_string(s.seq);
        game::Int128 sum = 0;
        bool standing = true;
        for (const std::int64_t bet : s.covers) {
            if (!covered.insert(bet).second) {
                problem(t, at, "bet " + std::to_string(bet) + " settled twice");
            }
            const auto it = t.stakes.find(bet);
            if (it == t.stakes.end()) {
                problem(t, at, which + " settles bet " + std::to_string(bet) + ", which was not standing");
                standing = false;
                continue;
            }
            if (it->second.station != s.station || it->second.spot != s.spot) {
                problem(t, at, which + " settles bet " + std::to_string(bet) + " of another station or spot");
            }
            sum += it->second.stake;
        }
        if (standing && sum != s.stake) {
            problem(t, at,
                    which + " settles a stake of " + std::to_string(s.stake) + ", its bets sum to " +
                        std::to_string(static_cast<std::int64_t>(sum)));
        }
        if (t.rule == game::SettleRule::PerSpot && !spots.emplace(s.station, s.spot).second) {
            problem(
                t, at,
                "station " + std::to_string(s.station) + "'s " + s.spot + " is settled in parts; a spot is one bet");
        }
    }
    for (const auto& [bet, standing] : t.stakes) {
        if (covered.count(bet) == 0) {
            problem(t, at, "bet " + std::to_string(bet) + " was never settled");
        }
    }
}

void RoundAuditor::problem(const Track& t, std::int64_t at, const std::string& what) {
    problems_.emplace_back(at, "round " + std::to_string(t.id) + ": " + what);
}

// ---- RecordAuditor

RecordAuditor::RecordAuditor(Start start)
    : start_(start), replaying_(start == Start::FromFirst), rounds_(start == Start::Unknown) {}

std::string RecordAuditor::visit(const JournalRecord& record) {
    const bool snapshot = record.kind == kind::kMetersSnapshot;
    if (!replaying_) {
        if (start_ == Start::Unknown) {
            // Kept for absorb(), which replays them where the records before left the meters.
            if (beforeSnapshot_.size() < kMostKept) {
                beforeSnapshot_.push_back(record);
            } else {
                keptAll_ = false;
            }
        }
        if (snapshot) {
            try {
                json parsed = bodies_.parse(record.body);
                if (parsed.is_discarded()) {
                    parsed = json::parse(record.body);  // throws what is wrong with it
                }
                Ledger base = Ledger::fromJson(parsed);
                if (start_ == Start::Unknown) {
                    startedFrom_ = base;
                }
                replay_ = LedgerReplay(std::move(base));
                replaying_ = true;
            } catch (const std::exception& error) {
                if (start_ != Start::Unknown) {
                    return "record " + std::to_string(record.seq) + ": " + error.what();
                }
                keptAll_ = false;  // the auditor it is joined to finds what is wrong with it
            }
            return {};
        }
        if (start_ == Start::FromFirstSnapshot) {
            return {};  // the meters and rounds before the first snapshot are the archive's
        }
    }
    // Each body is parsed once, and only when a check reads it.
    const bool ledgerReads = replaying_ && (snapshot || Ledger::readsBody(record.kind));
    const bool roundsRead = record.roundId.has_value() && RoundAuditor::readsBody(record.kind);
    const json* parsed = &noBody();
    if (ledgerReads || roundsRead) {
        parsed = &bodies_.parse(record.body, record.kind);  // kept by bodies_ until its next of the kind
        if (!parsed->is_object()) {
            return notAnObject(record);
        }
    } else if (replaying_ && !bodies_.isObject(record.body)) {
        return notAnObject(record);
    }
    const json& body = *parsed;
    if (replaying_) {
        if (std::string problem = replay_.visit(record, body); !problem.empty()) {
            return problem;
        }
    }
    if (record.roundId) {
        try {
            rounds_.visit(record, body);
        } catch (const json::exception& error) {
            return "record " + std::to_string(record.seq) + ": " + error.what();
        }
    }
    return {};
}

bool RecordAuditor::absorb(RecordAuditor&& next) {
    if (!replaying_ || !next.keptAll_ || !next.startedFrom_ || !rounds_.canAbsorb(next.rounds_)) {
        return false;
    }
    LedgerReplay replay = replay_;
    for (const JournalRecord& record : next.beforeSnapshot_) {
        if (!replay.visit(record).empty()) {
            return false;  // visited again here, the records stop at it as one auditor stops
        }
    }
    if (!(replay.ledger() == *next.startedFrom_)) {
        return false;  // e.g. a snapshot from before plays were kept: the replay goes on from its own
    }
    // The records `next` could not place are read here for the first time: a body that does not
    // fit stops one pass at that record, so the segment is then read again in order.
    RoundAuditor rounds = rounds_;
    try {
        rounds.absorb(std::move(next.rounds_));
    } catch (const json::exception&) {
        return false;
    }
    replay_ = LedgerReplay(next.replay_.take(), replay.snapshotsCompared() + next.replay_.snapshotsCompared());
    rounds_ = std::move(rounds);
    return true;
}

void RecordAuditor::finish(AuditReport& report) {
    rounds_.finish();
    report.snapshotsCompared = replay_.snapshotsCompared();
    report.roundsChecked = rounds_.rounds();
    report.roundsByGame = rounds_.roundsByGame();
    report.roundProblems = rounds_.problems();
    report.ledger = replay_.take();
}

}  // namespace pitlink::journal
