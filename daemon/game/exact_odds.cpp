#include "daemon/game/exact_odds.h"

#include <array>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon/game/hand.h"
#include "daemon/game/outcome_histogram.h"
#include "daemon/game/third_card_rule.h"

namespace pitlink::game {

namespace {

// Every event any bet looks at is a function of: both totals and card counts (the main game),
// the pair flags (ranks of the first four cards), and the perfect-pair flags and nines pattern
// (suits of the first four cards). Third cards matter only by their points. The enumeration
// therefore walks ranks for the first four cards, points for the third cards, and suits only
// where a suit can change an event, and accumulates weights per outcome signature.
struct Weighted {
    int signature;
    std::uint64_t weight;
};

class Enumerator {
public:
    explicit Enumerator(const ShoeComposition& comp) : comp_(comp) {
        const std::uint64_t n = static_cast<std::uint64_t>(comp.total());
        tail_[4] = (n - 4) * (n - 5);
        tail_[5] = n - 5;
        tail_[6] = 1;
        for (int r = 0; r < kRanks; ++r) {
            rankLeft_[static_cast<std::size_t>(r)] = comp.rankCount(static_cast<Rank>(r + 1));
        }
    }

    const OutcomeHistogram& run() {
        std::array<int, 4> ranks{};
        walk(0, ranks, 1);
        return histogram_;
    }

private:
    // Chooses the rank of initial card `depth` (order P1, B1, P2, B2).
    void walk(int depth, std::array<int, 4>& ranks, std::uint64_t weight) {
        if (depth == 4) {
            leaf(ranks, weight);
            return;
        }
        for (int r = 0; r < kRanks; ++r) {
            auto& left = rankLeft_[static_cast<std::size_t>(r)];
            if (left == 0) {
                continue;
            }
            ranks[static_cast<std::size_t>(depth)] = r;
            const std::uint64_t w = weight * static_cast<std::uint64_t>(left);
            --left;
            walk(depth + 1, ranks, w);
            ++left;
        }
    }

    void leaf(const std::array<int, 4>& ranks, std::uint64_t rankWeight) {
        mainOutcomes(ranks);
        suitOutcomes(ranks, rankWeight);
        const int pairs = pairSignature(ranks[0] == ranks[2], ranks[1] == ranks[3]);
        for (const Weighted& m : main_) {
            for (const Weighted& s : suits_) {
                histogram_.add(outcomeSignature(m.signature, pairs, s.signature), m.weight * s.weight);
            }
        }
    }

    // Totals and card counts after the third-card rules, with the weight of the third cards
    // scaled to the common 6-card denominator.
    void mainOutcomes(const std::array<int, 4>& ranks) {
        main_.clear();
        std::array<std::uint64_t, 10> pointsLeft{};
        for (int r = 0; r < kRanks; ++r) {
            pointsLeft[static_cast<std::size_t>(Card::pointsOf(static_cast<Rank>(r + 1)))] +=
                static_cast<std::uint64_t>(rankLeft_[static_cast<std::size_t>(r)]);
        }
        auto pts = [&](int i) { return Card::pointsOf(static_cast<Rank>(ranks[static_cast<std::size_t>(i)] + 1)); };
        const int pt = (pts(0) + pts(2)) % 10;
        const int bt = (pts(1) + pts(3)) % 10;
        if (isNatural(pt) || isNatural(bt)) {
            main_.push_back({mainSignature(pt, bt, 2, 2), tail_[4]});
            return;
        }
        if (!playerDraws(pt)) {
            if (!bankerDraws(bt, std::nullopt)) {
                main_.push_back({mainSignature(pt, bt, 2, 2), tail_[4]});
                return;
            }
            for (int u = 0; u < 10; ++u) {
                if (pointsLeft[static_cast<std::size_t>(u)] > 0) {
                    main_.push_back(
                        {mainSignature(pt, (bt + u) % 10, 2, 3), pointsLeft[static_cast<std::size_t>(u)] * tail_[5]});
                }
            }
            return;
        }
        for (int v = 0; v < 10; ++v) {
            auto& nv = pointsLeft[static_cast<std::size_t>(v)];
            if (nv == 0) {
                continue;
            }
            const std::uint64_t w5 = nv;
            const int pt3 = (pt + v) % 10;
            if (!bankerDraws(bt, v)) {
                main_.push_back({mainSignature(pt3, bt, 3, 2), w5 * tail_[5]});
                continue;
            }
            --nv;
            for (int u = 0; u < 10; ++u) {
                const std::uint64_t w6 = pointsLeft[static_cast<std::size_t>(u)];
                if (w6 > 0) {
                    main_.push_back({mainSignature(pt3, (bt + u) % 10, 3, 3), w5 * w6 * tail_[6]});
                }
            }
            ++nv;
        }
    }

