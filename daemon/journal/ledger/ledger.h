#pragma once
// Credits and meters of every station and of the table, computed from journal records and only
// from them: the live table applies each record as it is journaled, start-up and audit replay
// the journal through the same apply(), so the two can never disagree about what a record means.
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "daemon/game/fraction.h"
#include "daemon/game/settlement.h"
#include "daemon/journal/ledger/meters.h"
#include "daemon/journal/ledger/promo_credits.h"
#include "daemon/journal/store/record.h"

namespace pitlink::journal {

using game::Money;

// A record that contradicts the ledger (a balance that does not follow, credits below zero, a
// meter going down): the journal or the program is wrong, and the table must stop.
class LedgerError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One game at one denomination: the play SAS reports as game N (LP 52, 2F/6F/AF with a game) and
// under LP B0's denomination (protocols/sas/README.md "Games and denominations").
struct PlayKey {
    std::string game;        // empty: rounds of records naming no game (the first game's)
    Money denomination = 0;  // minor units per credit; 0: journaled before it was (the accounting one)
    friend bool operator==(const PlayKey&, const PlayKey&) = default;
    friend bool operator<(const PlayKey& a, const PlayKey& b) {
        return std::tie(a.game, a.denomination) < std::tie(b.game, b.denomination);
    }
};

// The meters kept per play: a round's stakes and what it paid, its count and result, its jackpot.
inline constexpr std::array<Meter, 6> kPlayMeters{Meter::CoinIn,   Meter::CoinOut,   Meter::GamesPlayed,
                                                  Meter::GamesWon, Meter::GamesLost, Meter::Jackpots};

struct StationAccount {
    Money credits = 0;
    // Stakes taken off the credits for bets of a round not yet settled (placed, not withdrawn or
    // returned): still the station's credits as SAS counts them until the round is metered as
    // coin in (protocols/sas/README.md "Meters").
    Money inPlay = 0;
    MeterSet meters;
    // kPlayMeters of `meters` split by game and denomination: for each of them the sum over plays
    // is the station's meter.
    std::map<PlayKey, MeterSet> plays;
    // GamesPlayed when the station's door (or the table's) last closed: LP 18's games since then.
    std::int64_t gamesAtDoorClose = 0;
    // How many tickets the station redeemed and printed (LP 50; the amounts are meters).
    std::int64_t ticketsIn = 0;
    std::int64_t ticketsOut = 0;
    game::Fraction breakage{0, 1};  // exact: sum of the fractions of a minor unit dropped by rounding
    // The promotional parts of `credits` and of the stakes in play; the rest is cashable.
    PromoCredits promo;
    [[nodiscard]] Money cashable() const { return credits - promo.held.total(); }
    friend bool operator==(const StationAccount& a, const StationAccount& b) {
        return a.credits == b.credits && a.inPlay == b.inPlay && a.meters == b.meters && a.plays == b.plays &&
               a.gamesAtDoorClose == b.gamesAtDoorClose && a.ticketsIn == b.ticketsIn && a.ticketsOut == b.ticketsOut &&
               a.breakage == b.breakage && a.promo == b.promo;
    }
};

struct CreditRecord;  // records/cashier_records.h

class Ledger {
public:
    // `round`: the record's round (a bet's stake is known by its round and number).
    void apply(std::string_view kind, std::optional<std::int64_t> station, const nlohmann::json& body,
               std::optional<std::int64_t> round = std::nullopt);
    void apply(const JournalRecord& record);
    // The same with the record's body as the caller parsed it (an object; any object for a kind
    // that !readsBody, whose body the ledger never looks at).
    void apply(const JournalRecord& record, const nlohmann::json& body);
    // Whether apply() reads the body of a record of this kind (a reader that parses bodies once
    // for several checks parses only those someone reads).
    [[nodiscard]] static bool readsBody(std::string_view kind);
    // A credit as its writer filled it (a fact of this process: no body to read).
    void applyCredit(std::optional<std::int64_t> station, const CreditRecord& credit,
                     std::optional<std::int64_t> round = std::nullopt);
    // The station's account (an empty one for a station without records).
    [[nodiscard]] StationAccount station(std::int64_t number) const;

    [[nodiscard]] Money credits(std::int64_t station) const;
    [[nodiscard]] const std::map<std::int64_t, StationAccount>& stations() const { return stations_; }
    [[nodiscard]] const MeterSet& tableOwn() const { return table_; }
    // The table's meters: its own counters plus the sum of every station's.
    [[nodiscard]] MeterSet tableTotals() const;
    [[nodiscard]] Money totalCredits() const;

    // The body of a meters.snapshot record, and back.
    [[nodiscard]] nlohmann::json toJson() const;
    [[nodiscard]] static Ledger fromJson(const nlohmann::json& snapshot);
    // Empty when equal (a station absent counts as all zero), else the first difference found
    // ("station 3 coin_in 1500 != 1000").
    [[nodiscard]] std::string differenceFrom(const Ledger& other) const;
    // False for a ledger read from a snapshot written before plays, door closes and ticket counts
    // were kept: each station's play meters are then taken as one play naming no game or
    // denomination, its games at the last door close as its games played then (LP 18 counts from
    // there) and its ticket counts as 0 (not compared).
    [[nodiscard]] bool playsKnown() const { return playsKnown_; }
    // What a start-up from `snapshot` (one with !playsKnown()) took for the plays and door closes:
    // a replay of the whole journal adopts it there, so that it meets the snapshots written after.
    void adoptPlaysOf(const Ledger& snapshot);
    // Everything equal, what differenceFrom does not compare included (the flags of an old snapshot).
    friend bool operator==(const Ledger&, const Ledger&) = default;

private:
    void applyKind(std::string_view kind, std::optional<std::int64_t> station, const nlohmann::json& body,
                   std::optional<std::int64_t> round);
    // False for a ledger read from a snapshot written before stakes in play were kept (they
    // are then taken as 0 and not compared).
    bool inPlayKnown_ = true;
    bool playsKnown_ = true;
    StationAccount& account(std::optional<std::int64_t> station, std::string_view kind);

    std::map<std::int64_t, StationAccount> stations_;
    MeterSet table_;
};

// a + b exactly, reduced; LedgerError if the result does not fit.
[[nodiscard]] game::Fraction addFractions(game::Fraction a, game::Fraction b);
// "3/20" -> {3, 20}, "2" -> {2, 1}, without the paytable's term limit (breakage sums grow); nullopt if malformed.
[[nodiscard]] std::optional<game::Fraction> parseFraction(std::string_view text);

}  // namespace pitlink::journal
