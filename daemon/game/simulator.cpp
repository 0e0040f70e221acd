#include "daemon/game/simulator.h"

#include "daemon/game/outcome.h"
#include "daemon/game/outcome_histogram.h"
#include "daemon/game/third_card_rule.h"

namespace pitlink::game {

SimulationReport simulate(const ShoeConfig& config, std::uint64_t rounds, RandomSource& random) {
    SimulationReport report;
    // The loop only deals and counts outcomes; bets are classified once per distinct outcome below.
    OutcomeHistogram histogram;
    std::uint32_t number = 1;
    Shoe shoe(config, random, number);
    report.shoes = 1;
    for (std::uint64_t i = 0; i < rounds; ++i) {
        if (shoe.cutCardOut()) {
            shoe = Shoe(config, random, ++number);
            ++report.shoes;
        }
        histogram.add(evaluate(dealCoup([&shoe] { return shoe.draw(); })));
    }
    report.rounds = rounds;
    histogram.forEach([&report](const Outcome& o, std::uint64_t n) {
        report.winners[static_cast<std::size_t>(o.winner)] += n;
        report.playerPairs += o.playerPair ? n : 0;
        report.bankerPairs += o.bankerPair ? n : 0;
        report.naturals += o.natural() ? n : 0;
        for (const BetType t : kAllBetTypes) {
            report.bets[static_cast<std::size_t>(t)].add(classifyBet(t, o), n);
        }
    });
    return report;
}

}  // namespace pitlink::game
