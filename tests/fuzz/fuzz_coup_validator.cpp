// libFuzzer target: the card-sequence validator of physical shoes. Input bytes: byte 0 picks
// the deck count, then each byte is either a card (0..51), "unreadable" (52..63) or text that
// goes through parseCard (64..255: two bytes read as a card name). Checks, on every input, that
// an accepted coup obeys the drawing rules and that the shoe composition stays consistent.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "daemon/game/coup_validator.h"
#include "daemon/game/third_card_rule.h"

using namespace pitlink::game;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const int decks = 1 + data[0] % 8;
    const ShoeComposition full = ShoeComposition::fullDecks(decks);
    CoupValidator validator(full, 3);
    int accepted = 0;
    for (std::size_t i = 1; i < size; ++i) {
        std::optional<Card> card;
        if (data[i] < 52) {
            card = Card::fromIndex(data[i]);
        } else if (data[i] < 64) {
            (void)validator.unreadable();
            continue;
        } else if (i + 1 < size) {
            card = parseCard(std::string{static_cast<char>(data[i] - 64 + ' '), static_cast<char>(data[i + 1])});
            ++i;
        }
        if (!card) {
            continue;
        }
        const bool due = !validator.complete();
        const auto refusal = validator.offer(*card);
        if (!refusal) {
            ++accepted;
            if (!due) {
                std::abort();  // a card accepted when none was due
            }
        } else if (refusal->reason.empty() || refusal->position != validator.coup().cardCount() + 1) {
            std::abort();
        }
    }
    if (validator.remaining().total() != full.total() - accepted || validator.coup().cardCount() != accepted) {
        std::abort();
    }
    if (validator.complete()) {
        // A complete coup must be what dealing its cards in order gives.
        std::array<Card, 6> order{};
        const Coup& c = validator.coup();
        int n = 0;
        for (int k = 0; k < 2; ++k) {
            order[static_cast<std::size_t>(n++)] = c.player[k];
            order[static_cast<std::size_t>(n++)] = c.banker[k];
        }
        if (c.player.size() == 3) {
            order[static_cast<std::size_t>(n++)] = c.player[2];
        }
        if (c.banker.size() == 3) {
            order[static_cast<std::size_t>(n++)] = c.banker[2];
        }
        int next = 0;
        const Coup dealt = dealCoup([&] { return order[static_cast<std::size_t>(next++)]; });
        if (next != n || dealt.player.size() != c.player.size() || dealt.banker.size() != c.banker.size()) {
            std::abort();
        }
    }
    return 0;
}
