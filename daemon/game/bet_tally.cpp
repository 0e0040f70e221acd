#include "daemon/game/bet_tally.h"

namespace pitlink::game {

std::uint64_t BetTally::total() const {
    std::uint64_t n = pushes + losses;
    for (const auto w : wins) {
        n += w;
    }
    return n;
}

long double netPerUnit(const Paytable& table, BetType type, int tier) {
    const Payout p = table.payout(type, tier);
    return p.push ? 0.0L : static_cast<long double>(p.ratio.num) / static_cast<long double>(p.ratio.den);
}

BetReturn betReturn(const Paytable& table, BetType type, const BetTally& tally) {
    const auto total = static_cast<long double>(tally.total());
    if (total == 0) {
        return {};
    }
    long double sum = -static_cast<long double>(tally.losses);
    long double sumSquares = static_cast<long double>(tally.losses);
    const auto tiers = payTiers(type);
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        const long double net = netPerUnit(table, type, static_cast<int>(t));
        const auto n = static_cast<long double>(tally.wins[t]);
        sum += n * net;
        sumSquares += n * net * net;
    }
    BetReturn r;
    r.mean = sum / total;
    r.variance = sumSquares / total - r.mean * r.mean;
    return r;
}

}  // namespace pitlink::game
