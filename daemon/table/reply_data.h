#pragma once
// What an accepted request of the table answers, one type per shape (the wire names are in
// daemon/io/reply_line.cpp and the protocol READMEs).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/resettlement.h"
#include "daemon/table/table_events.h"
#include "daemon/table/table_status.h"

namespace pitlink::table {

// {}: done, nothing to tell.
struct NoData {};
// {"already": true}: the state asked for was already so (nothing journaled).
struct AlreadySo {};
// {"round": n}: the round opened, closed, voided or disputed.
struct RoundAnswer {
    std::int64_t round = 0;
};
// {"round", "bets_returned"}: a round voided with its bets handed back.
struct RoundVoidedAnswer {
    std::int64_t round = 0;
    std::int64_t betsReturned = 0;
};
// {"shoe": n}: a new shoe.
struct ShoeAnswer {
    std::uint32_t shoe = 0;
};
// {"position": n}: a card taken into the round (1-based, in deal order).
struct CardAnswer {
    std::int64_t position = 0;
};
// {"rescan": true, "rescans": n}: an unreadable card, to be scanned again.
struct RescanAnswer {
    int rescans = 0;
};
// {"round", "credits", "slip"}: a station's bets after a change, and its credits.
struct BetsAnswer {
    std::int64_t round = 0;
    game::Money credits = 0;
    game::BetSlip slip;
};
// {"credits": n}: a station's credits after a ticket in or a tip.
struct CreditsAnswer {
    game::Money credits = 0;
};
// {"reserved": bool, "until_ms"}: a reservation (until when, on the table clock) or its release.
struct ReservedAnswer {
    bool reserved = false;
    std::int64_t untilMs = 0;
};
// {"ticket": {...}}: a cash-out ticket (the same fields as the "ticket" event).
struct TicketAnswer {
    TicketIssued ticket;
};
// {"to_host": amount, "credits": n}: a cash-out the accounting host took by a cashless transfer
// (SAS AFT host cash-out), and the credits left (restricted ones, or what it did not take).
struct HostCashoutAnswer {
    game::Money amount = 0;
    game::Money credits = 0;
};
// {"handpay": amount, "why": ...}: a cash-out that locked the station for a hand-pay.
struct HandpayAnswer {
    game::Money amount = 0;
    std::string why;
};
// {"amount": n}: a hand-pay reset, with what was paid.
struct HandpayPaidAnswer {
    game::Money amount = 0;
};
// {"applied": [...], "restart_needed": [...]}: a SIGHUP's settings.
struct ReconfigureAnswer {
    std::vector<std::string> applied;
    std::vector<std::string> restartNeeded;
};
// {"round", "records", "credits"}: a re-settlement: its outcome and the bets it adjusted, and the
// credits it moved by station, as the journal's records have them (schema/README.md).
struct ResettleAnswer {
    std::int64_t round = 0;
    journal::Resettlement records;
};

// {"station", "level", "levels", "personal", "spots": {spot: {min, max, max_win, max_payout}},
// "winnings": {spot: n}}: what the station shows over its bet spots (seed 000 "Show Bet Limits",
// "Show Winnings").
struct SpotLimitsView {
    game::BetType spot = game::BetType::Player;
    game::StakeRange range;  // at the station's level and personal limits; max lowered to the payout limit
    game::Money maxWin = 0;  // the max stake times the spot's highest ratio
};
struct LimitsAnswer {
    std::int64_t station = 0;
    int level = 1;
    int levels = 1;
    game::PersonalLimits personal;
    game::Money denomination = 1;            // the station's value of one credit (minor units)
    std::vector<game::Money> denominations;  // what the table offers
    std::vector<SpotLimitsView> spots;       // the spots the paytable offers
    game::BetSlip winnings;                  // per spot placed: its stake times the spot's highest ratio
};

// {"station", "rounds": [...]}: a station's bet list, newest first: its rounds as recalled, each
// written for that station alone at the edge (journal::stationBetListJson).
struct BetListAnswer {
    std::int64_t station = 0;
    std::vector<journal::RecalledRound> rounds;
};

// {"auto_repeat": bool} or {"keep_bets": bool}: a station's standing bets after the request.
struct AutoRepeatAnswer {
    bool on = false;
    bool keepBets = false;  // the answer is about Keep Bets On
};
// {"round", "confirmed": true, "slip"}: confirm_bets: the station's bets confirmed as they stand.
struct ConfirmedAnswer {
    std::int64_t round = 0;
    game::BetSlip slip;
};

// {"station", "round", "upheld", "resettlement"}: a dispute an operator resolved (with the
// re-settlement it made, as `resettle` answers it).
struct DisputeResolvedAnswer {
    std::int64_t station = 0;
    std::int64_t round = 0;
    bool upheld = false;
    std::optional<ResettleAnswer> resettlement;
};

// {"games": [...]}: the games a station plays after it joined or left one, in the order joined.
struct GamesAnswer {
    std::vector<std::string> games;
};

// The shoe's roads and statistics (the "roads" event's fields).
struct RoadsAnswer {
    RoadsChanged roads;
};

using ReplyData =
    std::variant<NoData, AlreadySo, RoundAnswer, RoundVoidedAnswer, ShoeAnswer, CardAnswer, RescanAnswer, BetsAnswer,
                 CreditsAnswer, ReservedAnswer, TicketAnswer, HostCashoutAnswer, HandpayAnswer, HandpayPaidAnswer,
                 ReconfigureAnswer, ResettleAnswer, TableStatus, LimitsAnswer, DisputeResolvedAnswer, RoadsAnswer,
                 AutoRepeatAnswer, BetListAnswer, ConfirmedAnswer, GamesAnswer>;

}  // namespace pitlink::table
