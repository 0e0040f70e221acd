#pragma once
// Counts of outcomes by a compact signature of everything an Outcome holds (totals, card
// counts, pair and perfect-pair flags, nines pattern). The exact odds and the simulator both
// count here and classify bets once per distinct outcome instead of once per coup.

#include <cstdint>
#include <vector>

#include "daemon/game/outcome.h"

namespace pitlink::game {

inline constexpr int kMainSignatures = 10 * 10 * 2 * 2;  // totals x card counts
inline constexpr int kPairSignatures = 4;                // player pair, banker pair
inline constexpr int kSuitSignatures = 4 * 8;            // perfect-pair flags x nines pattern
inline constexpr int kOutcomeSignatures = kMainSignatures * kPairSignatures * kSuitSignatures;

constexpr int mainSignature(int playerTotal, int bankerTotal, int playerCards, int bankerCards) {
    return ((playerTotal * 10 + bankerTotal) * 2 + (playerCards - 2)) * 2 + (bankerCards - 2);
}
constexpr int pairSignature(bool playerPair, bool bankerPair) {
    return (playerPair ? 2 : 0) + (bankerPair ? 1 : 0);
}
constexpr int suitSignature(bool playerPerfect, bool bankerPerfect, NinesPattern nines) {
    return ((playerPerfect ? 2 : 0) + (bankerPerfect ? 1 : 0)) * 8 + static_cast<int>(nines);
}
constexpr int outcomeSignature(int main, int pairs, int suits) {
    return (main * kPairSignatures + pairs) * kSuitSignatures + suits;
}

[[nodiscard]] int outcomeSignature(const Outcome& o);
[[nodiscard]] Outcome outcomeFromSignature(int signature);

class OutcomeHistogram {
public:
    OutcomeHistogram() : counts_(kOutcomeSignatures, 0) {}

    void add(int signature, std::uint64_t weight) { counts_[static_cast<std::size_t>(signature)] += weight; }
    void add(const Outcome& o) { ++counts_[static_cast<std::size_t>(outcomeSignature(o))]; }

    // Calls f(outcome, count) for every outcome seen at least once.
    template <class F>
    void forEach(F&& f) const {
        for (int s = 0; s < kOutcomeSignatures; ++s) {
            if (const std::uint64_t n = counts_[static_cast<std::size_t>(s)]; n != 0) {
                f(outcomeFromSignature(s), n);
            }
        }
    }

private:
    std::vector<std::uint64_t> counts_;
};

}  // namespace pitlink::game
