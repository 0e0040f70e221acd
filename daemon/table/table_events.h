#pragma once
// What the table tells the rest of the daemon as it changes, typed: one event per committed
// change, in the journal's order (a committed change's event leaves after its commit). The
// engine link and the control socket turn them into JSON lines (daemon/io/event_line.h, in the
// form protocols/engine/README.md documents); the daemon logs and counts them as they are.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "daemon/game/bet_type.h"
#include "daemon/game/card.h"
#include "daemon/game/hand.h"
#include "daemon/game/outcome.h"
#include "daemon/game/scoreboard.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/ledger/credit_types.h"
#include "daemon/journal/records/cashier_records.h"

namespace pitlink::table {

// "shoe": a new shoe started, and why (round_records.h: "first", "new_shoe", "cut_card", "restart").
struct ShoeStarted {
    std::uint32_t shoe = 0;
    std::string reason;
};

// "round": the round's betting window moved on.
struct RoundOpened {
    std::int64_t round = 0;
    std::uint32_t shoe = 0;
    std::int64_t roundInShoe = 0;
};
struct LastBets {
    std::int64_t round = 0;
};
struct BetsClosed {
    std::int64_t round = 0;
};

// "card": a card dealt into the round (1-based position in deal order).
struct CardDealt {
    std::int64_t round = 0;
    std::int64_t position = 0;
    game::Card card;
};

// "result": a round settled...
struct RoundSettled {
    std::int64_t round = 0;
    std::uint32_t shoe = 0;
    std::int64_t roundInShoe = 0;
    game::Hand player;
    game::Hand banker;
    game::Outcome outcome;
    std::map<std::int64_t, game::Money> wins;  // every station with a bet: what it won on top of its stakes
    bool cutCardOut = false;
    std::int64_t cardsLeft = 0;
    std::optional<game::ShoeStatistics> statistics;  // the shoe's, when the cut card is out
};
// ... or voided.
struct RoundVoided {
    std::int64_t round = 0;
    std::string reason;
};

// "credits": a station's committed credits changed outside a bet's own reply.
struct CreditsChanged {
    std::int64_t station = 0;
    game::Money credits = 0;
    std::optional<std::int64_t> resettledRound;  // moved by the re-settlement of this round
    // A cashless transfer moved them (SAS AFT): its transaction ID and credit reason
    // (transfer_in, bonus, transfer_out).
    std::optional<std::pair<std::string, std::string>> transfer;
    journal::PromoParts promo;  // of `credits`, the promotional parts (filled by Table::publish)
};

// "ticket": a cash-out ticket was issued.
struct TicketIssued {
    std::int64_t station = 0;
    game::Money amount = 0;
    std::string validation;
    std::string table;
    journal::TicketPrint details;  // what the ticket system printed on it
};

// "handpay": a station locked for a hand-pay, or reset.
struct HandpayLocked {
    std::int64_t station = 0;
    game::Money amount = 0;
    std::string kind;  // "cancelled_credit" or "bonus_jackpot" (a jackpot win shows in its round)
};
struct HandpayReset {
    std::int64_t station = 0;
};

// "attendant": a call raised or cleared.
struct AttendantChanged {
    std::int64_t station = 0;
    bool called = false;
};

// "station": the accounting host enabled or disabled the station's play.
struct HostEnabledChanged {
    std::int64_t station = 0;
    bool enabled = true;
};

// "tilt": a tilt raised (with its cause), or one cleared (whether the table is still tilted).
struct TiltChanged {
    bool tilted = false;
    std::optional<std::string> cause;
    std::optional<std::string> message;
};

// "dispute": a station's dispute raised (open), or resolved by an operator (upheld or rejected;
// re-settled when the operator corrected the round's cards).
struct DisputeChanged {
    std::int64_t station = 0;
    std::int64_t round = 0;
    bool open = true;
    std::string text;        // the player's words (open) or the operator's reason (resolved)
    bool upheld = false;     // resolved: the player was right
    bool resettled = false;  // resolved by a re-settlement of the round
    std::string by;          // resolved: the operator
};

// "reserved": a station reserved for its player, or released (by the player, an operator, or
// the time-out).
struct ReservationChanged {
    std::int64_t station = 0;
    bool reserved = false;
    std::int64_t untilMs = 0;  // reserved: until when (table clock)
    std::string by;            // "station", "timeout" or the operator
};

// "aft_lock": the accounting host's cashless lock (SAS LP 74) took effect at a station, or ended:
// while locked the station takes no bet, cash-out, tip or ticket (`aft_locked`).
struct AftLockChanged {
    std::int64_t station = 0;
    bool locked = false;
};

// "games": the games a station plays changed (it joined or left `game`).
struct StationGamesChanged {
    std::int64_t station = 0;
    bool joined = false;
    std::vector<std::string> games;  // after it, in the order joined
};

// "auto_repeat": a station's auto-repeat turned on or off (by the player, or because a repeat
// was refused: `reason` is the refused rule).
struct AutoRepeatChanged {
    std::int64_t station = 0;
    bool on = false;
    std::string reason;
};

// "keep_bets": a station's Keep Bets On turned on or off (as auto_repeat).
struct KeepBetsChanged {
    std::int64_t station = 0;
    bool on = false;
    std::string reason;
};

// "unconfirmed": confirm_bets: the station's bets were not confirmed when bets closed and were
// returned (seed 002: "not played, and the player is told").
struct BetsUnconfirmed {
    std::int64_t round = 0;
    std::int64_t station = 0;
    game::Money returned = 0;
    game::Money credits = 0;  // after the return
};

// "roads": the shoe's roads and statistics, live, after every result and at every new shoe
// (seed 002/003: statistics sent to the stations).
struct RoadsChanged {
    game::Scoreboard board;
    bool naturalsOnBigRoad = true;
};

// Game protection (docs/protection.md). "side_bets": the side bets closed for the round in play
// or the next, whenever that changes: the only protection event the stations' engine link carries,
// and without figures.
struct SideBetsChanged {
    std::vector<game::BetType> closed;
};
// "shoe_edge": the edges of the next round (shoe.edge, as journaled). Control clients only: on the
// engine link it would hand counters the answer.
struct ShoeEdge {
    std::uint32_t shoe = 0;
    std::int64_t roundInShoe = 0;
    std::int64_t cardsKnown = 0;
    std::vector<std::pair<game::BetType, std::int64_t>> edgesPpm;  // each watched side bet's
    std::vector<game::BetType> closed;
};
// "protection_alert": a station reported as a possible counter (protection.alert). Control clients
// only.
struct ProtectionAlert {
    std::int64_t station = 0;
    std::uint32_t shoe = 0;
    game::BetType bet = game::BetType::Tie;
    std::int64_t rounds = 0;
    std::int64_t staked = 0;
    std::int64_t meanEdgePpm = 0;
    std::int64_t stakedEdgePpm = 0;
    std::int64_t zHundredths = 0;
    bool attendantCalled = false;  // the report called an attendant (none was called already)
};

using TableEvent =
    std::variant<ShoeStarted, RoundOpened, LastBets, BetsClosed, CardDealt, RoundSettled, RoundVoided, CreditsChanged,
                 TicketIssued, HandpayLocked, HandpayReset, AttendantChanged, HostEnabledChanged, TiltChanged,
                 DisputeChanged, ReservationChanged, AutoRepeatChanged, KeepBetsChanged, BetsUnconfirmed, RoadsChanged,
                 StationGamesChanged, AftLockChanged, SideBetsChanged, ShoeEdge, ProtectionAlert>;

// The one way the table's events leave it.
using Publish = std::function<void(const TableEvent& event)>;

}  // namespace pitlink::table
