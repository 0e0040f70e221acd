#include "protocols/sas/multi_denom_preamble.h"

#include <algorithm>

#include "protocols/sas/crc16_kermit.h"

namespace pitlink::sas {

namespace {

enum class PreambleError : std::uint8_t {
    NotSupported = 0x01,
    ImproperlyFormatted = 0x02,
    NotMultiDenomAware = 0x03,
    DenominationNotSupported = 0x04,
    NotPlayerDenomination = 0x05,
};

constexpr std::uint8_t kMaxDenominationCode = 0x3F;  // Table C-4

std::vector<std::uint8_t> answered(const Poll& poll, std::uint8_t denom, const std::vector<std::uint8_t>& inner) {
    std::vector<std::uint8_t> out{poll.address, 0xB0, 0, denom};
    out.insert(out.end(), inner.begin(), inner.end());
    out[2] = static_cast<std::uint8_t>(out.size() - 3);
    appendCrc(out);
    return out;
}

std::vector<std::uint8_t> refused(const Poll& poll, std::uint8_t denom, PreambleError error) {
    return answered(poll, denom, {0x00, static_cast<std::uint8_t>(error)});
}

}  // namespace

bool isMultiDenomAware(std::uint8_t command) {
    switch (command) {
        case 0x2F:  // selected meters for game N
        case 0x53:  // game N configuration
        case 0x56:  // enabled games
        case 0x6F:  // extended meters for game N
        case 0xAF:
        case 0xB5:  // extended game N information
            return true;
        default:
            return false;
    }
}

std::optional<std::vector<std::uint8_t>> answerMultiDenomPreamble(const Poll& poll,
                                                                  std::span<const std::uint8_t> offered,
                                                                  const LongPollAnswer& answer) {
    // addr B0 len denom base [data] CRC: at least a denomination and a base command.
    if (poll.bytes.size() < 7 || poll.bytes[2] != poll.bytes.size() - 5) {
        return std::nullopt;
    }
    const std::uint8_t denom = poll.bytes[3];
    const std::uint8_t base = poll.bytes[4];
    if (denom > kMaxDenominationCode) {
        return refused(poll, denom, PreambleError::NotPlayerDenomination);
    }
    if (denom != 0x00 && std::find(offered.begin(), offered.end(), denom) == offered.end()) {
        return refused(poll, denom, PreambleError::DenominationNotSupported);
    }
    if (!isMultiDenomAware(base)) {
        return refused(poll, denom, PreambleError::NotMultiDenomAware);
    }
    // The base poll as if it had come alone: addr base data CRC.
    Poll inner;
    inner.kind = PollKind::Long;
    inner.address = poll.address;
    inner.command = base;
    inner.bytes = {poll.address, base};
    inner.bytes.insert(inner.bytes.end(), poll.bytes.begin() + 5, poll.bytes.end() - 2);
    appendCrc(inner.bytes);
    const auto baseAnswer = answer(inner, denom);
    if (!baseAnswer || baseAnswer->size() < 4) {
        return refused(poll, denom, baseAnswer ? PreambleError::NotSupported : PreambleError::ImproperlyFormatted);
    }
    // Without the base answer's address and CRC.
    return answered(poll, denom, std::vector<std::uint8_t>(baseAnswer->begin() + 1, baseAnswer->end() - 2));
}

}  // namespace pitlink::sas
