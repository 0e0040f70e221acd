#include "daemon/game/exact_odds.h"

#include <algorithm>
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
//
// The main game of a coup (totals, third cards and their weights) depends on the first four
// cards only through their points: ranks of one point value (ten to king) give the same. So the
// walk over ranks adds each rank tuple's pair and suit weights to its point tuple (10^4 of them
// against 13^4 rank tuples), and each point tuple's main outcomes are worked out once and
// multiplied by what it gathered: the same sums, in the other order (the weights multiply).
constexpr int kPointTuples = 10'000;  // the points of P1 B1 P2 B2, as decimal digits

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
            pointsInShoe_[static_cast<std::size_t>(Card::pointsOf(static_cast<Rank>(r + 1)))] +=
                static_cast<std::uint64_t>(rankLeft_[static_cast<std::size_t>(r)]);
        }
        byPoints_.resize(kPointTuples);
    }

    const OutcomeHistogram& run() {
        std::array<int, 4> ranks{};
        walk(0, ranks, 1);
        for (int tuple = 0; tuple < kPointTuples; ++tuple) {
            const std::vector<Weighted>& gathered = byPoints_[static_cast<std::size_t>(tuple)];
            if (gathered.empty()) {
                continue;
            }
            mainOutcomes(tuple);
            for (const Weighted& m : main_) {
                for (const Weighted& g : gathered) {
                    histogram_.add(
                        outcomeSignature(m.signature, g.signature / kSuitSignatures, g.signature % kSuitSignatures),
                        m.weight * g.weight);
                }
            }
        }
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

    // A rank tuple's pair and suit weights, gathered by its point tuple.
    void leaf(const std::array<int, 4>& ranks, std::uint64_t rankWeight) {
        suitOutcomes(ranks, rankWeight);
        const int pairs = pairSignature(ranks[0] == ranks[2], ranks[1] == ranks[3]);
        int tuple = 0;
        for (const int r : ranks) {
            tuple = tuple * 10 + Card::pointsOf(static_cast<Rank>(r + 1));
        }
        std::vector<Weighted>& gathered =
            byPoints_[static_cast<std::size_t>(sameMainGame()[static_cast<std::size_t>(tuple)])];
        for (const Weighted& s : suits_) {
            const int signature = pairs * kSuitSignatures + s.signature;
            const auto it = std::find_if(gathered.begin(), gathered.end(),
                                         [signature](const Weighted& g) { return g.signature == signature; });
            if (it != gathered.end()) {
                it->weight += s.weight;
            } else {
                gathered.push_back({signature, s.weight});
            }
        }
    }

    // For each point tuple, the first one with the same main game: the same two-card totals and
    // the same four points taken from the shoe (in any order), hence the same third cards left.
    // The same for every composition: worked out once.
    static const std::array<std::int16_t, kPointTuples>& sameMainGame() {
        static const auto table = [] {
            std::array<std::int16_t, kPointTuples> first{};
            std::vector<std::int16_t> byKey(std::size_t{100} * kPointTuples, -1);
            for (int tuple = 0; tuple < kPointTuples; ++tuple) {
                std::array<int, 4> p{tuple / 1000, tuple / 100 % 10, tuple / 10 % 10, tuple % 10};
                const int totals = (p[0] + p[2]) % 10 * 10 + (p[1] + p[3]) % 10;
                std::sort(p.begin(), p.end());
                const int key = totals * kPointTuples + ((p[0] * 10 + p[1]) * 10 + p[2]) * 10 + p[3];
                auto& seen = byKey[static_cast<std::size_t>(key)];
                if (seen < 0) {
                    seen = static_cast<std::int16_t>(tuple);
                }
                first[static_cast<std::size_t>(tuple)] = seen;
            }
            return first;
        }();
        return table;
    }

    // Totals and card counts after the third-card rules for a point tuple (P1 B1 P2 B2, each
    // 0-9, as decimal digits), with the weight of the third cards scaled to the common 6-card
    // denominator.
    void mainOutcomes(int tuple) {
        main_.clear();
        std::array<int, 4> points{};
        for (int i = 3; i >= 0; --i, tuple /= 10) {
            points[static_cast<std::size_t>(i)] = tuple % 10;
        }
        std::array<std::uint64_t, 10> pointsLeft = pointsInShoe_;
        for (const int p : points) {
            --pointsLeft[static_cast<std::size_t>(p)];
        }
        const int pt = (points[0] + points[2]) % 10;
        const int bt = (points[1] + points[3]) % 10;
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
        if (needy == std::array<bool, 4>{}) {
            // No nine, no pair: the suits change nothing (the common case, about 6 rank tuples in 10).
            suits_.push_back({suitSignature(false, false, NinesPattern::None), rankWeight});
            return;
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
        // The needy cards' suit weights depend on nothing but their ranks by position (the other
        // cards are of other ranks): enumerated once per such pattern, with the other cards'
        // weight 1, and scaled here.
        int pattern = 0;
        for (int i = 3; i >= 0; --i) {
            const auto at = static_cast<std::size_t>(i);
            pattern = pattern * (kRanks + 1) + (needy[at] ? ranks[at] + 1 : 0);
        }
        std::int32_t& cached = suitPatternIndex_[static_cast<std::size_t>(pattern)];
        if (cached < 0) {
            enumerateSuits(ranks, needy);
            cached = static_cast<std::int32_t>(suitPatterns_.size());
            suitPatterns_.push_back(suits_);
        }
        suits_ = suitPatterns_[static_cast<std::size_t>(cached)];
        for (Weighted& w : suits_) {
            w.weight *= otherWeight;
        }
    }

    // The suit signatures of the needy cards of `ranks` and their weights (falling products of
    // the composition's cards of each suit), the other cards counting 1.
    void enumerateSuits(const std::array<int, 4>& ranks, const std::array<bool, 4>& needy) {
        suits_.clear();
        std::array<Card, 4> cards{};
        for (int i = 0; i < 4; ++i) {
            cards[static_cast<std::size_t>(i)] =
                Card(static_cast<Rank>(ranks[static_cast<std::size_t>(i)] + 1), Suit::Clubs);
        }
        std::array<std::int16_t, kCardsPerDeck> left{};
        for (int c = 0; c < kCardsPerDeck; ++c) {
            left[static_cast<std::size_t>(c)] = static_cast<std::int16_t>(comp_.count(c));
        }
        assignSuits(0, needy, cards, left, 1);
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
    std::array<std::uint64_t, 10> pointsInShoe_{};
    static constexpr int kSuitPatterns = (kRanks + 1) * (kRanks + 1) * (kRanks + 1) * (kRanks + 1);
    std::vector<std::int32_t> suitPatternIndex_ = std::vector<std::int32_t>(kSuitPatterns, -1);
    std::vector<std::vector<Weighted>> suitPatterns_;
    // By point tuple: the weights of (pair signature, suit signature), as pairs * kSuitSignatures + suits.
    std::vector<std::vector<Weighted>> byPoints_;
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
