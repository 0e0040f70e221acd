#include "daemon/game/counter_score.h"

#include <cmath>
#include <stdexcept>

namespace pitlink::game {

CounterScore counterScore(std::span<const std::int64_t> edgePpm, std::span<const std::int64_t> stakes) {
    if (edgePpm.size() != stakes.size()) {
        throw std::invalid_argument("counter score: one stake for each round's edge");
    }
    CounterScore score;
    score.rounds = static_cast<std::int64_t>(edgePpm.size());
    if (edgePpm.empty()) {
        return score;
    }
    const auto n = static_cast<double>(edgePpm.size());
    double edgeSum = 0;
    double stakeSum = 0;
    double product = 0;
    for (std::size_t i = 0; i < edgePpm.size(); ++i) {
        if (stakes[i] < 0) {
            throw std::invalid_argument("counter score: a stake below 0");
        }
        edgeSum += static_cast<double>(edgePpm[i]);
        stakeSum += static_cast<double>(stakes[i]);
        product += static_cast<double>(stakes[i]) * static_cast<double>(edgePpm[i]);
        score.staked += stakes[i];
    }
    score.meanEdgePpm = edgeSum / n;
    score.stakedEdgePpm = stakeSum > 0 ? product / stakeSum : score.meanEdgePpm;
    // The same stakes over the same rounds in a random order: the sum of stakes times edges has
    // mean (sum of stakes) x (mean edge), and variance (sum of squared deviations of the stakes)
    // x (sum of squared deviations of the edges) / (n - 1) (sampling without replacement).
    const double stakeMean = stakeSum / n;
    double stakeSquares = 0;
    double edgeSquares = 0;
    for (std::size_t i = 0; i < edgePpm.size(); ++i) {
        const double ds = static_cast<double>(stakes[i]) - stakeMean;
        const double de = static_cast<double>(edgePpm[i]) - score.meanEdgePpm;
        stakeSquares += ds * ds;
        edgeSquares += de * de;
    }
    if (edgePpm.size() > 1 && stakeSquares > 0 && edgeSquares > 0) {
        const double variance = stakeSquares * edgeSquares / (n - 1);
        score.z = (product - stakeSum * score.meanEdgePpm) / std::sqrt(variance);
    }
    return score;
}

}  // namespace pitlink::game
