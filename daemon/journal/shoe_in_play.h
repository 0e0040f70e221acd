#pragma once
// A reader table's shoe as the journal says it stands (schema/README.md "The shoe in play"): the
// physical shoe stays in the shoe box when the controller restarts, so a start-up resumes it
// instead of asking for a new one. Rebuilt from the shoe's records in journal order (followShoe),
// and carried over by a new segment (`segment.carried`), so that a start-up reads only the
// active segment. An RNG shoe is never resumed: its order is not journaled.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "daemon/game/big_road.h"
#include "daemon/game/shoe_composition.h"

namespace pitlink::journal {

struct ShoeInPlay {
    std::int64_t shoe = 0;
    std::int64_t decks = 0;
    std::int64_t roundInShoe = 0;  // rounds opened from it, voided ones too
    std::optional<std::int64_t> cutCardsBehind;
    bool burned = false;  // its burn has been reported
    // Full decks less every card that left it: burned, and dealt into a round (a settled one, a
    // voided one, a misdeal's cards before the refused card). A refused card never entered a round
    // (the reader may have misread it): it is not taken out.
    game::ShoeComposition left;
    // Each settled round's marks, in order: the roads and statistics. The result as the table
    // settled it (a later re-settlement does not redraw the live roads).
    std::vector<game::RoundMarks> results;
    // The burn's cards after the turned one, burned face down: out of `left`, but not known to a
    // player (game protection computes its edges without them, docs/protection.md).
    std::vector<game::Card> burnHidden;

    // The cut card is out: no more cards are left than the cut had behind it (a new shoe is due).
    [[nodiscard]] bool cutCardOut() const { return cutCardsBehind && left.total() <= *cutCardsBehind; }
    friend bool operator==(const ShoeInPlay&, const ShoeInPlay&) = default;
};

// The kinds followShoe reads, in the order the journal holds them.
[[nodiscard]] std::vector<std::string_view> shoeRecordKinds();

// Follows one record: `shoe` is what the records before it said (nullopt: no reader shoe in play).
// shoe.started starts a reader's shoe (an RNG shoe: none); shoe.ended ends it; the others change
// the shoe in play. A body that does not fit throws BodyError.
void followShoe(std::optional<ShoeInPlay>& shoe, std::string_view kind, const nlohmann::json& body);

// As `segment.carried` holds it: {"shoe", "decks", "round_in_shoe", "cut_cards_behind" (when
// reported), "burned", "left" {card: count, every card with one left at least}, "results"
// ["B", "Pp", "T9", ...]: winner, "p"/"b" for a Player/Banker pair, the natural's total,
// "burn_hidden" [cards] (when the burn had cards after the turned one)}.
[[nodiscard]] nlohmann::json shoeInPlayJson(const ShoeInPlay& shoe);
// Back; a field that does not fit throws json::exception (BodyError).
[[nodiscard]] ShoeInPlay shoeInPlayFromJson(const nlohmann::json& carried);

}  // namespace pitlink::journal
