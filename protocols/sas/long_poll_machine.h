#pragma once
// Long polls that describe the station as a gaming machine: 1F (machine ID and information),
// 51 (number of games), 53 (game N configuration), 54 (SAS version and serial number), 55
// (selected game), 56 (enabled games), A0 (enabled features), A4 (cash-out limit), 7E (date and
// time), B1 (current player denomination), B2 (enabled player denominations), B5 (extended game N
// information). The station's games are the controller's (1..N, each a baccarat game with its
// own paytable); its player joins up to four of them (LP 56) and picks one of the enabled
// denominations for all of them (seed 000's Denomination button), which B1 reports. Answers
// only; nothing here changes state.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocols/sas/poll_framer.h"

namespace pitlink::sas {

// What LPs 53 and B5 say of one game.
struct GameInfo {
    std::string additionalId = "000";     // 3 ASCII
    std::uint8_t maxBet = 0xFF;           // in credits of the accounting denomination; FF: 255 or more
    std::string paytableId = "000000";    // 6 ASCII
    std::string basePercentage = "0000";  // 4 ASCII digits
    std::uint32_t maxBetCredits = 0;      // LP B5 (2 BCD: 9999 or more reads 9999)
    std::string gameName = "Baccarat";    // LP B5, at most 20 ASCII
    std::string paytableName;             // LP B5, at most 20 ASCII
};

struct MachineInfo {
    std::string gameId = "BA";             // 2 ASCII characters
    std::string additionalId = "000";      // 3 ASCII
    std::uint8_t denominationCode = 0x01;  // SAS Table C-4 (01 = 0.01): the accounting denomination
    // The player denominations a station may be set to (LP B2, B5), codes of Table C-4; empty:
    // the accounting denomination alone.
    std::vector<std::uint8_t> playerDenominations;
    std::uint8_t maxBet = 0xFF;  // in credits; FF: 255 or more
    std::uint8_t progressiveGroup = 0;
    std::uint16_t gameOptions = 0;           // sent as 2 bytes, most significant first
    std::string paytableId = "000000";       // 6 ASCII
    std::string basePercentage = "0000";     // 4 ASCII digits, e.g. "9894" for 98.94 %
    std::string sasVersion = "602";          // 3 ASCII
    std::string serialNumber;                // 0..40 ASCII
    std::array<std::uint8_t, 3> features{};  // LP A0 feature bytes 1-3
    std::uint32_t maxBetCredits = 0;         // LP B5 (2 BCD: 9999 or more reads 9999)
    std::string gameName = "Baccarat";       // LP B5, at most 20 ASCII
    std::string paytableName;                // LP B5, at most 20 ASCII
    // Games 1..N (LP 51 counts them); empty: one game, described by the fields above.
    std::vector<GameInfo> games;
};

// How many games the station has (LP 51), and game N's description (0: the machine's own).
[[nodiscard]] std::uint16_t gameCountOf(const MachineInfo& info);
[[nodiscard]] GameInfo gameInfoOf(const MachineInfo& info, std::uint16_t game);

// Calendar time of the station's clock for LP 7E.
struct SasDateTime {
    int year = 2000;
    int month = 1;
    int day = 1;
    int hour = 0;
    int minute = 0;
    int second = 0;
};

// What the station is doing now, as these polls report it.
struct StationNow {
    SasDateTime clock;                           // LP 7E
    std::uint8_t playerDenomination = 0x01;      // LP B1: the Table C-4 code played now
    std::uint16_t selectedGame = 1;              // LP 55: the game of the last 8C (1 before any)
    std::vector<std::uint16_t> enabledGames{1};  // LP 56: the games the station has joined
    std::uint32_t cashoutLimitCredits = 0;       // LP A4, in credits of the accounting denomination
};

[[nodiscard]] bool isMachinePoll(std::uint8_t command);
// `denomination`: LP B0's (a Table C-4 code of `playerDenominationsOf(info)`); 0: none.
[[nodiscard]] std::optional<std::vector<std::uint8_t>> answerMachinePoll(const Poll& poll, const MachineInfo& info,
                                                                         const StationNow& now,
                                                                         std::uint8_t denomination = 0);
// The enabled player denominations (the accounting one when none is listed).
[[nodiscard]] std::vector<std::uint8_t> playerDenominationsOf(const MachineInfo& info);

// A date and time as SAS sends it (LP 7E, LP 4D records): MMDDYYYY (4 BCD), HHMMSS (3 BCD).
void appendDateTime(std::vector<std::uint8_t>& out, const SasDateTime& t);

// LP 7F: the host sets the date and time (MMDDYYYY HHMMSS in BCD); nullopt if malformed.
[[nodiscard]] std::optional<SasDateTime> parseSetDateTime(const Poll& poll);

}  // namespace pitlink::sas
