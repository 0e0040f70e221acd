#pragma once
// The records of the shoe and of a round as the table deals it: shoe.started, shoe.ended,
// shoe.cut, shoe.burned, round.opened, round.closed, card.dealt, card.refused, round.voided,
// dispute.raised, dispute.resolved (schema/README.md). Typed records (typed_record.h): the table
// fills them; SAS reads round.closed and round.voided back (the games they start and end).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/game/card.h"
#include "daemon/game/round_settlement.h"
#include "daemon/game/shoe.h"
#include "daemon/game/shoe_composition.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

// What an RNG shoe's start says of its preparation; a reader's shoe is prepared where pitlink
// does not see it (its cut and burn follow as shoe.cut and shoe.burned).
struct RngShoe {
    std::int64_t cards = 0;  // in the shoe, burned ones included
    std::int64_t cutFromEnd = 0;
    game::Card burnCard;
    std::int64_t burned = 0;  // the burn card and those it burned
};

// Why a shoe started ("reason"; journals before issue 33 do not say): the table's first shoe, a
// new shoe reported (engine new_shoe, pitlinkctl shoe new, the shoe button), the RNG shoe's cut
// card out, or an RNG table's start (its order is never journaled: a start shuffles a new one).
inline constexpr std::string_view kShoeFirst = "first";
inline constexpr std::string_view kShoeReported = "new_shoe";
inline constexpr std::string_view kShoeCutCardOut = "cut_card";
inline constexpr std::string_view kShoeRestart = "restart";

// shoe.started: "source" is "rng" with `rng`, else "reader".
struct ShoeStartedRecord {
    static constexpr std::string_view kKind = kind::kShoeStarted;
    std::int64_t shoe = 0;
    std::int64_t decks = 0;
    std::optional<RngShoe> rng{};
    std::optional<std::string> reason{};
};
[[nodiscard]] nlohmann::json toBody(const ShoeStartedRecord& record);
[[nodiscard]] ShoeStartedRecord fromBody(const nlohmann::json& body, std::type_identity<ShoeStartedRecord>);

// shoe.ended: the shoe a new one replaces.
struct ShoeEndedRecord {
    static constexpr std::string_view kKind = kind::kShoeEnded;
    std::int64_t shoe = 0;
    std::int64_t rounds = 0;
    std::int64_t cardsLeft = 0;  // -1: a reader's shoe (pitlink does not hold it)
};
[[nodiscard]] nlohmann::json toBody(const ShoeEndedRecord& record);

// shoe.cut: a reader's shoe's cut card.
struct ShoeCutRecord {
    static constexpr std::string_view kKind = kind::kShoeCut;
    std::int64_t shoe = 0;
    std::int64_t cardsBehind = 0;
};
[[nodiscard]] nlohmann::json toBody(const ShoeCutRecord& record);
[[nodiscard]] ShoeCutRecord fromBody(const nlohmann::json& body, std::type_identity<ShoeCutRecord>);

// shoe.burned: a reader's shoe's burn, the turned card first.
struct ShoeBurnedRecord {
    static constexpr std::string_view kKind = kind::kShoeBurned;
    std::int64_t shoe = 0;
    std::vector<game::Card> cards;
    std::int64_t cardsLeft = 0;  // in the shoe after the burn
};
[[nodiscard]] nlohmann::json toBody(const ShoeBurnedRecord& record);
[[nodiscard]] ShoeBurnedRecord fromBody(const nlohmann::json& body, std::type_identity<ShoeBurnedRecord>);

// The largest shoe number (the table counts shoes in 32 bits), the most cards a shoe holds, and
// the most rounds a shoe's count may reach (the table counts them in an int).
inline constexpr std::int64_t kMaxShoeNumber = 4'294'967'294;
inline constexpr std::int64_t kMaxShoeCards = std::int64_t{game::kMaxDecks} * game::kCardsPerDeck;
inline constexpr std::int64_t kMaxRoundInShoe = 2'147'483'647;

