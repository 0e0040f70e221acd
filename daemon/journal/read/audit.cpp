#include "daemon/journal/read/audit.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

#include "daemon/journal/read/record_audit.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store/chain_hasher.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// The first game a segment's carried state names (a controller of several games): the records of
// the segment before are divided among the games as the daemon divided them.
std::string firstGameCarried(const std::optional<json>& carried) {
    if (carried && carried->at("table").contains("first_game") && carried->at("table").at("first_game").is_string()) {
        return carried->at("table").at("first_game").get<std::string>();
    }
    return {};
}

// What is wrong with the seal of a segment that starts at `first`, whose segment.sealed names the
// link `link` and which carried `carried`, after a segment that ends at `lastSeq` with `lastHash`
// and whose records leave the facts `facts` (resumeFactsJson); empty when nothing is.
std::string sealProblem(const std::string& where, std::int64_t first, const std::optional<Digest>& link,
                        const std::optional<json>& carried, std::int64_t lastSeq, const Digest& lastHash, json facts) {
    if (first != lastSeq + 1) {
        return where + " starts at record " + std::to_string(first) + ", the one before it ends at " +
               std::to_string(lastSeq);
    }
    if (link != lastHash) {
        return where + ": its segment.sealed does not name the last link of the segment before it";
    }
    if (!carried || !carriedMatches(carried->at("table"), std::move(facts))) {
        return where + ": the state it carried over differs from the segment before it";
    }
    return {};
}

}  // namespace

bool carriedMatches(const json& carriedTable, json facts) {
    if (!carriedTable.contains("shoe")) {
        // Sealed before issue 33: the shoe in play was not carried over (its table started a new
        // shoe after such a rotation); what it carried is compared without it.
        facts.erase("shoe");
    }
    // Sealed before issue 38: a shoe carried without the burn's face-down cards ("burn_hidden"),
    // which the facts of its records now name; compared without them.
    const auto withoutHidden = [](const json& carriedGame, json& game) {
        if (carriedGame.contains("shoe") && !carriedGame.at("shoe").contains("burn_hidden") && game.contains("shoe")) {
            game["shoe"].erase("burn_hidden");
        }
    };
    withoutHidden(carriedTable, facts);
    if (carriedTable.contains("other_games") && facts.contains("other_games")) {
        for (auto& [name, game] : facts["other_games"].items()) {
            if (carriedTable.at("other_games").contains(name)) {
                withoutHidden(carriedTable.at("other_games").at(name), game);
            }
        }
    }
    return carriedTable == facts;
}

std::string checkSegmentSeal(SegmentedJournal& journal, std::size_t index, std::optional<json>* carried) {
    JournalStore& before = journal.segment(index - 1);
    const std::int64_t lastSeq = before.tipSeq();
    const Digest lastHash = before.tipHash();
    JournalStore& store = journal.segment(index);
    auto next = carriedState(store);
    const std::string firstGame = firstGameCarried(next);
    json facts = resumeFactsJson(carried != nullptr && index > 1 ? resumeFacts(before, *carried, firstGame)
                                                                 : resumeFacts(before, firstGame));
    const std::int64_t first = store.firstSeq();
    std::string problem = sealProblem("segment " + journal.file(index), first, sealedLink(store, first), next, lastSeq,
                                      lastHash, std::move(facts));
    if (carried != nullptr) {
        *carried = std::move(next);
    }
    return problem;
}

