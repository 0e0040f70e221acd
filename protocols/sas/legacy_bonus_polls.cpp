#include "protocols/sas/legacy_bonus_polls.h"

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/station_game.h"

namespace pitlink::sas::legacy {

namespace {

constexpr std::uint8_t kAward = 0x8A;
constexpr std::uint8_t kBonusWin = 0x90;
constexpr std::uint8_t kMeters = 0x9A;

std::optional<TaxStatus> taxStatusOf(std::uint8_t code) {
    if (code > static_cast<std::uint8_t>(TaxStatus::WagerMatch)) {
        return std::nullopt;
    }
    return static_cast<TaxStatus>(code);
}

}  // namespace

std::optional<Award> parseAward(const Poll& poll) {
    const std::vector<std::uint8_t> data = poll.data();
    if (poll.command != kAward || data.size() != 5) {
        return std::nullopt;
    }
    const auto credits = fromBcd(std::span(data).first(4));
    const auto taxStatus = taxStatusOf(data[4]);
    // An award of nothing is no award: a host that sends one gets no answer, as for a bad amount.
    if (!credits || *credits == 0 || !taxStatus) {
        return std::nullopt;
    }
    return Award{static_cast<std::uint32_t>(*credits), *taxStatus};
}

std::vector<std::uint8_t> awardAnswer(std::uint8_t address, AwardAnswer answer) {
    if (answer == AwardAnswer::Taken) {
        return {address};
    }
    return {address, 0x00};
}

std::vector<std::uint8_t> bonusWinData(const BonusWin& win) {
    std::vector<std::uint8_t> data;
    data.reserve(kBonusWinBytes);
    data.push_back(0x00);   // multiplier: no multiplied jackpots (LP 8B)
    appendBcd(data, 0, 4);  // multiplied win
    data.push_back(static_cast<std::uint8_t>(win.taxStatus));
    appendBcd(data, win.credits, 4);
    return data;
}

std::optional<BonusWin> bonusWinOf(std::span<const std::uint8_t> data) {
    if (data.size() != kBonusWinBytes) {
        return std::nullopt;
    }
    const auto taxStatus = taxStatusOf(data[5]);
    const auto credits = fromBcd(data.subspan(6, 4));
    if (!taxStatus || !credits) {
        return std::nullopt;
    }
    return BonusWin{*taxStatus, static_cast<std::uint32_t>(*credits)};
}

std::vector<std::uint8_t> bonusWinAnswer(std::uint8_t address, const BonusWin& win) {
    std::vector<std::uint8_t> out;
    out.reserve(2 + kBonusWinBytes + 2);
    out.push_back(address);
    out.push_back(kBonusWin);
    for (const std::uint8_t b : bonusWinData(win)) {
        out.push_back(b);
    }
    appendCrc(out);
    return out;
}

std::optional<std::uint16_t> parseMetersGame(const Poll& poll, std::uint16_t games) {
    const std::vector<std::uint8_t> data = poll.data();
    if (poll.command != kMeters || data.size() != 2) {
        return std::nullopt;
    }
    return stationGame(data, games);
}

std::vector<std::uint8_t> bonusMetersAnswer(std::uint8_t address, std::uint16_t game, const BonusMeters& meters) {
    std::vector<std::uint8_t> out;
    out.reserve(18);
    out.push_back(address);
    out.push_back(kMeters);
    appendBcd(out, game, 2);
    // Each keeps its low 8 digits, as every 4-byte SAS meter rolls over.
    appendBcd(out, meters.deductible, 4);
    appendBcd(out, meters.nonDeductible, 4);
    appendBcd(out, meters.wagerMatch, 4);
    appendCrc(out);
    return out;
}

}  // namespace pitlink::sas::legacy
