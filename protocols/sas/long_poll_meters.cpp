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

// A meter of `scope`: the station's own, or a game meter of one game or denomination.
std::optional<std::uint64_t> scopedMeter(const MeterSource& meters, std::uint16_t code, const MeterScope& scope) {
    return scope.whole() ? meters.meter(code) : meters.playMeter(code, scope);
}

// LP 2F: addr 2F len game(2) code... -> addr 2F len game (code value)...; the station as a whole
// answers every code (0 when it keeps no such meter), a game or a denomination its game meters.
std::optional<std::vector<std::uint8_t>> selectedMeters(const Poll& poll, const MeterSource& meters,
                                                        const MeterPollContext& context) {
    const std::vector<std::uint8_t> data = poll.data();
    const auto game = stationGame(data, context.games);
    if (!game || data.size() < 3 || data.size() > 12) {
        return std::nullopt;
    }
    const MeterScope scope{*game, context.denomination};
    std::vector<std::uint8_t> body(data.begin(), data.begin() + 2);  // the game number, echoed
    for (std::size_t i = 2; i < data.size(); ++i) {
        const std::uint16_t code = data[i];
        const auto value = scopedMeter(meters, code, scope);
        if (!value && !scope.whole()) {
            continue;
        }
        body.push_back(data[i]);
        appendBcd(body, value.value_or(0), meterBytes(code));
    }
    std::vector<std::uint8_t> out{poll.address, poll.command, static_cast<std::uint8_t>(body.size())};
    out.insert(out.end(), body.begin(), body.end());
    appendCrc(out);
    return out;
}

// LPs 6F/AF: addr cmd len game(2) code(2, LSB first)... -> addr cmd len game (code size value)...
// A meter the station (game, denomination) does not keep is answered with size 0 (AF) or left out (6F).
std::optional<std::vector<std::uint8_t>> extendedMeters(const Poll& poll, const MeterSource& meters,
                                                        const MeterPollContext& context) {
    const std::vector<std::uint8_t> data = poll.data();
    const auto game = stationGame(data, context.games);
    if (!game || data.size() < 4 || data.size() % 2 != 0 || data.size() > 2 + 2 * 12) {
        return std::nullopt;
    }
    const MeterScope scope{*game, context.denomination};
    std::vector<std::uint8_t> body(data.begin(), data.begin() + 2);  // the game number, echoed
    for (std::size_t i = 2; i + 1 < data.size(); i += 2) {
        const auto code = static_cast<std::uint16_t>(data[i] | (data[i + 1] << 8U));
        const auto value = scopedMeter(meters, code, scope);
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

// The game number of a fixed-length type M poll (addr cmd game(2) CRC).
std::optional<std::uint16_t> fixedPollGame(const Poll& poll, const MeterPollContext& context) {
    return poll.bytes.size() == 6 ? stationGame(std::span(poll.bytes).subspan(2, 2), context.games) : std::nullopt;
}

// LP 52: addr 52 game(2) -> addr 52 game coin-in coin-out jackpot games-played (4 BCD each).
std::optional<std::vector<std::uint8_t>> gameMeters(const Poll& poll, const MeterSource& meters,
                                                    const MeterPollContext& context) {
    const auto game = fixedPollGame(poll, context);
    if (!game) {
        return std::nullopt;
    }
    const MeterScope scope{*game, context.denomination};
    std::vector<std::uint8_t> out{poll.address, poll.command, poll.bytes[2], poll.bytes[3]};
    for (const std::uint16_t code : {kCoinIn, kCoinOut, kJackpot, kGamesPlayed}) {
        appendBcd(out, scopedMeter(meters, code, scope).value_or(0), 4);
    }
    appendCrc(out);
    return out;
}

// LP 2D: addr 2D game(2) -> addr 2D game meter(4 BCD). Hand-paid cancelled credits belong to the
// station as a whole: a game number other than 0 is not answered (SAS 6.02 section 7.6.3).
std::optional<std::vector<std::uint8_t>> handpaidCancelled(const Poll& poll, const MeterSource& meters,
                                                           const MeterPollContext& context) {
    const auto game = fixedPollGame(poll, context);
    if (!game || *game != 0) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> out{poll.address, poll.command, poll.bytes[2], poll.bytes[3]};
    appendBcd(out, valueOf(meters, kHandPaidCancelledCredits), 4);
    appendCrc(out);
    return out;
}

// LP 18: addr 18 -> addr 18 games-since-power-up(2 BCD) games-since-door-closed(2 BCD).
std::vector<std::uint8_t> gamesSince(const Poll& poll, const MeterSource& meters) {
    std::vector<std::uint8_t> out{poll.address, poll.command};
    appendBcd(out, valueOf(meters, kGamesSincePowerUp) % 10'000, 2);
    appendBcd(out, valueOf(meters, kGamesSinceDoorClosed) % 10'000, 2);
    appendCrc(out);
    return out;
}

// SAS 6.02 Table 15.13c: the validation types LP 50 answers.
bool isValidationType(std::uint8_t type) {
    switch (type) {
        case 0x00:  // cashable ticket from a cash-out or win
        case 0x01:  // restricted promotional ticket from a cash-out
        case 0x02:  // cashable ticket from an AFT transfer
        case 0x03:  // restricted ticket from an AFT transfer
        case 0x04:  // debit ticket from an AFT transfer
        case 0x10:  // cancelled credit hand-pay, receipt printed
        case 0x20:  // jackpot hand-pay, receipt printed
        case 0x40:  // cancelled credit hand-pay, no receipt
        case 0x60:  // jackpot hand-pay, no receipt
        case 0x80:  // cashable ticket redeemed
        case 0x81:  // restricted promotional ticket redeemed
        case 0x82:  // non-restricted promotional ticket redeemed
            return true;
        default:
            return false;
    }
}

// LP 50: addr 50 type -> addr 50 type count(4 BCD) cents(5 BCD).
std::optional<std::vector<std::uint8_t>> validationMeters(const Poll& poll, const MeterSource& meters) {
    if (poll.bytes.size() != 5 || !isValidationType(poll.bytes[2])) {
        return std::nullopt;
    }
    const ValidationMeters v = meters.validationMeters(poll.bytes[2]);
    std::vector<std::uint8_t> out{poll.address, poll.command, poll.bytes[2]};
    appendBcd(out, v.count, 4);
    appendBcd(out, v.cents, 5);
    appendCrc(out);
    return out;
}

}  // namespace

std::size_t meterBytes(std::uint16_t code) {
    return code == kTicketInCashableCents || code == kTicketOutCashableCents || isAftAmountMeter(code) ? 5 : 4;
}

bool isMeterPoll(std::uint8_t command) {
    switch (command) {
        case 0x0F:
        case 0x18:
        case 0x19:
        case 0x1C:
        case 0x2D:
        case 0x2F:
        case 0x50:
        case 0x52:
        case 0x6F:
        case 0xAF:
            return true;
        default:
            return singleMeter(command).has_value();
    }
}

std::optional<std::vector<std::uint8_t>> answerMeterPoll(const Poll& poll, const MeterSource& meters,
                                                         const MeterPollContext& context) {
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
        case 0x18:
            return gamesSince(poll, meters);
        case 0x2D:
            return handpaidCancelled(poll, meters, context);
        case 0x2F:
            return selectedMeters(poll, meters, context);
        case 0x50:
            return validationMeters(poll, meters);
        case 0x52:
            return gameMeters(poll, meters, context);
        case 0x6F:
        case 0xAF:
            return extendedMeters(poll, meters, context);
        default:
            return std::nullopt;
    }
}

}  // namespace pitlink::sas
