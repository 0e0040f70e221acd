#pragma once
// Long polls that describe the station as a gaming machine: 1F (machine ID and information),
// 51 (number of games), 53 (game N configuration), 54 (SAS version and serial number), 55
// (selected game), 56 (enabled games), A0 (enabled features), 7E (date and time), B1 (current
// player denomination), B2 (enabled player denominations), B5 (extended game N information).
// The station is one game (number 1); its player picks one of the enabled denominations (seed
// 000's Denomination button), which B1 reports. Answers only; nothing here changes state.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocols/sas/poll_framer.h"

namespace pitlink::sas {

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
};

// Calendar time of the station's clock for LP 7E.
struct SasDateTime {
    int year = 2000;
    int month = 1;
    int day = 1;
    int hour = 0;
    int minute = 0;
    int second = 0;
};

[[nodiscard]] bool isMachinePoll(std::uint8_t command);
// `playerDenomination`: the code of the denomination the station's player plays now (LP B1).
[[nodiscard]] std::optional<std::vector<std::uint8_t>> answerMachinePoll(const Poll& poll, const MachineInfo& info,
                                                                         const SasDateTime& now,
                                                                         std::uint8_t playerDenomination);
// The enabled player denominations (the accounting one when none is listed).
[[nodiscard]] std::vector<std::uint8_t> playerDenominationsOf(const MachineInfo& info);

// A date and time as SAS sends it (LP 7E, LP 4D records): MMDDYYYY (4 BCD), HHMMSS (3 BCD).
void appendDateTime(std::vector<std::uint8_t>& out, const SasDateTime& t);

// LP 7F: the host sets the date and time (MMDDYYYY HHMMSS in BCD); nullopt if malformed.
[[nodiscard]] std::optional<SasDateTime> parseSetDateTime(const Poll& poll);

}  // namespace pitlink::sas
