#include "daemon/journal/shoe_in_play.h"

#include "daemon/game/outcome.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/round_records.h"
#include "daemon/journal/records/typed_record.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// A hand of round.settled ("player", "banker": its cards in deal order, two or three).
game::Hand settledHand(const json& body, std::string_view side) {
    const json& cards = arrayField(body, side);
    if (cards.size() < 2 || cards.size() > 3) {
        throw BodyError("\"" + std::string(side) + "\" must hold two or three cards");
    }
    game::Hand hand;
    for (const json& card : cards) {
        hand.add(cardValue(card, std::string("a ") + std::string(side) + " card"));
    }
    return hand;
}

std::string resultText(const game::RoundMarks& marks) {
    std::string text(1, game::winnerLetter(marks.winner));
    if (marks.playerPair) {
        text += 'p';
    }
    if (marks.bankerPair) {
        text += 'b';
    }
    if (marks.natural != 0) {
        text += static_cast<char>('0' + marks.natural);
    }
    return text;
}

game::RoundMarks resultOf(const json& value) {
    const std::string& text = stringValue(value, "a result");
    game::RoundMarks marks;
    const auto refuse = [&text]() -> game::RoundMarks {
        throw BodyError("a result must be B, P or T, then p and b for the pairs, then 8 or 9 for a natural, not \"" +
                        text.substr(0, 20) + "\"");
    };
    std::size_t i = 0;
    switch (text.empty() ? '\0' : text[0]) {
        case 'B':
            marks.winner = game::Winner::Banker;
            break;
        case 'P':
            marks.winner = game::Winner::Player;
            break;
        case 'T':
            marks.winner = game::Winner::Tie;
            break;
        default:
            return refuse();
    }
    ++i;
    if (i < text.size() && text[i] == 'p') {
        marks.playerPair = true;
        ++i;
    }
    if (i < text.size() && text[i] == 'b') {
        marks.bankerPair = true;
        ++i;
    }
    if (i < text.size() && (text[i] == '8' || text[i] == '9')) {
        marks.natural = static_cast<std::uint8_t>(text[i] - '0');
        ++i;
    }
    if (i != text.size()) {
        return refuse();
    }
    return marks;
}

}  // namespace

std::vector<std::string_view> shoeRecordKinds() {
    return {kind::kShoeStarted, kind::kShoeEnded, kind::kShoeCut,     kind::kShoeBurned,
            kind::kRoundOpened, kind::kCardDealt, kind::kRoundSettled};
}

void followShoe(std::optional<ShoeInPlay>& shoe, std::string_view kind, const json& body) {
    if (kind == kind::kShoeStarted) {
        const auto started = readBody<ShoeStartedRecord>(body);
        shoe.reset();
        if (!started.rng) {
            shoe = ShoeInPlay{started.shoe,
                              started.decks,
                              0,
                              std::nullopt,
                              false,
                              game::ShoeComposition::fullDecks(static_cast<int>(started.decks)),
                              {},
                              {}};
        }
        return;
    }
    if (!shoe) {
        return;  // an RNG shoe, or one started before what was read
    }
    if (kind == kind::kShoeEnded) {
        shoe.reset();
    } else if (kind == kind::kShoeCut) {
        if (const auto cut = readBody<ShoeCutRecord>(body); cut.shoe == shoe->shoe) {
            shoe->cutCardsBehind = cut.cardsBehind;
        }
    } else if (kind == kind::kShoeBurned) {
        if (const auto burned = readBody<ShoeBurnedRecord>(body); burned.shoe == shoe->shoe) {
            for (const game::Card& card : burned.cards) {
                shoe->left.remove(card);
            }
            shoe->burned = true;
            shoe->burnHidden.assign(burned.cards.begin() + 1, burned.cards.end());
        }
    } else if (kind == kind::kRoundOpened) {
        // Every round is dealt from the shoe in play: a round of another shoe says that the shoe
        // in play is not known (a journal the table did not write); nothing is resumed then.
        if (const auto opened = readBody<RoundOpenedRecord>(body); opened.shoe == shoe->shoe) {
            shoe->roundInShoe = opened.roundInShoe;
        } else {
            shoe.reset();
        }
    } else if (kind == kind::kCardDealt) {
        shoe->left.remove(readBody<CardDealtRecord>(body).card);
    } else if (kind == kind::kRoundSettled) {
        const game::Coup coup{settledHand(body, "player"), settledHand(body, "banker")};
        shoe->results.push_back(game::RoundMarks::of(game::evaluate(coup)));
    }
}

json shoeInPlayJson(const ShoeInPlay& shoe) {
    json left = json::object();
    for (int i = 0; i < game::kCardsPerDeck; ++i) {
        if (const int n = shoe.left.count(i); n > 0) {
            left[game::Card::fromIndex(i).toString()] = n;
        }
    }
    json results = json::array();
    for (const game::RoundMarks& marks : shoe.results) {
        results.push_back(resultText(marks));
    }
    json body{{"shoe", shoe.shoe},     {"decks", shoe.decks},     {"round_in_shoe", shoe.roundInShoe},
              {"burned", shoe.burned}, {"left", std::move(left)}, {"results", std::move(results)}};
    putIfSet(body, "cut_cards_behind", shoe.cutCardsBehind);
    if (!shoe.burnHidden.empty()) {
        json hidden = json::array();
        for (const game::Card& card : shoe.burnHidden) {
            hidden.push_back(card.toString());
        }
        body["burn_hidden"] = std::move(hidden);
    }
    return body;
}

ShoeInPlay shoeInPlayFromJson(const json& carried) {
    ShoeInPlay shoe;
    shoe.shoe = integerField(carried, "shoe", 1, kMaxShoeNumber);
    shoe.decks = integerField(carried, "decks", game::kMinDecks, game::kMaxDecks);
    shoe.roundInShoe = integerField(carried, "round_in_shoe", 0, kMaxRoundInShoe);
    shoe.cutCardsBehind = optionalIntegerField(carried, "cut_cards_behind", 1, kMaxShoeCards);
    shoe.burned = booleanField(carried, "burned");
    for (const auto& [name, count] : objectField(carried, "left").items()) {
        const game::Card card = cardValue(json(name), "a card left");
        if (card.toString() != name) {
            throw BodyError("a card left must be written as " + card.toString() + ", not \"" + name.substr(0, 20) +
                            "\"");
        }
        shoe.left.add(card, static_cast<int>(integerValue(count, "the count of " + name, 1, shoe.decks)));
    }
    for (const json& result : arrayField(carried, "results")) {
        shoe.results.push_back(resultOf(result));
    }
    if (carried.contains("burn_hidden")) {
        const json& hidden = arrayField(carried, "burn_hidden");
        if (hidden.empty() || hidden.size() >= static_cast<std::size_t>(game::kMaxBurn)) {
            throw BodyError("\"burn_hidden\" must hold 1 to " + std::to_string(game::kMaxBurn - 1) + " cards");
        }
        for (const json& card : hidden) {
            shoe.burnHidden.push_back(cardValue(card, "a card burned face down"));
        }
    }
    if (shoe.results.size() > static_cast<std::size_t>(shoe.roundInShoe)) {
        throw BodyError("the shoe has more results (" + std::to_string(shoe.results.size()) + ") than rounds (" +
                        std::to_string(shoe.roundInShoe) + ")");
    }
    return shoe;
}

}  // namespace pitlink::journal
