#pragma once
// A round as its journal records tell it: state, bets standing, cards, the settlement in force
// (the original, or the latest re-settlement). Recovery, recall and re-settlement read rounds
// through this one reconstruction.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/bet_type.h"
#include "daemon/game/card.h"
#include "daemon/game/hand.h"
#include "daemon/game/round_settlement.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

enum class RoundState : std::uint8_t { Open, Closed, Dealing, Settled, Voided };
[[nodiscard]] std::string_view roundStateName(RoundState state);

struct RoundBet {
    std::int64_t index = 0;  // the bet's number within its round
    std::int64_t station = 0;
    game::BetType spot = game::BetType::Player;
    game::Money stake = 0;
    std::string action;  // the request that placed it (bet, repeat, double, raise, ...); empty in old journals
};

struct DealtCard {
    std::int64_t position = 0;  // 1-based position in the coup (deal order)
    game::Card card;
};

// The result in force for one settled stake: a bet, or a station's spot (game::SettleRule).
struct BetOutcome {
    std::vector<std::int64_t> bets;  // the indexes of the bets it covers, ascending
    std::string result;              // win, push, loss
    std::int64_t tier = 0;
    game::Money win = 0;
    game::Money returned = 0;
    std::string breakage;
};

// Its implicit special members only destroy and copy std and nlohmann values; clang-tidy 14
// reports a possible throw there that it cannot place.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct RoundHistory {
    std::int64_t roundId = 0;
    std::string gameName;  // round.opened's `game` (a controller of several games); empty: none named
    std::int64_t shoe = 0;
    std::int64_t roundInShoe = 0;
    std::string paytableId;
    std::string paytableSha;
    game::SettleRule rule = game::SettleRule::PerBet;  // round.opened's `settle`; absent: per bet
    RoundState state = RoundState::Open;
    std::int64_t openedAtMs = 0;
    std::int64_t endedAtMs = 0;
    std::vector<RoundBet> bets;                   // accepted and not withdrawn, in order
    std::vector<DealtCard> cards;                 // as dealt
    nlohmann::json settlement;                    // body of the round.settled or latest round.resettled, or null
    std::map<std::int64_t, BetOutcome> outcomes;  // by the first bet index each covers
    int resettlements = 0;
    std::string voidReason;
    std::vector<JournalRecord> records;
};

// The bets a bet.settled or bet.adjusted body covers under the round's rule: its `bet` (per bet),
// or its `bets` (per spot: at least one index, ascending). Refused with BodyError otherwise.
[[nodiscard]] std::vector<std::int64_t> settledBetIndexes(const nlohmann::json& body, game::SettleRule rule);

// Throws std::invalid_argument when the records do not make a round (no round.opened, a body
// without the fields its kind must have).
[[nodiscard]] RoundHistory reconstructRound(std::vector<JournalRecord> records);

// The hands of the settlement in force (the original's cards, or the latest re-settlement's
// corrected ones); nullopt when the round has no settlement. A card that is not one, or a hand
// of more than three cards, is refused with BodyError.
[[nodiscard]] std::optional<game::Coup> coupInForce(const RoundHistory& round);

// The coup the cards make, if they are positions 1..n without gaps, each to the hand the drawing
// rules give it, and the coup is complete. Otherwise nullopt and `problem` says why.
[[nodiscard]] std::optional<game::Coup> completeCoup(const std::vector<DealtCard>& cards, std::string& problem);

}  // namespace pitlink::journal
