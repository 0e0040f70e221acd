#pragma once
// The records of what happens at a station and on the table floor besides rounds and cash: bets
// (bet.accepted, bet.refused, bet.withdrawn, bets.confirmed), any other refusal
// (request.refused), attendant calls, doors, tilts, reservations and the station's kept state
// (schema/README.md). Typed records (typed_record.h), filled by the table.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/records/fact_views.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/station_state.h"

namespace pitlink::journal {

// bet.accepted: one spot a request added to.
struct BetAcceptedRecord {
    static constexpr std::string_view kKind = kind::kBetAccepted;
    std::int64_t bet = 0;  // its number in the round, from 1
    std::string spot;      // game::betTypeName
    std::int64_t stake = 0;
    std::string action;  // bet, repeat, double, raise, auto_repeat, keep_bets
};
[[nodiscard]] nlohmann::json toBody(const BetAcceptedRecord& record);

// bet.refused: a bet-placing request a bet rule refused.
struct BetRefusedRecord {
    static constexpr std::string_view kKind = kind::kBetRefused;
    std::string action;
    game::BetSlip slip;  // what it asked for (a raise: the chip on each spot)
    std::string rule;
    std::string message;
};
[[nodiscard]] nlohmann::json toBody(const BetRefusedRecord& record);

// bet.withdrawn: a bet taken back (clear, undo, not_confirmed).
struct BetWithdrawnRecord {
    static constexpr std::string_view kKind = kind::kBetWithdrawn;
    std::int64_t bet = 0;
    std::string action;
};
[[nodiscard]] nlohmann::json toBody(const BetWithdrawnRecord& record);

// bets.confirmed: a station's bets confirmed as they stand (rounds.confirm_bets).
struct BetsConfirmedRecord {
    static constexpr std::string_view kKind = kind::kBetsConfirmed;
    game::BetSlip slip;
    std::string by;  // "station" or "auto_repeat"
};
[[nodiscard]] nlohmann::json toBody(const BetsConfirmedRecord& record);

// The fields of a refused request that the request itself carried, each when it had it.
struct RefusedRequest {
    std::optional<game::BetSlip> slip{};
    std::optional<std::int64_t> chip{};
    std::optional<std::int64_t> amount{};
    std::optional<std::string> validation{};
    std::optional<bool> on{};  // auto-repeat, Keep Bets On
    std::optional<std::int64_t> level{};
    std::optional<std::int64_t> denomination{};
    std::optional<std::int64_t> round{};
    std::optional<std::string> decision{};  // a dispute's: upheld, rejected
    std::optional<std::string> by{};
    std::optional<std::string> cause{};  // a tilt's
    std::optional<bool> reserved{};
    std::optional<std::int64_t> min{};  // a player's own limits
    std::optional<std::int64_t> max{};
    std::optional<std::int64_t> cardsBehind{};        // a reader's cut
    std::optional<std::vector<std::string>> cards{};  // a reader's burn
    std::optional<std::string> card{};                // a card the engine or the reader sent
    std::optional<std::string> reason{};              // a void's, a re-settlement's
    std::optional<std::string> taxStatus{};           // a legacy bonus's (SAS LP 8A; credit_types.h's names)
};

// request.refused: any other request the table refused, journaled like an acceptance.
struct RequestRefusedRecord {
    static constexpr std::string_view kKind = kind::kRequestRefused;
    std::string op;
    std::string error;
    std::string message;
    RefusedRequest request;
    std::optional<std::int64_t> station;  // a station that is not one of this table's
};
[[nodiscard]] nlohmann::json toBody(const RequestRefusedRecord& record);

// attendant.called / attendant.cleared.
struct AttendantCalledRecord {
    static constexpr std::string_view kKind = kind::kAttendantCalled;
    std::string by;
};
[[nodiscard]] nlohmann::json toBody(const AttendantCalledRecord& record);
struct AttendantClearedRecord {
    static constexpr std::string_view kKind = kind::kAttendantCleared;
    std::string by;
};
[[nodiscard]] nlohmann::json toBody(const AttendantClearedRecord& record);

// door.opened / door.closed.
struct DoorOpenedRecord {
    static constexpr std::string_view kKind = kind::kDoorOpened;
    std::string door;
};
[[nodiscard]] nlohmann::json toBody(const DoorOpenedRecord& record);
struct DoorClosedRecord {
    static constexpr std::string_view kKind = kind::kDoorClosed;
    std::string door;
};
[[nodiscard]] nlohmann::json toBody(const DoorClosedRecord& record);

// tilt.raised / tilt.cleared.
struct TiltRaisedRecord {
    static constexpr std::string_view kKind = kind::kTiltRaised;
    std::string cause;
    std::string message;
};
[[nodiscard]] nlohmann::json toBody(const TiltRaisedRecord& record);
struct TiltClearedRecord {
    static constexpr std::string_view kKind = kind::kTiltCleared;
    std::string cause;
    std::string by;
};
[[nodiscard]] nlohmann::json toBody(const TiltClearedRecord& record);

// station.reserved: a station locked for its player, or freed.
struct StationReservedRecord {
    static constexpr std::string_view kKind = kind::kStationReserved;
    ReservationFact reservation;
    std::optional<std::string> by;  // station, timeout or the operator (journals before it: none)
    friend bool operator==(const StationReservedRecord&, const StationReservedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const StationReservedRecord& record);
[[nodiscard]] StationReservedRecord fromBody(const nlohmann::json& body, std::type_identity<StationReservedRecord>);

// station.games: the games the station plays, whole, after it joined or left `game` (seed 000:
// up to four games on one credit meter; X leaves a game where it has no bets).
struct StationGamesRecord {
    static constexpr std::string_view kKind = kind::kStationGames;
    std::string action;  // "join" or "leave"
    std::string game;
    std::vector<std::string> games;  // after it, in the order joined
    friend bool operator==(const StationGamesRecord&, const StationGamesRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const StationGamesRecord& record);
[[nodiscard]] StationGamesRecord fromBody(const nlohmann::json& body, std::type_identity<StationGamesRecord>);

// station.state: what a station keeps between rounds (station_state.h).
struct StationStateRecord {
    static constexpr std::string_view kKind = kind::kStationState;
    StationState state;
    std::string by;  // the operator who set the player's limits, when that is what changed
};
[[nodiscard]] nlohmann::json toBody(const StationStateRecord& record);

}  // namespace pitlink::journal
