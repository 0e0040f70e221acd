#include "daemon/journal/ledger/ledger_replay.h"

#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

std::string LedgerReplay::visit(const JournalRecord& record) {
    const auto body = nlohmann::json::parse(record.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        return "record " + std::to_string(record.seq) + " has a body that is not a JSON object";
    }
    return visit(record, body);
}

std::string LedgerReplay::visit(const JournalRecord& record, const nlohmann::json& body) {
    try {
        if (record.kind == kind::kMetersSnapshot) {
            const Ledger stored = Ledger::fromJson(body);
            ++snapshots_;
            if (std::string difference = ledger_.differenceFrom(stored); !difference.empty()) {
                return "meters recomputed from the records differ from snapshot " + std::to_string(record.seq) + ": " +
                       difference + " (recomputed != stored)";
            }
            if (!stored.playsKnown()) {
                ledger_.adoptPlaysOf(stored);  // as the start-up from it did
            }
            return {};
        }
        ledger_.apply(record, body);
    } catch (const LedgerError& error) {
        return error.what();
    } catch (const nlohmann::json::exception& error) {
        return "record " + std::to_string(record.seq) + ": " + error.what();
    }
    return {};
}

}  // namespace pitlink::journal
