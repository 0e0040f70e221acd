#include "daemon/journal/chain_verifier.h"

namespace pitlink::journal {

ChainCheck verifyChain(JournalStore& store, std::int64_t from, const RecordVisitor& visit) {
    ChainCheck check;
    check.from = from < 1 ? 1 : from;
    Digest previous = kGenesisDigest;
    if (check.from > 1) {
        const auto before = store.record(check.from - 1);
        if (!before) {
            check.ok = false;
            check.firstBadSeq = check.from - 1;
            check.problem = "record " + std::to_string(check.from - 1) + " is missing";
            return check;
        }
        previous = before->hash;
    }
    std::int64_t expected = check.from;
    std::string canonical;
    auto fail = [&](std::int64_t seq, std::string problem) {
        check.ok = false;
        check.firstBadSeq = seq;
        check.problem = std::move(problem);
        return false;
    };
    store.forEach(check.from, INT64_MAX, [&](const JournalRecord& record) {
        if (record.seq != expected) {
            return fail(expected, "record " + std::to_string(expected) +
                                      " is missing (next found: " + std::to_string(record.seq) + ")");
        }
        canonical.clear();
        appendCanonicalBytes(record, canonical);
        if (store.hasher().link(previous, canonical) != record.hash) {
            return fail(record.seq, "record " + std::to_string(record.seq) + " (" + record.kind +
                                        ") does not match its chain link: edited, or signed with another key");
        }
        if (visit) {
            if (std::string problem = visit(record); !problem.empty()) {
                return fail(record.seq, std::move(problem));
            }
        }
        previous = record.hash;
        ++expected;
        ++check.checked;
        return true;
    });
    return check;
}

}  // namespace pitlink::journal
