#include "daemon/journal/store/chain_verifier.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

std::optional<Digest> sealedLink(JournalStore& store, std::int64_t first) {
    const auto record = store.record(first);
    if (!record || record->kind != kind::kSegmentSealed) {
        return std::nullopt;
    }
    const auto body = nlohmann::json::parse(record->body, nullptr, false);
    const auto hex = body.is_object() && body.contains("last_hash") && body["last_hash"].is_string()
                         ? body["last_hash"].get<std::string>()
                         : std::string();
    const auto bytes = fromHex(hex);
    Digest link{};
    if (!bytes || bytes->size() != link.size() || hex != toHex(*bytes)) {
        return std::nullopt;  // the seal writes it in lower case, as toHex does
    }
    std::copy(bytes->begin(), bytes->end(), link.begin());
    return link;
}

bool sealNames(const JournalRecord& sealed, std::int64_t lastSeq, const Digest& lastHash) {
    const auto body = nlohmann::json::parse(sealed.body, nullptr, false);
    return body.is_object() && body.contains("last_seq") && body["last_seq"].is_number_integer() &&
           body["last_seq"].get<std::int64_t>() == lastSeq && body.contains("last_hash") &&
           body["last_hash"].is_string() && body["last_hash"].get<std::string>() == toHex(lastHash);
}

ChainCheck verifyChain(JournalStore& store, std::int64_t from, const RecordVisitor& visit) {
    ChainCheck check;
    const std::int64_t first = store.firstSeq();
    check.from = std::max(from, first);
    Digest previous = kGenesisDigest;
    if (check.from == first && first > 1) {
        // A segment after the first: its first record chains from the sealed segment's last one,
        // which its segment.sealed names (checked against that segment by verifySegments).
        const auto link = sealedLink(store, first);
        if (!link) {
            check.ok = false;
            check.firstBadSeq = first;
            check.problem = "the journal starts at record " + std::to_string(first) +
                            " without a segment.sealed record naming the link before it";
            return check;
        }
        previous = *link;
    } else if (check.from > 1) {
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
