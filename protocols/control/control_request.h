#pragma once
// The control socket's requests (README.md beside this file): one JSON object per line, with a
// `cmd` and its fields. Parsed here into a typed request for pitlinkd's control server, and
// written here for pitlinkctl, so that both sides agree on one definition. Pure: no I/O.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "daemon/game/card.h"

namespace pitlink::control {

// A line longer than this is refused (and the connection closed) without being parsed.
inline constexpr std::size_t kMaxLineBytes = 4096;
// A void or re-settlement reason is 1 to this many characters.
inline constexpr std::size_t kMaxReasonChars = 500;
// `recall` gives at most this many rounds.
inline constexpr std::int64_t kMostRecalled = 1000;

enum class Command : std::uint8_t {
    // read-only: the inspector role
    Status,
    Stations,
    Meters,
    Events,
    Roads,
    Recall,
    Audit,
    Protection,  // game protection: the side bets' edges, closures, counters (docs/protection.md)
    Io,          // the I/O module's inputs and outputs as it reports them now
    // operator actions: the operator role
    Resettle,
    AttendantClear,
    HandpayReset,
    VoidRound,
    ShoeNew,
    TiltClear,
    StationLimits,
    DisputeResolve,
    ReserveRelease,
    StationLevel,
    LampsTest,  // each lamp alone in turn (a technician's check of the wiring)
};

[[nodiscard]] std::string_view commandName(Command command);
[[nodiscard]] std::optional<Command> parseCommand(std::string_view name);
// Read-only commands need the inspector role; every other command, known or not, the operator's.
[[nodiscard]] bool isReadOnly(Command command);

// A refusal the server answers with: a stable code and a message for a person.
struct Refusal {
    std::string error;
    std::string message;
};

// Its implicit special members only destroy and copy std and nlohmann values; clang-tidy 14
// reports a possible throw there that it cannot place.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct ControlRequest {
    nlohmann::json id;                    // echoed in the reply (null when absent)
    std::string name;                     // the `cmd` as sent
    std::optional<Command> command;       // nullopt: not a command pitlinkd knows
    std::optional<std::int64_t> station;  // attendant_clear, handpay_reset; recall: only this station's rounds
    std::optional<std::int64_t> round;    // recall one round; resettle; void_round: must be the current one
    std::optional<std::int64_t> shoe;     // roads, protection of an earlier shoe
    // The game a game's command is for (status, roads, recall, events, void_round, shoe_new,
    // tilt_clear, resettle, dispute_resolve, station_level); absent: the first game. A game's
    // name (game/game_name.h); the station's wallet commands ignore it.
    std::optional<std::string> game;
    std::int64_t last = 10;             // recall: the last N rounds (1 to kMostRecalled)
    std::string reason;                 // void_round, resettle
    std::vector<game::Card> cards;      // resettle, dispute_resolve: the corrected coup, in deal order
    std::string cause;                  // tilt_clear
    std::optional<std::int64_t> min;    // station_limits: the player's own minimum (absent: none)
    std::optional<std::int64_t> max;    // station_limits: the player's own maximum (absent: none)
    std::optional<bool> upheld;         // dispute_resolve: "decision" upheld (true) or rejected
    std::optional<std::int64_t> level;  // station_level: the limit level (1..20)
    std::int64_t stepMs = 1'000;        // lamps_test: how long each lamp is lit alone (100..10000)
    // Set when a field the command needs is missing or out of range (or the command is unknown):
    // the request is refused with it, after the caller's role has been checked.
    std::optional<Refusal> invalid;
};

// Not a JSON object with a string `cmd`: refused with "bad_request".
struct MalformedRequest {
    Refusal refusal;
};

[[nodiscard]] std::variant<ControlRequest, MalformedRequest> parseControlRequest(std::string_view line);

// pitlinkctl's side: the request as a JSON object (fields the command does not use are left out).
[[nodiscard]] nlohmann::json requestJson(const ControlRequest& request);

// "2S 9H 4D KC" -> 4 to 6 cards, or nullopt with the problem in `problem`.
[[nodiscard]] std::optional<std::vector<game::Card>> parseCoupCards(const std::string& text, std::string& problem);

}  // namespace pitlink::control
