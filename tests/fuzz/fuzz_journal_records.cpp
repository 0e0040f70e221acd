// Fuzz target: journal records as a damaged or hostile journal file could hold them, through
// everything that reads records: the ledger replay (credits, meters, snapshots), the round
// reconstruction used by recovery and recall, the recall JSON, and the journaled paytable
// decoder. Input: lines "kind<TAB>round<TAB>station<TAB>body". Anything may be refused with an
// error; nothing may crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon/journal/ledger/ledger_replay.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/paytable_codec.h"

namespace {

std::optional<std::int64_t> optionalNumber(const std::string& text) {
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
    }
    return std::stoll(text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace pitlink::journal;
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<JournalRecord> records;
    std::string line;
    std::int64_t seq = 0;
    while (std::getline(in, line) && records.size() < 64) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (int i = 0; i < 3; ++i) {
            const std::size_t tab = line.find('\t', start);
            if (tab == std::string::npos) {
                break;
            }
            fields.push_back(line.substr(start, tab - start));
            start = tab + 1;
        }
        if (fields.size() != 3) {
            continue;
        }
        records.push_back(JournalRecord{
            ++seq, 0, fields[0], optionalNumber(fields[1]), optionalNumber(fields[2]), line.substr(start), {}});
    }
    LedgerReplay replay;
    for (const JournalRecord& record : records) {
        if (!replay.visit(record).empty()) {
            break;
        }
        const auto body = nlohmann::json::parse(record.body, nullptr, false);
        if (record.kind == "paytable.loaded" && body.is_object() && body.contains("content")) {
            try {
                (void)paytableFromJson(body["content"]);
            } catch (const std::invalid_argument&) {
            }
        }
    }
    (void)replay.ledger().toJson();
    try {
        RecalledRound recalled{reconstructRound(records), {}};
        (void)recalledRoundJson(recalled);
        std::string problem;
        (void)completeCoup(recalled.round.cards, problem);
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