struct StreamAudit::State {
    State(std::optional<std::vector<std::uint8_t>> key, std::int64_t firstSeq, const Digest& before)
        : hasher(std::move(key)),
          auditor(firstSeq <= 1 ? RecordAuditor::Start::FromFirst : RecordAuditor::Start::FromFirstSnapshot),
          next(firstSeq),
          previous(before) {
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
    s.canonical.clear();
    appendCanonicalBytes(record, s.canonical);
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

namespace {

// What the audit knows of a segment before reading its records.
struct SegmentOpening {
    std::int64_t first = 0;
    std::optional<Digest> sealedLink;  // segments after the first
    std::optional<json> carried;       // its segment.carried
    std::exception_ptr error;          // it could not be opened or read: thrown when the audit reaches it
};

// One pass over a segment's records: the chain, the records through the auditor, and the facts the
// segment leaves to the next (`nextFirstGame` names the next's first game; none: the last segment).
// Its implicit special members only move std and nlohmann values; clang-tidy 14 reports a
// possible throw there that it cannot place (as for RoundHistory).
// NOLINTNEXTLINE(bugprone-exception-escape)
struct SegmentPass {
    ChainCheck chain;
    std::int64_t lastSeq = 0;
    Digest lastHash = kGenesisDigest;
    json facts;
};

SegmentPass passOver(JournalStore& store, RecordAuditor& auditor, const SegmentOpening& opening,
                     const std::optional<std::string>& nextFirstGame) {
    SegmentPass pass;
    ResumeRecordScan resumed;  // the records the facts left to the next segment are read from
    pass.chain = verifyChain(store, store.firstSeq(), [&](const JournalRecord& record) {
        if (nextFirstGame) {
            resumed.visit(record);
        }
        return auditor.visit(record);
    });
    pass.lastSeq = store.tipSeq();
    pass.lastHash = store.tipHash();
    if (const std::int64_t lowest = store.lowestSeq(); pass.chain.ok && lowest != 0 && lowest < pass.chain.from) {
        // A row the chain does not reach (the pass reads from the segment's first record on):
        // put there by hand, and read by a start-up's queries of the segment.
        pass.chain.ok = false;
        pass.chain.firstBadSeq = lowest;
        pass.chain.problem = "record " + std::to_string(lowest) + " is stored before the first record of the chain (" +
                             std::to_string(pass.chain.from) + ")";
    }
    if (pass.chain.ok && nextFirstGame) {
        pass.facts = resumeFactsJson(resumeFacts(store, opening.carried, *nextFirstGame, std::move(resumed)));
    }
    return pass;
}

// A segment's pass made beside the others, its records followed by an auditor of its own.
struct ParallelPass {
    std::optional<SegmentPass> pass;
    std::optional<RecordAuditor> auditor;
    std::exception_ptr error;
};

}  // namespace

AuditReport auditJournal(SegmentedJournal& journal, unsigned threads) {
    const std::size_t n = journal.size();
    std::vector<SegmentOpening> openings(n);
    for (std::size_t i = 0; i < n; ++i) {
        try {
            JournalStore& store = journal.segment(i);
            openings[i].first = store.firstSeq();
            openings[i].carried = carriedState(store);
            if (i > 0) {
                openings[i].sealedLink = sealedLink(store, openings[i].first);
            }
        } catch (...) {
            openings[i].error = std::current_exception();  // as one pass meets it: not before what comes first
        }
    }
    if (openings[0].error) {
        std::rethrow_exception(openings[0].error);
    }
    const auto nextFirstGame = [&](std::size_t i) -> std::optional<std::string> {
        return i + 1 < n && !openings[i + 1].error ? std::optional(firstGameCarried(openings[i + 1].carried))
                                                   : std::nullopt;
    };
    // A journal whose oldest segments were archived away starts from its first segment's opening
    // snapshot; the records before it are the archive's to check.
    RecordAuditor auditor(openings[0].first <= 1 ? RecordAuditor::Start::FromFirst
                                                 : RecordAuditor::Start::FromFirstSnapshot);
    // Beside each other: each segment's chain from its seal, its meters from its opening snapshot
    // and its rounds on their own; joined below in order, as one pass over every record would
    // have found them (a segment that cannot be joined is read again in that pass).
    std::vector<ParallelPass> beside(threads > 1 && n > 1 ? n : 0);
    if (!beside.empty()) {
        std::atomic<std::size_t> next{1};
        const auto work = [&] {
            for (std::size_t i = next++; i < n; i = next++) {
                if (openings[i].error || (i + 1 < n && openings[i + 1].error)) {
                    continue;  // read in order when the audit reaches it
                }
                try {
                    const auto store = journal.openSegment(i);
                    beside[i].auditor.emplace(RecordAuditor::Start::Unknown);
                    beside[i].pass = passOver(*store, *beside[i].auditor, openings[i], nextFirstGame(i));
                } catch (...) {
                    beside[i].error = std::current_exception();
                }
            }
        };
        std::vector<std::thread> workers;
        for (unsigned t = 1; t < std::min<std::size_t>(threads, n); ++t) {
            try {
                workers.emplace_back(work);
            } catch (const std::system_error&) {
                break;  // no more threads to be had: those started and this one do the work
            }
        }
        // Segment 0 here, where the audit starts from what it knows.
        try {
            beside[0].pass = passOver(journal.segment(0), auditor, openings[0], nextFirstGame(0));
        } catch (...) {
            beside[0].error = std::current_exception();
        }
        work();
        for (std::thread& worker : workers) {
            worker.join();
        }
    }
    AuditReport report;
    report.chain.from = openings[0].first;
    std::optional<SegmentPass> before;
    for (std::size_t i = 0; i < n; ++i) {
        if (openings[i].error) {
            std::rethrow_exception(openings[i].error);
        }
        if (i > 0) {
            if (std::string problem =
                    sealProblem("segment " + journal.file(i), openings[i].first, openings[i].sealedLink,
                                openings[i].carried, before->lastSeq, before->lastHash, std::move(before->facts));
                !problem.empty()) {
                report.chain.ok = false;
                report.chain.firstBadSeq = openings[i].first;
                report.chain.problem = std::move(problem);
                break;
            }
        }
        std::optional<SegmentPass> pass;
        if (!beside.empty()) {
            if (i == 0 && beside[0].error) {
                std::rethrow_exception(beside[0].error);  // one pass, from where the audit starts
            }
            // A segment whose pass beside threw (a body its start could not check yet) is read
            // again in order, where it stops as one pass stops, or throws as one pass throws.
            if (i == 0 || (beside[i].pass && auditor.absorb(std::move(*beside[i].auditor)))) {
                pass = std::move(beside[i].pass);
            }
        }
        if (!pass) {
            report.segmentsReadAgain += beside.empty() ? 0 : 1;
            pass = passOver(journal.segment(i), auditor, openings[i], nextFirstGame(i));
        }
        report.chain.checked += pass->chain.checked;
        if (!pass->chain.ok) {
            report.chain.ok = false;
            report.chain.firstBadSeq = pass->chain.firstBadSeq;
            report.chain.problem =
                n > 1 ? "segment " + journal.file(i) + ": " + pass->chain.problem : pass->chain.problem;
            break;
        }
        before = std::move(pass);
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
