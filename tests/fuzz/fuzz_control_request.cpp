// libFuzzer: any bytes as one control-socket line. parseControlRequest must give a request or a
// refusal, never crash; a request it accepts carries the fields its command needs, in range, and
// reads back the same from what pitlinkctl would write for it (requestJson).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocols/control/control_request.h"

namespace {

using namespace pitlink::control;

void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

void checkFields(const ControlRequest& r) {
    switch (*r.command) {
        case Command::Resettle:
            check(r.round && *r.round >= 1 && r.cards.size() >= 4 && r.cards.size() <= 6);
            check(!r.reason.empty() && r.reason.size() <= kMaxReasonChars);
            break;
        case Command::VoidRound:
            check(!r.reason.empty() && r.reason.size() <= kMaxReasonChars);
            break;
        case Command::AttendantClear:
        case Command::HandpayReset:
            check(r.station.has_value());
            break;
        case Command::Recall:
            check(r.last >= 1 && r.last <= kMostRecalled);
            break;
        default:
            break;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const auto parsed = parseControlRequest(line);
    if (const auto* malformed = std::get_if<MalformedRequest>(&parsed)) {
        check(!malformed->refusal.error.empty() && !malformed->refusal.message.empty());
        return 0;
    }
    const ControlRequest& r = std::get<ControlRequest>(parsed);
    if (r.invalid) {
        check(!r.invalid->error.empty() && !r.invalid->message.empty());
        return 0;
    }
    check(r.command.has_value());
    checkFields(r);
    const auto again = parseControlRequest(requestJson(r).dump());
    const auto* back = std::get_if<ControlRequest>(&again);
    check(back != nullptr && !back->invalid && back->command == r.command && back->station == r.station &&
          back->round == r.round && back->shoe == r.shoe && back->last == r.last && back->reason == r.reason &&
          back->cause == r.cause && back->cards == r.cards && back->id == r.id);
    return 0;
}
