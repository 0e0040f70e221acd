#include "daemon/game/card.h"

#include <cctype>

namespace pitlink::game {

namespace {
constexpr std::string_view kRankLetters = "A23456789TJQK";
constexpr std::string_view kSuitLetters = "CDHS";

std::optional<Rank> parseRank(std::string_view text) {
    if (text == "10") {
        return Rank::Ten;
    }
    if (text.size() != 1) {
        return std::nullopt;
    }
    const auto upper = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    const auto pos = kRankLetters.find(upper);
    if (pos == std::string_view::npos) {
        return std::nullopt;
    }
    return static_cast<Rank>(pos + 1);
}

std::optional<Suit> parseSuit(char c) {
    const auto upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto pos = kSuitLetters.find(upper);
    if (pos == std::string_view::npos) {
        return std::nullopt;
    }
    return static_cast<Suit>(pos);
}
}  // namespace

char rankLetter(Rank rank) {
    return kRankLetters[static_cast<std::size_t>(rank) - 1];
}
char suitLetter(Suit suit) {
    return kSuitLetters[static_cast<std::size_t>(suit)];
}

std::string Card::toString() const {
    return {rankLetter(rank_), suitLetter(suit_)};
}

std::optional<Card> parseCard(std::string_view text) {
    if (text.size() < 2 || text.size() > 3) {
        return std::nullopt;
    }
    const auto rank = parseRank(text.substr(0, text.size() - 1));
    const auto suit = parseSuit(text.back());
    if (!rank || !suit) {
        return std::nullopt;
    }
    return Card(*rank, *suit);
}

}  // namespace pitlink::game
