#include "protocols/sas/long_poll_meters.h"

#include <array>
#include <span>

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/station_game.h"

namespace pitlink::sas {

namespace {

using namespace meter;

constexpr std::array<std::uint16_t, 6> kLp0F = {kCancelledCredits, kCoinIn, kCoinOut, kDrop, kJackpot, kGamesPlayed};
constexpr std::array<std::uint16_t, 5> kLp19 = {kCoinIn, kCoinOut, kDrop, kJackpot, kGamesPlayed};
constexpr std::array<std::uint16_t, 8> kLp1C = {kCoinIn,      kCoinOut,  kDrop,          kJackpot,
                                                kGamesPlayed, kGamesWon, kSlotDoorOpens, kPowerResets};

std::optional<std::uint16_t> singleMeter(std::uint8_t command) {
    switch (command) {
        case 0x10:
            return kCancelledCredits;
        case 0x11:
            return kCoinIn;
        case 0x12:
            return kCoinOut;
        case 0x13:
            return kDrop;
        case 0x14:
            return kJackpot;
        case 0x15:
            return kGamesPlayed;
        case 0x16:
            return kGamesWon;
        case 0x17:
            return kGamesLost;
        case 0x1A:
            return kCurrentCredits;
        default:
            return std::nullopt;
    }
}

std::uint64_t valueOf(const MeterSource& meters, std::uint16_t code) {
    return meters.meter(code).value_or(0);
}

std::vector<std::uint8_t> fixedSet(const Poll& poll, std::span<const std::uint16_t> codes, const MeterSource& meters) {
    std::vector<std::uint8_t> out{poll.address, poll.command};
    for (const std::uint16_t code : codes) {
        appendBcd(out, valueOf(meters, code), 4);
    }
    appendCrc(out);
    return out;
}

// LP 2F: addr 2F len game(2) code... -> addr 2F len game (code value)...
std::optional<std::vector<std::uint8_t>> selectedMeters(const Poll& poll, const MeterSource& meters) {
    const std::vector<std::uint8_t> data = poll.data();
    if (!stationGame(data) || data.size() < 3 || data.size() > 12) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> body(data.begin(), data.begin() + 2);  // the game number, echoed
    for (std::size_t i = 2; i < data.size(); ++i) {
        const std::uint16_t code = data[i];
        body.push_back(data[i]);
        appendBcd(body, valueOf(meters, code), meterBytes(code));
    }
    std::vector<std::uint8_t> out{poll.address, poll.command, static_cast<std::uint8_t>(body.size())};
    out.insert(out.end(), body.begin(), body.end());
    appendCrc(out);
    return out;
}

// LPs 6F/AF: addr cmd len game(2) code(2, LSB first)... -> addr cmd len game (code size value)...
// A meter the station does not keep is answered with size 0 (AF) or left out (6F).
std::optional<std::vector<std::uint8_t>> extendedMeters(const Poll& poll, const MeterSource& meters) {
    const std::vector<std::uint8_t> data = poll.data();
    if (!stationGame(data) || data.size() < 4 || data.size() % 2 != 0 || data.size() > 2 + 2 * 12) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> body(data.begin(), data.begin() + 2);  // the game number, echoed
    for (std::size_t i = 2; i + 1 < data.size(); i += 2) {
        const auto code = static_cast<std::uint16_t>(data[i] | (data[i + 1] << 8U));
        const auto value = meters.meter(code);
        if (!value && poll.command == 0x6F) {
            continue;
        }
        body.push_back(data[i]);
        body.push_back(data[i + 1]);
        const std::size_t size = value ? meterBytes(code) : 0;
        body.push_back(static_cast<std::uint8_t>(size));
        if (value) {
            appendBcd(body, *value, size);
        }
    }
    std::vector<std::uint8_t> out{poll.address, poll.command, static_cast<std::uint8_t>(body.size())};
    out.insert(out.end(), body.begin(), body.end());
    appendCrc(out);
    return out;
}

}  // namespace

std::size_t meterBytes(std::uint16_t code) {
    return code == kTicketInCashableCents || code == kTicketOutCashableCents ? 5 : 4;
}

bool isMeterPoll(std::uint8_t command) {
    return command == 0x0F || command == 0x19 || command == 0x1C || command == 0x2F || command == 0x6F ||
           command == 0xAF || singleMeter(command).has_value();
}

std::optional<std::vector<std::uint8_t>> answerMeterPoll(const Poll& poll, const MeterSource& meters) {
    if (const auto code = singleMeter(poll.command)) {
        const std::uint16_t codes[] = {*code};
        return fixedSet(poll, codes, meters);
    }
    switch (poll.command) {
        case 0x0F:
            return fixedSet(poll, kLp0F, meters);
        case 0x19:
            return fixedSet(poll, kLp19, meters);
        case 0x1C:
            return fixedSet(poll, kLp1C, meters);
        case 0x2F:
            return selectedMeters(poll, meters);
        case 0x6F:
        case 0xAF:
            return extendedMeters(poll, meters);
        default:
            return std::nullopt;
    }
}

}  // namespace pitlink::sas
