#include "protocols/sas/sas_station.h"

#include <algorithm>

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/long_poll_meters.h"
#include "protocols/sas/long_poll_tickets.h"
#include "protocols/sas/multi_denom_preamble.h"

namespace pitlink::sas {

namespace {

// A frame under construction. (Built by push_back into reserved room: GCC 12 reports a false
// -Warray-bounds on insert into a vector made from an initializer list.)
std::vector<std::uint8_t> frameOf(std::uint8_t address, std::uint8_t command) {
    std::vector<std::uint8_t> frame;
    frame.reserve(64);
    frame.push_back(address);
    frame.push_back(command);
    return frame;
}

}  // namespace

SasStation::SasStation(std::uint8_t address, MachineInfo info, const MeterSource& meters, StationHost& host,
                       TicketHost& tickets, ExceptionQueue& exceptions)
    : address_(address),
      info_(std::move(info)),
      meters_(meters),
      host_(host),
      tickets_(tickets),
      exceptions_(exceptions) {}

std::vector<std::uint8_t> SasStation::generalPoll() {
    aftInterrogationReported_ = false;  // a link down dropped the answer it was about unacknowledged
    bonusWinReported_ = false;
    reported_ = exceptions_.next();
    if (!reported_) {
        return {0x00};
    }
    ++stats_.exceptionsReported;
    if (const auto game = gameSelectedBy(*reported_)) {
        reportedGame_ = *game;
    }
    if (!realTimeEvents_) {
        return {reported_->code};
    }
    std::vector<std::uint8_t> frame = frameOf(address_, 0xFF);
    frame.push_back(reported_->code);
    for (const std::uint8_t b : reported_->eventData) {
        frame.push_back(b);
    }
    appendCrc(frame);
    return frame;
}

void SasStation::acknowledged() {
    if (reported_ && exceptions_.acknowledge(*reported_)) {
        ++stats_.exceptionsAcknowledged;
    }
    reported_.reset();
    if (recordReported_) {
        recordReported_ = false;
        tickets_.recordAcknowledged();
    }
    if (aftInterrogationReported_) {
        aftInterrogationReported_ = false;
        if (aft_ != nullptr) {
            aft_->interrogationAcknowledged();
        }
    }
    if (bonusWinReported_) {
        bonusWinReported_ = false;
        if (legacyBonus_ != nullptr) {
            legacyBonus_->lastBonusAcknowledged();
        }
    }
}

std::optional<std::vector<std::uint8_t>> SasStation::longPoll(const Poll& poll) {
    aftInterrogationReported_ = false;
    bonusWinReported_ = false;
    return answer(poll, 0);
}

std::optional<std::vector<std::uint8_t>> SasStation::answer(const Poll& poll, std::uint8_t denomination) {
    if (poll.command == 0xB0) {
        // Any denomination the station offers: its play (every game's meters at it, the games
        // enabled at it); never a B0 again (B0 is not multi-denomination aware: 03).
        const std::vector<std::uint8_t> offered = playerDenominationsOf(info_);
        return answerMultiDenomPreamble(poll, offered,
                                        [this](const Poll& inner, std::uint8_t denom) { return answer(inner, denom); });
    }
    if (isMeterPoll(poll.command)) {
        return answerMeterPoll(poll, meters_, MeterPollContext{gameCountOf(info_), denomination});
    }
    if (isMachinePoll(poll.command)) {
        const StationNow now{host_.clock(), host_.playerDenomination().value_or(info_.denominationCode),
                             reportedGame_.value_or(host_.selectedGame()), host_.enabledGames(),
                             host_.cashoutLimitCredits()};
        return answerMachinePoll(poll, info_, now, denomination);
    }
    if (poll.command == 0x72 || poll.command == 0x73 || poll.command == 0x74) {
        return aft_ == nullptr ? std::nullopt : aftPoll(poll);
    }
    if (poll.command == 0x8A || poll.command == 0x90 || poll.command == 0x9A) {
        return legacyBonus_ == nullptr ? std::nullopt : legacyBonusPoll(poll);
    }
    if (isTicketPoll(poll.command)) {
        auto answered = answerTicketPoll(poll, tickets_);
        recordReported_ = answered && poll.command == 0x4D && poll.bytes.size() > 2 && poll.bytes[2] == 0x00 &&
                          tickets_.validationRecord(0xFF).has_value();
        return answered;
    }
    return controlPoll(poll);
}

// LP 72, 73, 74 (protocols/sas/aft_polls.h); what they decide is the AftHost's.
std::optional<std::vector<std::uint8_t>> SasStation::aftPoll(const Poll& poll) {
    if (poll.command == 0x73) {
        const auto request = aft::parseRegistration(poll);
        const auto answer = request ? aft_->registration(*request) : std::nullopt;
        return answer ? std::optional(aft::registrationAnswer(address_, *answer)) : std::nullopt;
    }
    if (poll.command == 0x74) {
        const auto request = aft::parseLock(poll);
        return request ? std::optional(aft::lockAnswer(address_, aft_->lock(*request))) : std::nullopt;
    }
    const auto parsed = aft::parseTransfer(poll);
    if (!parsed) {
        return std::nullopt;
    }
    aft::TransferReply reply;
    if (const auto* request = std::get_if<aft::TransferRequest>(&*parsed)) {
        reply = aft_->transfer(*request);
    } else if (const auto* query = std::get_if<aft::TransferQuery>(&*parsed)) {
        reply = aft_->interrogate(*query);
        // An FF of the current transfer answered with its final status: the host's next other poll
        // acknowledges it. A pending one (40) is not acknowledged by anything: the host has not
        // seen how it ended, even if it ends before that poll.
        const auto* answer = std::get_if<aft::TransferAnswer>(&reply);
        aftInterrogationReported_ = query->code == aft::kInterrogate && query->index == 0 && answer != nullptr &&
                                    answer->status != aft::status::kPending;
    } else {
        // Malformed (82, 83, 95) or an unknown transfer code (C1): said at once, nothing recorded.
        const std::uint8_t refused = std::get<aft::TransferRefusal>(*parsed).status;
        if (refused == aft::status::kUnsupportedCode) {
            reply = aft::ShortTransferAnswer{0, refused};
        } else {
            aft::TransferAnswer answer;
            answer.status = refused;
            reply = answer;
        }
    }
    return aft::transferReplyBytes(address_, reply);
}

// LP 8A, 90, 9A (protocols/sas/legacy_bonus_polls.h); what they decide is the LegacyBonusHost's.
std::optional<std::vector<std::uint8_t>> SasStation::legacyBonusPoll(const Poll& poll) {
    if (poll.command == 0x8A) {
        const auto award = legacy::parseAward(poll);
        return award ? std::optional(legacy::awardAnswer(address_, legacyBonus_->award(*award))) : std::nullopt;
    }
    if (poll.command == 0x90) {
        const legacy::BonusWin win = legacyBonus_->lastBonus();
        // A bonus reported: the host's next other poll acknowledges it (LP 90 then reports zeros).
        bonusWinReported_ = win.credits != 0;
        return legacy::bonusWinAnswer(address_, win);
    }
    const auto game = legacy::parseMetersGame(poll, gameCountOf(info_));
    return game ? std::optional(legacy::bonusMetersAnswer(address_, *game, legacyBonus_->meters(*game))) : std::nullopt;
}

// LP B7: addr B7 len asset(4, LSB first) location-len location -> addr B7 len control asset
// location-len location; control bits 0 and 1: the host may set the asset number and the location.
std::optional<std::vector<std::uint8_t>> SasStation::machineNumbers(const Poll& poll) {
    const std::vector<std::uint8_t> data = poll.data();
    if (data.size() < 5 || data[4] > 40 || data.size() != 5U + data[4] ||
        !std::all_of(data.begin() + 5, data.end(), [](std::uint8_t c) { return c >= 0x20 && c <= 0x7E; })) {
        return std::nullopt;  // the location is printable ASCII (SAS: ASCII; the journal keeps it as text)
    }
    MachineNumbers requested;
    requested.asset = static_cast<std::uint32_t>(data[0] | data[1] << 8U | data[2] << 16U) |
                      static_cast<std::uint32_t>(data[3]) << 24U;
    requested.floorLocation.assign(data.begin() + 5, data.end());
    const std::optional<MachineNumbers> answered = host_.setMachineNumbers(requested);
    if (!answered) {
        return std::nullopt;  // answered once durable: the host sends it again
    }
    const MachineNumbers& now = *answered;
    const std::size_t location = std::min<std::size_t>(now.floorLocation.size(), 40);
    std::vector<std::uint8_t> out = frameOf(address_, 0xB7);
    out.push_back(static_cast<std::uint8_t>(6 + location));
    out.push_back(0x03);
    for (unsigned shift = 0; shift < 32; shift += 8) {
        out.push_back(static_cast<std::uint8_t>(now.asset >> shift));
    }
    out.push_back(static_cast<std::uint8_t>(location));
    out.insert(out.end(), now.floorLocation.begin(), now.floorLocation.begin() + static_cast<std::ptrdiff_t>(location));
    appendCrc(out);
    return out;
}

std::optional<std::vector<std::uint8_t>> SasStation::controlPoll(const Poll& poll) {
    switch (poll.command) {
        case 0x01:  // shut down (disable play)
        case 0x02:  // start up (enable play)
            host_.setPlayEnabled(poll.command == 0x02);
            return ack();
        case 0x0E: {  // real-time event reporting: 00 off, 01 on
            if (poll.bytes.size() != 5 || poll.bytes[2] > 1) {
                return std::nullopt;
            }
            realTimeEvents_ = poll.bytes[2] == 1;
            return ack();
        }
        case 0x7F: {
            const auto time = parseSetDateTime(poll);
            if (!time) {
                return std::nullopt;
            }
            if (!host_.setClock(*time)) {
                ++stats_.clockRefused;  // answered all the same: the host has no way to hear a refusal
            }
            return ack();
        }
        case 0x1B: {  // hand-pay information
            const HandpayInfo info = host_.pendingHandpay().value_or(HandpayInfo{});
            handpayRead_ = true;
            std::vector<std::uint8_t> out = frameOf(address_, 0x1B);
            out.push_back(info.progressiveGroup);
            out.push_back(info.level);
            appendBcd(out, info.amountCents, 5);
            appendBcd(out, info.partialPayCents, 2);
            out.push_back(info.resetId);
            out.resize(out.size() + 10, 0x00);
            appendCrc(out);
            return out;
        }
        case 0x94: {  // remote hand-pay reset
            std::vector<std::uint8_t> out = frameOf(address_, 0x94);
            out.push_back(static_cast<std::uint8_t>(host_.remoteHandpayReset()));
            appendCrc(out);
            return out;
        }
        case 0x21: {  // ROM signature: addr 21 seed(2, LSB first) CRC
            const auto seed = static_cast<std::uint16_t>(poll.bytes[2] | poll.bytes[3] << 8U);
            const auto signature = host_.romSignature(seed);
            if (!signature) {
                return std::nullopt;
            }
            std::vector<std::uint8_t> out = frameOf(address_, 0x21);
            out.push_back(static_cast<std::uint8_t>(*signature & 0xFFU));
            out.push_back(static_cast<std::uint8_t>(*signature >> 8U));
            appendCrc(out);
            return out;
        }
        case 0x2E: {  // delay game: addr 2E delay(2 BCD, in 100 ms) CRC
            const auto delay = poll.bytes.size() == 6 ? fromBcd(std::span(poll.bytes).subspan(2, 2)) : std::nullopt;
            if (!delay) {
                return std::nullopt;
            }
            host_.delayGame(std::chrono::milliseconds(*delay * 100));
            return ack();
        }
        case 0xA8: {  // enable jackpot hand-pay reset method: 00 standard, 01 to the credit meter
            if (poll.bytes.size() != 5) {
                return std::nullopt;
            }
            std::vector<std::uint8_t> out = frameOf(address_, 0xA8);
            out.push_back(static_cast<std::uint8_t>(host_.enableHandpayResetMethod(poll.bytes[2])));
            appendCrc(out);
            return out;
        }
        case 0xB7:
            return machineNumbers(poll);
        case 0x48: {  // last accepted bill: a table takes no bills, so country, denomination and count are 0
            std::vector<std::uint8_t> out = frameOf(address_, 0x48);
            out.resize(out.size() + 6, 0x00);
            appendCrc(out);
            return out;
        }
        default:
            return std::nullopt;  // not supported: the link stays silent
    }
}

}  // namespace pitlink::sas
