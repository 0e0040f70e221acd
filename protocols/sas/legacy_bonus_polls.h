#pragma once
// The layouts of SAS legacy bonusing, parsed and built: LP 8A (initiate a legacy bonus pay), LP 90
// (send legacy bonus win amount), LP 9A (send legacy bonus meters) and the event data of exception
// 7C (legacy bonus pay awarded), as a production EGM (Aristocrat Monaco's SAS client) lays them
// out; docs/sas.md "Legacy bonusing" has the facts and sources. Amounts are credits of the
// accounting denomination, 4 BCD bytes, most significant first. The mapping only: what a station
// decides is its LegacyBonusHost's.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocols/sas/poll_framer.h"

namespace pitlink::sas::legacy {

// An award's tax status (LP 8A, LP 90, 7C): which legacy bonus meter of LP 9A counts it.
enum class TaxStatus : std::uint8_t { Deductible = 0x00, NonDeductible = 0x01, WagerMatch = 0x02 };

// The most credits a 4-byte BCD amount carries.
inline constexpr std::uint32_t kMostCredits = 99'999'999;

// LP 8A: `addr 8A amount(4 BCD) tax-status CRC`.
struct Award {
    std::uint32_t credits = 0;
    TaxStatus taxStatus = TaxStatus::Deductible;
    friend bool operator==(const Award&, const Award&) = default;
};
// nullopt: not an award to take (the amount not BCD or 0, a tax status above 02): malformed,
// not answered (protocols/sas/README.md "Link rules").
[[nodiscard]] std::optional<Award> parseAward(const Poll& poll);

// LP 8A's answer: taken (ACK, the address alone) or busy (`addr 00`: the station cannot take it
// now; the host may send it again later).
enum class AwardAnswer : std::uint8_t { Taken, Busy };
[[nodiscard]] std::vector<std::uint8_t> awardAnswer(std::uint8_t address, AwardAnswer answer);

// The legacy bonus last paid, as LP 90 and 7C report it. Multiplied jackpots (LP 8B) are not
// offered: the multiplier and the multiplied win are always 0.
struct BonusWin {
    TaxStatus taxStatus = TaxStatus::Deductible;
    std::uint32_t credits = 0;  // 0: none to report
    friend bool operator==(const BonusWin&, const BonusWin&) = default;
};
// `multiplier(1) multiplied-win(4 BCD) tax-status(1) bonus(4 BCD)`: 7C's event data, and LP 90's
// answer between its command and its CRC.
inline constexpr std::size_t kBonusWinBytes = 10;
[[nodiscard]] std::vector<std::uint8_t> bonusWinData(const BonusWin& win);
// The same back; nullopt when `data` is not such data (the journal's 7C is read with it).
[[nodiscard]] std::optional<BonusWin> bonusWinOf(std::span<const std::uint8_t> data);
// LP 90: `addr 90` (type R) -> `addr 90 data CRC`.
[[nodiscard]] std::vector<std::uint8_t> bonusWinAnswer(std::uint8_t address, const BonusWin& win);

// LP 9A: lifetime legacy bonus meters in credits, by tax status.
struct BonusMeters {
    std::uint64_t deductible = 0;
    std::uint64_t nonDeductible = 0;
    std::uint64_t wagerMatch = 0;
    friend bool operator==(const BonusMeters&, const BonusMeters&) = default;
};
// `addr 9A game(2 BCD) CRC`: the game, 0..games (0: the whole station); nullopt: not BCD, or a
// game the station does not have (not answered, as every type M poll: protocols/sas/station_game.h).
[[nodiscard]] std::optional<std::uint16_t> parseMetersGame(const Poll& poll, std::uint16_t games);
// `addr 9A game(2 BCD) deductible non-deductible wager-match (4 BCD each) CRC`.
[[nodiscard]] std::vector<std::uint8_t> bonusMetersAnswer(std::uint8_t address, std::uint16_t game,
                                                          const BonusMeters& meters);

// What LP 8A, 90 and 9A reach on the table side (the daemon implements it: it credits and
// journals an award, and keeps what LP 90 reports).
class LegacyBonusHost {
public:
    virtual ~LegacyBonusHost() = default;
    // LP 8A, answered at once: taken (its credits are being journaled; 7C says when they are), or busy.
    virtual AwardAnswer award(const Award& award) = 0;
    // LP 90: the last bonus paid, until the host acknowledges an answer that reported it; then
    // (and before any) zeros.
    virtual BonusWin lastBonus() = 0;
    // The host implicitly acknowledged the last LP 90 answer, which reported a bonus.
    virtual void lastBonusAcknowledged() = 0;
    // LP 9A of game `game` (0: the whole station; 1..N: one of its games).
    [[nodiscard]] virtual BonusMeters meters(std::uint16_t game) const = 0;
};

}  // namespace pitlink::sas::legacy