// The rule a round is settled under, from its round.opened body: `settle` ("spot"), or per bet when
// the round was opened before settlement by spot. An unknown rule is refused with BodyError.
[[nodiscard]] game::SettleRule settleRuleField(const nlohmann::json& openedBody);

// round.opened.
struct RoundOpenedRecord {
    static constexpr std::string_view kKind = kind::kRoundOpened;
    std::int64_t shoe = 0;
    std::int64_t roundInShoe = 0;
    std::string paytable;  // its id
    std::string paytableSha;
    // The rule the round is settled under, whatever a later version settles by: recovery, recall
    // and re-settlement read it from here.
    game::SettleRule settle = game::SettleRule::PerSpot;
};
[[nodiscard]] nlohmann::json toBody(const RoundOpenedRecord& record);
[[nodiscard]] RoundOpenedRecord fromBody(const nlohmann::json& body, std::type_identity<RoundOpenedRecord>);

// round.closed: no more bets; each station's game starts (SAS 7E).
struct RoundClosedRecord {
    static constexpr std::string_view kKind = kind::kRoundClosed;
    // Each station's stakes in the round, by station, those with a stake only. Journals from
    // before SAS game events have none: read back as empty.
    std::map<std::int64_t, std::int64_t> wagered;
    std::optional<std::int64_t> deal;  // the station whose DEAL closed the bets (rounds.start: deal)
    friend bool operator==(const RoundClosedRecord&, const RoundClosedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const RoundClosedRecord& record);
[[nodiscard]] RoundClosedRecord fromBody(const nlohmann::json& body, std::type_identity<RoundClosedRecord>);

// card.dealt.
struct CardDealtRecord {
    static constexpr std::string_view kKind = kind::kCardDealt;
    std::int64_t position = 0;  // 1-6, deal order
    game::Card card;
    std::string source;  // "rng" or "reader"
    std::int64_t rescans = 0;
};
[[nodiscard]] nlohmann::json toBody(const CardDealtRecord& record);
[[nodiscard]] CardDealtRecord fromBody(const nlohmann::json& body, std::type_identity<CardDealtRecord>);

// card.refused: a card the rules or the shoe cannot have (a misdeal: the round is voided).
struct CardRefusedRecord {
    static constexpr std::string_view kKind = kind::kCardRefused;
    std::int64_t position = 0;
    game::Card card;
    std::string reason;
};
[[nodiscard]] nlohmann::json toBody(const CardRefusedRecord& record);

// What addVoid (settlement_records.h) adds to round.voided's reason.
struct VoidDetail {
    std::optional<std::string> by{};  // the table or an operator; a start-up's void has none
    bool recovered = false;           // voided at start-up
    // After bets closed: the stations' games had started (SAS 7E) and the void ends them (7F).
    // The table always says; a start-up's void and older journals do not.
    std::optional<bool> afterClose{};
};

// round.voided: every stake goes back (the credits follow it).
struct RoundVoidedRecord {
    static constexpr std::string_view kKind = kind::kRoundVoided;
    std::string reason;
    std::optional<std::string> by;
    bool recovered = false;
    std::optional<bool> afterClose;
    friend bool operator==(const RoundVoidedRecord&, const RoundVoidedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const RoundVoidedRecord& record);
[[nodiscard]] RoundVoidedRecord fromBody(const nlohmann::json& body, std::type_identity<RoundVoidedRecord>);

// dispute.raised: a player's dispute of a deal, held for an operator.
struct DisputeRaisedRecord {
    static constexpr std::string_view kKind = kind::kDisputeRaised;
    std::string text;
    bool held = true;  // journals from before disputes held the table: notes only (no "held")
};
[[nodiscard]] nlohmann::json toBody(const DisputeRaisedRecord& record);

// dispute.resolved.
struct DisputeResolvedRecord {
    static constexpr std::string_view kKind = kind::kDisputeResolved;
    bool upheld = false;  // "upheld" or "rejected"
    std::string reason;
    std::string by;
    bool resettled = false;  // the round's re-settlement is in the same transaction, before it
};
[[nodiscard]] nlohmann::json toBody(const DisputeResolvedRecord& record);

}  // namespace pitlink::journal
