// Fuzz target: the typed records' readers (daemon/journal/records/*_records.h, `fromBody`), the
// structs SAS exceptions, the ledger and the resume take from stored bodies, given a body a
// damaged or forged journal could hold. Input: a record's body (JSON). Every readable kind reads
// it; each may refuse it with a json::exception (BodyError); nothing else may escape, crash or
// hang, and what a reader accepts must come back out the same: its body written again and read
// again is the body it wrote. The shoe in play (shoe_in_play.h) follows the body as each of the
// kinds it reads: it may refuse it the same way, and nothing else.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "daemon/journal/records/aft_records.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/protection_records.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/journal/records/start_records.h"
#include "daemon/journal/records/station_records.h"
#include "daemon/journal/records/typed_record.h"
#include "daemon/journal/shoe_in_play.h"
#include "daemon/journal/store/record.h"

namespace {

using nlohmann::json;

template <pitlink::journal::ReadableRecord R>
void readAndWriteAgain(const json& body) {
    R record;
    try {
        record = pitlink::journal::readBody<R>(body);
    } catch (const json::exception&) {
        return;  // refused: what a reader of a damaged journal must do
    }
    const std::string written = pitlink::journal::canonicalJson(toBody(record));
    const std::string again = pitlink::journal::canonicalJson(toBody(pitlink::journal::readBody<R>(toBody(record))));
    if (written != again) {
        throw std::logic_error(std::string(R::kKind) + " does not come back the same: " + written + " / " + again);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace j = pitlink::journal;
    const json body = json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
    if (body.is_discarded()) {
        return 0;
    }
    readAndWriteAgain<j::CreditRecord>(body);
    readAndWriteAgain<j::TicketIssuedRecord>(body);
    readAndWriteAgain<j::TicketRedeemedRecord>(body);
    readAndWriteAgain<j::HandpayPendingRecord>(body);
    readAndWriteAgain<j::RoundClosedRecord>(body);
    readAndWriteAgain<j::RoundVoidedRecord>(body);
    readAndWriteAgain<j::SasExceptionRecord>(body);
    readAndWriteAgain<j::SasAckedRecord>(body);
    readAndWriteAgain<j::SasQueueRecord>(body);
    readAndWriteAgain<j::SasValidationIdRecord>(body);
    readAndWriteAgain<j::SasHostEnabledRecord>(body);
    readAndWriteAgain<j::SasMachineNumbersRecord>(body);
    readAndWriteAgain<j::SasTicketSetupRecord>(body);
    readAndWriteAgain<j::SasLegacyBonusReadRecord>(body);
    readAndWriteAgain<j::AftRegistrationRecord>(body);
    readAndWriteAgain<j::AftTransferRecord>(body);
    readAndWriteAgain<j::AftAcknowledgedRecord>(body);
    readAndWriteAgain<j::ClockSetRecord>(body);
    readAndWriteAgain<j::ConfigLoadedRecord>(body);
    readAndWriteAgain<j::StationReservedRecord>(body);
    readAndWriteAgain<j::StationGamesRecord>(body);
    readAndWriteAgain<j::ShoeStartedRecord>(body);
    readAndWriteAgain<j::ShoeCutRecord>(body);
    readAndWriteAgain<j::ShoeBurnedRecord>(body);
    readAndWriteAgain<j::RoundOpenedRecord>(body);
    readAndWriteAgain<j::CardDealtRecord>(body);
    readAndWriteAgain<j::ShoeEdgeRecord>(body);
    readAndWriteAgain<j::ProtectionAlertRecord>(body);
    for (const std::string_view kind : j::shoeRecordKinds()) {
        std::optional<j::ShoeInPlay> shoe =
            j::ShoeInPlay{1, 1, 1, 10, true, pitlink::game::ShoeComposition::fullDecks(1), {}, {}};
        try {
            j::followShoe(shoe, kind, body);
        } catch (const json::exception&) {
            continue;
        }
        if (shoe && shoe->left.total() > 8 * pitlink::game::kCardsPerDeck) {
            throw std::logic_error("a shoe holds more cards than eight decks after " + std::string(kind));
        }
    }
    return 0;
}
