#include "daemon/game/simulator.h"

#include "daemon/game/outcome.h"
#include "daemon/game/third_card_rule.h"

namespace pitlink::game {

SimulationReport simulate(const ShoeConfig& config, std::uint64_t rounds, RandomSource& random) {
    SimulationReport report;
    std::uint32_t number = 1;
    Shoe shoe(config, random, number);
    report.shoes = 1;
    for (std::uint64_t i = 0; i < rounds; ++i) {
        if (shoe.cutCardOut()) {
            shoe = Shoe(config, random, ++number);
            ++report.shoes;
        }
        const Outcome o = evaluate(dealCoup([&shoe] { return shoe.draw(); }));
        ++report.winners[static_cast<std::size_t>(o.winner)];
        report.playerPairs += o.playerPair ? 1 : 0;
        report.bankerPairs += o.bankerPair ? 1 : 0;
        report.naturals += o.natural() ? 1 : 0;
        for (const BetType t : kAllBetTypes) {
            report.bets[static_cast<std::size_t>(t)].add(classifyBet(t, o));
        }
    }
    report.rounds = rounds;
    return report;
}

}  // namespace pitlink::game