    // Distribution of (perfect-pair flags, nines pattern) given the four ranks. Suits are
    // enumerated only for cards whose rank group can make a perfect pair or holds nines; the
    // other cards keep their rank weight. The weights sum to rankWeight.
    void suitOutcomes(const std::array<int, 4>& ranks, std::uint64_t rankWeight) {
        suits_.clear();
        constexpr int kNine = static_cast<int>(Rank::Nine) - 1;
        std::array<bool, 4> needy{};
        for (int i = 0; i < 4; ++i) {
            const int r = ranks[static_cast<std::size_t>(i)];
            const bool playerPairRank = ranks[0] == ranks[2] && r == ranks[0];
            const bool bankerPairRank = ranks[1] == ranks[3] && r == ranks[1];
            needy[static_cast<std::size_t>(i)] = r == kNine || playerPairRank || bankerPairRank;
        }
        // Weight of the non-needy cards: rankWeight divided by the needy cards' rank falling product.
        std::uint64_t needyRankWeight = 1;
        std::array<int, kRanks> seen{};
        for (int i = 0; i < 4; ++i) {
            const auto r = static_cast<std::size_t>(ranks[static_cast<std::size_t>(i)]);
            if (needy[static_cast<std::size_t>(i)]) {
                needyRankWeight *= static_cast<std::uint64_t>(comp_.rankCount(static_cast<Rank>(r + 1)) - seen[r]);
            }
            ++seen[r];
        }
        // Needy cards of one rank are drawn in position order; the falling product above must use
        // the same order as the suit enumeration below, which it does when needy cards of a rank
        // come before the non-needy ones of that rank. A rank group is needy as a whole (all its
        // positions), so this holds.
        const std::uint64_t otherWeight = rankWeight / needyRankWeight;
        std::array<Card, 4> cards{};
        for (int i = 0; i < 4; ++i) {
            cards[static_cast<std::size_t>(i)] =
                Card(static_cast<Rank>(ranks[static_cast<std::size_t>(i)] + 1), Suit::Clubs);
        }
        std::array<std::int16_t, kCardsPerDeck> left{};
        for (int c = 0; c < kCardsPerDeck; ++c) {
            left[static_cast<std::size_t>(c)] = static_cast<std::int16_t>(comp_.count(c));
        }
        assignSuits(0, needy, cards, left, otherWeight);
    }

    void assignSuits(int i, const std::array<bool, 4>& needy, std::array<Card, 4>& cards,
                     std::array<std::int16_t, kCardsPerDeck>& left, std::uint64_t weight) {
        if (i == 4) {
            const int signature = suitSignature(cards[0] == cards[2], cards[1] == cards[3],
                                                ninesPattern(cards[0], cards[1], cards[2], cards[3]));
            for (Weighted& s : suits_) {
                if (s.signature == signature) {
                    s.weight += weight;
                    return;
                }
            }
            suits_.push_back({signature, weight});
            return;
        }
        const auto idx = static_cast<std::size_t>(i);
        if (!needy[idx]) {
            assignSuits(i + 1, needy, cards, left, weight);
            return;
        }
        const Rank rank = cards[idx].rank();
        for (int s = 0; s < kSuits; ++s) {
            const Card card(rank, static_cast<Suit>(s));
            auto& n = left[static_cast<std::size_t>(card.index())];
            if (n == 0) {
                continue;
            }
            cards[idx] = card;
            const std::uint64_t w = weight * static_cast<std::uint64_t>(n);
            --n;
            assignSuits(i + 1, needy, cards, left, w);
            ++n;
        }
        cards[idx] = Card(rank, Suit::Clubs);
    }

    const ShoeComposition& comp_;
    OutcomeHistogram histogram_;
    std::array<int, kRanks> rankLeft_{};
    std::array<std::uint64_t, 7> tail_{};
    std::vector<Weighted> main_;
    std::vector<Weighted> suits_;
};

}  // namespace

OddsReport exactOdds(const ShoeComposition& composition) {
    if (composition.total() < kMaxCardsPerCoup) {
        throw std::invalid_argument("exact odds need at least 6 cards in the shoe");
    }
    Enumerator enumerator(composition);
    OddsReport report;
    enumerator.run().forEach([&report](const Outcome& o, std::uint64_t n) {
        report.sequences += n;
        report.winners[static_cast<std::size_t>(o.winner)] += n;
        for (const BetType t : kAllBetTypes) {
            report.bets[static_cast<std::size_t>(t)].add(classifyBet(t, o), n);
        }
    });
    return report;
}

const OddsReport& fullShoeOdds(int decks) {
    if (decks < kMinDecks || decks > kMaxDecks) {
        throw std::invalid_argument("a shoe holds " + std::to_string(kMinDecks) + " to " + std::to_string(kMaxDecks) +
                                    " decks, not " + std::to_string(decks));
    }
    static std::array<std::once_flag, kMaxDecks + 1> once;
    static std::array<OddsReport, kMaxDecks + 1> odds;
    const auto i = static_cast<std::size_t>(decks);
    std::call_once(once[i], [i, decks] { odds[i] = exactOdds(ShoeComposition::fullDecks(decks)); });
    return odds[i];
}

}  // namespace pitlink::game
