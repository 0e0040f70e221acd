#include "daemon/ctl/simulate_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <cmath>
#include <memory>

#include "daemon/config/paytable_loader.h"
#include "daemon/ctl/arguments.h"
#include "daemon/game/exact_odds.h"
#include "daemon/game/simulator.h"
#include "daemon/platform/os_random_source.h"

namespace pitlink::ctl {

int runSimulate(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--rounds", "--paytable", "--seed", "--decks", "--cut"}, {});
    const auto rounds = static_cast<std::uint64_t>(a.integer("--rounds", 1'000'000, 1, 1'000'000'000'000));
    const std::string file = a.value("--paytable").value_or("/etc/pitlink/paytables/standard.yaml");
    game::ShoeConfig shoe;
    shoe.decks = static_cast<int>(a.integer("--decks", shoe.decks, game::kMinDecks, game::kMaxDecks));
    shoe.cutCardFromEnd = static_cast<int>(a.integer("--cut", shoe.cutCardFromEnd, 1, 416));
    if (const auto problem = game::shoeConfigProblem(shoe)) {
        throw UsageError(*problem);
    }
    const game::Paytable table = config::loadPaytableFile(file);

    // Without --seed the shoes are shuffled from getrandom, as on a live table.
    std::unique_ptr<game::RandomSource> random;
    std::string source = "getrandom";
    if (const auto seed = a.value("--seed")) {
        random = std::make_unique<game::SeededRandom>(static_cast<std::uint64_t>(a.integer("--seed", 0, 0, INT64_MAX)));
        source = "seed " + *seed;
    } else {
        random = std::make_unique<platform::OsRandomSource>();
    }

    const auto start = std::chrono::steady_clock::now();
    const game::SimulationReport sim = game::simulate(shoe, rounds, *random);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    const game::OddsReport& exact = game::fullShoeOdds(shoe.decks);

    const auto n = static_cast<double>(sim.rounds);
    fmt::print(out, "Simulation: paytable '{}', {} deck(s), cut card {} from the end, {}\n", table.id, shoe.decks,
               shoe.cutCardFromEnd, source);
    fmt::print(out, "{} rounds in {} shoes, {:.2f} s ({:.1f} million rounds/s)\n\n", sim.rounds, sim.shoes,
               elapsed.count(), n / elapsed.count() / 1e6);
    fmt::print(out, "{:<14} {:>12} {:>10} {:>10}\n", "result", "count", "frequency", "exact");
    for (const auto w : {game::Winner::Banker, game::Winner::Player, game::Winner::Tie}) {
        const auto count = sim.winners[static_cast<std::size_t>(w)];
        fmt::print(out, "{:<14} {:>12} {:>10.6f} {:>10.6f}\n", game::winnerName(w), count,
                   static_cast<double>(count) / n, static_cast<double>(exact.probability(w)));
    }
    fmt::print(out, "{:<14} {:>12} {:>10.6f}\n", "player pairs", sim.playerPairs,
               static_cast<double>(sim.playerPairs) / n);
    fmt::print(out, "{:<14} {:>12} {:>10.6f}\n", "banker pairs", sim.bankerPairs,
               static_cast<double>(sim.bankerPairs) / n);
    fmt::print(out, "{:<14} {:>12} {:>10.6f}\n", "naturals", sim.naturals, static_cast<double>(sim.naturals) / n);

    fmt::print(out, "\nReturn to player per unit bet (95 % confidence interval = +/- 1.96 standard errors)\n");
    fmt::print(out, "{:<12} {:>10} {:>20} {:>10} {:>8}\n", "bet", "RTP %", "95 % CI", "exact %", "z");
    for (const game::BetType type : game::kAllBetTypes) {
        if (!table.offers(type)) {
            continue;
        }
        const game::BetReturn r = game::betReturn(table, type, sim.tally(type));
        const game::BetReturn e = game::betReturn(table, type, exact.tally(type));
        const double se = std::sqrt(static_cast<double>(r.variance) / n);
        const double rtp = static_cast<double>(r.returnToPlayer());
        const double z = se > 0 ? (rtp - static_cast<double>(e.returnToPlayer())) / se : 0.0;
        fmt::print(out, "{:<12} {:>10.4f} {:>9.4f} .. {:<8.4f} {:>10.4f} {:>8.2f}\n", game::betTypeName(type),
                   100 * rtp, 100 * (rtp - 1.96 * se), 100 * (rtp + 1.96 * se),
                   100 * static_cast<double>(e.returnToPlayer()), z);
    }
    return 0;
}

}  // namespace pitlink::ctl
