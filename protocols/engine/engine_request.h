#pragma once
// The engine link's requests (README.md beside this file): one JSON object per line, parsed and
// checked here into a typed request, or into an error that the link answers with. Pure: no I/O.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "daemon/game/bet_type.h"
#include "daemon/game/card.h"
#include "daemon/game/settlement.h"

namespace pitlink::engine {

// A line longer than this is refused (and the rest of it skipped) without being parsed.
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} * 1024;

enum class Op : std::uint8_t {
    Status,
    NewShoe,
    OpenRound,
    CloseBets,
    Card,
    CardUnreadable,
    VoidRound,
    Bet,
    Clear,
    Undo,
    Repeat,
    Double,
    CashOut,
    TicketIn,
    Tip,
    CallAttendant,
    Dispute,
    Reserve,
    Door,
    Raise,
    Limits,
    LimitLevel,
    AutoRepeat,
    Roads,
    BetList,
    Burn,
    Cut,
    Reader,
    Deal,
    Confirm,
    KeepBets,
    Denomination,
    Hello,  // which games the connection serves, in which role (a controller of several games)
    Join,   // seed 000's multi-game station: the station adds the game
    Leave,  // ... or leaves it (its X)
};

[[nodiscard]] std::string_view opName(Op op);

// Its implicit special members only destroy and copy std and nlohmann values; clang-tidy 14
// reports a possible throw there that it cannot place.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct EngineRequest {
    nlohmann::json id;  // echoed in the reply (any JSON value; null when absent)
    Op op = Op::Status;
    std::int64_t station = 0;
    game::BetType spot = game::BetType::Player;
    game::Money amount = 0;  // stake, ticket amount, tip, raise chip, denomination
    std::optional<game::Card> card;
    std::vector<game::Card> cards;    // a burn: the turned card, then the cards burned
    std::string text;                 // validation number, void reason, dispute text, door name, reserve PIN
    std::int64_t round = 0;           // a dispute's round; a limit level; rounds of a bet list; cards behind the cut
    bool on = false;                  // reserve on/off, door open/closed, auto-repeat on/off, the reader ok
    std::optional<std::string> game;  // the game the request is for (any op; absent: the connection's first)
    std::vector<std::string> games;   // hello: the games served, the first being the default
    std::string role;                 // hello: "dealer" or "stations"
};

struct RequestError {
    nlohmann::json id;
    std::string error;  // malformed_json, not_an_object, unknown_op, missing_field, bad_field
    std::string message;
};

[[nodiscard]] std::variant<EngineRequest, RequestError> parseRequest(std::string_view line);

}  // namespace pitlink::engine
