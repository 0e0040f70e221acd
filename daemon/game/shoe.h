#pragma once
// A shoe dealt from the internal RNG: shuffled, cut, burned, numbered (docs/rules.md "Cards, shoe, dealing").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game/card.h"
#include "daemon/game/hand.h"
#include "daemon/game/random_source.h"
#include "daemon/game/shoe_composition.h"

namespace pitlink::game {

struct ShoeConfig {
    int decks = 8;            // 1..8
    int cutCardFromEnd = 14;  // cards left behind the cut card
    bool operator==(const ShoeConfig&) const = default;
};

// Why a shoe configuration cannot be used, or nullopt. The cut card must leave at least one
// full round (6 cards) behind it, and the burn (up to 11 cards) plus a round in front of it.
[[nodiscard]] std::optional<std::string> shoeConfigProblem(const ShoeConfig& config);
inline constexpr int kMaxBurn = 11;

class Shoe {
public:
    // Shuffles config.decks decks with an unbiased Fisher-Yates on `random`, then burns.
    Shoe(const ShoeConfig& config, RandomSource& random, std::uint32_t number);
    // A shoe in a known order (tests, replays); the burn is applied to it as to any shoe.
    Shoe(const ShoeConfig& config, std::vector<Card> order, std::uint32_t number);

    [[nodiscard]] std::uint32_t number() const { return number_; }
    [[nodiscard]] Card burnCard() const { return cards_.front(); }
    [[nodiscard]] int burnedCount() const { return burned_; }  // the turned card and those burned after it
    [[nodiscard]] int size() const { return static_cast<int>(cards_.size()); }
    [[nodiscard]] int remaining() const { return size() - position_; }
    [[nodiscard]] int dealt() const { return position_ - burned_; }

    // The cut card has come out: finish the round in progress, then start a new shoe.
    [[nodiscard]] bool cutCardOut() const { return position_ >= cutIndex_; }

    // Next card. Precondition: remaining() > 0 (guaranteed for a whole round by shoeConfigProblem).
    Card draw() { return cards_[static_cast<std::size_t>(position_++)]; }

    [[nodiscard]] const std::vector<Card>& order() const { return cards_; }

private:
    // Places the cut card and burns: the start every shoe shares once its order is set.
    void start(const ShoeConfig& config);

    std::vector<Card> cards_;
    int position_ = 0;
    int burned_ = 0;
    int cutIndex_ = 0;
    std::uint32_t number_ = 0;
};

// Fisher-Yates (Durstenfeld): every permutation equally likely given an unbiased source.
void shuffleCards(std::vector<Card>& cards, RandomSource& random);

}  // namespace pitlink::game
