#pragma once
// Long polls that report meters (one file per group of long polls): 0F, 10-17, 19, 1A, 1C
// (fixed sets of 4-byte BCD meters), 18 (games since power-up and since the door closed), 2D
// (hand-paid cancelled credits), 2F (selected meters of game N, one-byte codes), 50 (validation
// meters), 52 (game N meters) and 6F/AF (extended meters of game N, two-byte codes with a size
// byte). Game 0 is the whole station, game N one of its games; under LP B0 a denomination's play.
// A game or a denomination keeps the game meters only (isGameMeter): the others are left out of
// 2F and 6F and have size 0 in AF. Each maps a poll to its answer and nothing else; a malformed
// poll (bad length, BCD, a game the station does not have) gets no answer.
#include <cstdint>
#include <optional>
#include <vector>

#include "protocols/sas/meter_codes.h"
#include "protocols/sas/poll_framer.h"

namespace pitlink::sas {

// What a meter poll is answered within.
struct MeterPollContext {
    std::uint16_t games = 1;        // the station's games: 1..games are answered
    std::uint8_t denomination = 0;  // LP B0's (a Table C-4 code the station plays); 0: none
};

// True for the commands this group answers.
[[nodiscard]] bool isMeterPoll(std::uint8_t command);
[[nodiscard]] std::optional<std::vector<std::uint8_t>> answerMeterPoll(const Poll& poll, const MeterSource& meters,
                                                                       const MeterPollContext& context = {});

}  // namespace pitlink::sas
