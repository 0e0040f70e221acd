#include "daemon/game/shoe.h"

#include <stdexcept>
#include <utility>

namespace pitlink::game {

std::optional<std::string> shoeConfigProblem(const ShoeConfig& config) {
    if (config.decks < kMinDecks || config.decks > kMaxDecks) {
        return "decks must be between " + std::to_string(kMinDecks) + " and " + std::to_string(kMaxDecks);
    }
    const int maxCut = config.decks * kCardsPerDeck - kMaxBurn - kMaxCardsPerCoup;
    if (config.cutCardFromEnd < kMaxCardsPerCoup || config.cutCardFromEnd > maxCut) {
        return "cut card must leave between " + std::to_string(kMaxCardsPerCoup) + " and " + std::to_string(maxCut) +
               " cards behind it for " + std::to_string(config.decks) + " deck(s)";
    }
    return std::nullopt;
}

void shuffleCards(std::vector<Card>& cards, RandomSource& random) {
    for (std::size_t i = cards.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>(uniformBelow(random, i));
        std::swap(cards[i - 1], cards[j]);
    }
}

namespace {
std::vector<Card> orderedDecks(int decks) {
    std::vector<Card> cards;
    cards.reserve(static_cast<std::size_t>(decks) * kCardsPerDeck);
    for (int d = 0; d < decks; ++d) {
        for (int i = 0; i < kCardsPerDeck; ++i) {
            cards.push_back(Card::fromIndex(i));
        }
    }
    return cards;
}

void requireUsable(const ShoeConfig& config) {
    if (const auto problem = shoeConfigProblem(config)) {
        throw std::invalid_argument("shoe configuration: " + *problem);
    }
}
}  // namespace

Shoe::Shoe(const ShoeConfig& config, RandomSource& random, std::uint32_t number)
    : cards_(orderedDecks(config.decks)), number_(number) {
    requireUsable(config);
    shuffleCards(cards_, random);
    start(config);
}

Shoe::Shoe(const ShoeConfig& config, std::vector<Card> order, std::uint32_t number)
    : cards_(std::move(order)), number_(number) {
    requireUsable(config);
    ShoeComposition composition;
    for (const Card card : cards_) {
        composition.add(card);
    }
    if (composition != ShoeComposition::fullDecks(config.decks)) {
        throw std::invalid_argument("shoe order must hold every card of " + std::to_string(config.decks) +
                                    " deck(s) exactly once per deck");
    }
    start(config);
}

void Shoe::start(const ShoeConfig& config) {
    cutIndex_ = size() - config.cutCardFromEnd;
    // The first card is turned; as many further cards as its burn value are discarded.
    burned_ = 1 + cards_.front().burnCount();
    position_ = burned_;
}

}  // namespace pitlink::game
