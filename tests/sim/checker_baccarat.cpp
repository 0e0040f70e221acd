#include "tests/sim/checker_baccarat.h"

namespace pitlink::sim {

namespace {

int pointsOf(const std::string& card) {
    const char rank = card.at(0);
    if (rank == 'A') {
        return 1;
    }
    if (rank >= '2' && rank <= '9') {
        return rank - '0';
    }
    return 0;  // T J Q K
}

int total(const std::vector<std::string>& hand) {
    int sum = 0;
    for (const auto& c : hand) {
        sum += pointsOf(c);
    }
    return sum % 10;
}

}  // namespace

std::optional<Coup> handsOf(const std::vector<std::string>& cards) {
    if (cards.size() < 4) {
        return std::nullopt;
    }
    Coup c{{cards[0], cards[2]}, {cards[1], cards[3]}};
    std::size_t next = 4;
    const int p = total(c.player);
    const int b = total(c.banker);
    if (p < 8 && b < 8) {
        std::optional<int> third;
        if (p <= 5) {
            if (next >= cards.size()) {
                return std::nullopt;
            }
            third = pointsOf(cards[next]);
            c.player.push_back(cards[next++]);
        }
        bool bankerDraws = false;
        if (!third) {
            bankerDraws = b <= 5;
        } else {
            const int v = *third;
            bankerDraws = b <= 2 || (b == 3 && v != 8) || (b == 4 && v >= 2 && v <= 7) ||
                          (b == 5 && v >= 4 && v <= 7) || (b == 6 && v >= 6 && v <= 7);
        }
        if (bankerDraws) {
            if (next >= cards.size()) {
                return std::nullopt;
            }
            c.banker.push_back(cards[next++]);
        }
    }
    if (next != cards.size()) {
        return std::nullopt;
    }
    return c;
}

std::optional<std::int64_t> returned(const std::string& spot, std::int64_t stake, const Coup& c) {
    const int p = total(c.player);
    const int b = total(c.banker);
    const auto pays = [stake](std::int64_t num, std::int64_t den) { return stake + stake * num / den; };
    const bool playerPair = c.player[0].at(0) == c.player[1].at(0);
    const bool bankerPair = c.banker[0].at(0) == c.banker[1].at(0);
    const std::size_t count = c.player.size() + c.banker.size();
    if (spot == "player") {
        return p > b ? pays(1, 1) : p == b ? stake : 0;
    }
    if (spot == "banker") {
        return b > p ? pays(19, 20) : p == b ? stake : 0;
    }
    if (spot == "tie") {
        return p == b ? pays(8, 1) : 0;
    }
    if (spot == "player_pair") {
        return playerPair ? pays(11, 1) : 0;
    }
    if (spot == "banker_pair") {
        return bankerPair ? pays(11, 1) : 0;
    }
    if (spot == "any_pair") {
        return playerPair || bankerPair ? pays(5, 1) : 0;
    }
    if (spot == "big") {
        return count >= 5 ? pays(1, 2) : 0;
    }
    if (spot == "small") {
        return count == 4 ? pays(3, 2) : 0;
    }
    return std::nullopt;
}

bool isCompleteCoup(const std::vector<std::string>& cards) {
    return handsOf(cards).has_value();
}

}  // namespace pitlink::sim
