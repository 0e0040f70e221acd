// Benchmarks of the game core (issue #2). Each figure has a baseline measured in the same run
// so that results from noisy machines can be compared: see RESULTS.md.

#include <benchmark/benchmark.h>

#include <vector>

#include "daemon/config/paytable_loader.h"
#include "daemon/ctl/scoreboard_svg.h"
#include "daemon/game/exact_odds.h"
#include "daemon/game/scoreboard.h"
#include "daemon/game/settlement.h"
#include "daemon/game/side_bet_edge.h"
#include "daemon/game/simulator.h"
#include "daemon/game/third_card_rule.h"

namespace {

using namespace pitlink::game;

Paytable paytable(const char* id) {
    return pitlink::config::loadPaytableFile(std::string(PITLINK_SOURCE_DIR) + "/etc/paytables/" + id + ".yaml");
}

// Exact 8-deck analysis of a paytable: enumeration plus the return of every offered bet.
void BM_ExactOdds8Decks(benchmark::State& state) {
    const Paytable table = paytable("standard");
    const ShoeComposition shoe = ShoeComposition::fullDecks(8);
    for (auto _ : state) {
        const OddsReport report = exactOdds(shoe);
        long double edges = 0;
        for (const BetType t : kAllBetTypes) {
            if (table.offers(t)) {
                edges += betReturn(table, t, report.tally(t)).houseEdge();
            }
        }
        benchmark::DoNotOptimize(edges);
    }
}
BENCHMARK(BM_ExactOdds8Decks)->Unit(benchmark::kMillisecond);

// Issue 38: the exact edge of every side bet of the ruyi paytable (Gold 7, Jade 8, Ruby 9, the
// pairs, Tie, ...) for the next round of an 8-deck shoe two thirds dealt (the 139 cards left of a
// fixed shuffle): what the table works out after every round. Baseline: the full shoe's analysis
// above, and the bare rank walk below.
void BM_SideBetEdgesMidShoe(benchmark::State& state) {
    const Paytable table = paytable("ruyi");
    ShoeComposition shoe;
    std::vector<Card> cards;
    for (int deck = 0; deck < 8; ++deck) {
        for (int c = 0; c < kCardsPerDeck; ++c) {
            cards.push_back(Card::fromIndex(c));
        }
    }
    std::uint64_t x = 38;  // a fixed shuffle (xorshift), the same every run
    for (std::size_t i = cards.size() - 1; i > 0; --i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        std::swap(cards[i], cards[x % (i + 1)]);
    }
    for (std::size_t i = 0; i < 139; ++i) {
        shoe.add(cards[i]);
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(sideBetEdges(table, shoe));
    }
}
BENCHMARK(BM_SideBetEdgesMidShoe)->Unit(benchmark::kMillisecond);

// Baseline for the enumeration: the bare 13^4 walk over the ranks of the four initial cards
// with their weights, which any rank-level enumeration must at least do.
void BM_Baseline_RankWalk(benchmark::State& state) {
    for (auto _ : state) {
        std::array<std::uint64_t, 13> left{};
        left.fill(32);
        std::uint64_t sum = 0;
        for (int a = 0; a < 13; ++a) {
            const std::uint64_t wa = left[a]--;
            for (int b = 0; b < 13; ++b) {
                const std::uint64_t wb = wa * left[b]--;
                for (int c = 0; c < 13; ++c) {
                    const std::uint64_t wc = wb * left[c]--;
                    for (int d = 0; d < 13; ++d) {
                        sum += wc * left[d];
                    }
                    ++left[c];
                }
                ++left[b];
            }
            ++left[a];
        }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(BM_Baseline_RankWalk)->Unit(benchmark::kMillisecond);

// Simulator: real 8-deck shoes, every bet type classified each round. items/s = rounds/s.
void BM_Simulator(benchmark::State& state) {
    SeededRandom random(1);
    const std::uint64_t rounds = 1'000'000;
    for (auto _ : state) {
        benchmark::DoNotOptimize(simulate(ShoeConfig{}, rounds, random));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * rounds));
}
BENCHMARK(BM_Simulator)->Unit(benchmark::kMillisecond);

// Baseline for the simulator: only shuffling and drawing the cards of the same rounds
// (about 4.94 cards a round), with no outcome or bets. items/s = rounds/s.
void BM_Baseline_ShuffleAndDraw(benchmark::State& state) {
    SeededRandom random(1);
    const std::uint64_t rounds = 1'000'000;
    for (auto _ : state) {
        Shoe shoe(ShoeConfig{}, random, 1);
        std::uint64_t sum = 0;
        for (std::uint64_t i = 0; i < rounds; ++i) {
            if (shoe.cutCardOut()) {
                shoe = Shoe(ShoeConfig{}, random, 2);
            }
            for (int k = 0; k < 5; ++k) {
                sum += static_cast<std::uint64_t>(shoe.draw().index());
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * rounds));
}
BENCHMARK(BM_Baseline_ShuffleAndDraw)->Unit(benchmark::kMillisecond);

// Settlement of one round: 16 stations x 6 bets.
std::vector<Bet> sixteenStationsSixBets() {
    std::vector<Bet> bets;
    const std::array<BetType, 6> spots{BetType::Banker,     BetType::Tie, BetType::PlayerPair,
                                       BetType::BankerPair, BetType::Big, BetType::LuckyNines};
    for (int station = 1; station <= 16; ++station) {
        for (const BetType t : spots) {
            bets.push_back(Bet{station, t, 100L * station + 5});
        }
    }
    return bets;
}

void BM_SettleRound16x6(benchmark::State& state) {
    const Paytable table = paytable("standard");
    const std::vector<Bet> bets = sixteenStationsSixBets();
    std::size_t next = 0;
    const std::array<const char*, 3> deals{"9S 9H KD QC", "2H 4D 3S 4C", "4H 2S 6D 2C 2D 3H"};
    std::vector<Outcome> outcomes;
    for (const char* d : deals) {
        std::vector<Card> cards;
        for (std::size_t i = 0; d[i] != 0; i += 3) {
            cards.push_back(*parseCard(std::string_view(d + i, 2)));
        }
        std::size_t k = 0;
        outcomes.push_back(evaluate(dealCoup([&] { return cards[k++]; })));
    }
    std::vector<BetSettlement> out;
    out.reserve(bets.size());
    for (auto _ : state) {
        settleRound(bets, outcomes[next++ % outcomes.size()], table, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SettleRound16x6)->Unit(benchmark::kMicrosecond);

// Baseline for settlement: copying the same 96 bets into a result vector.
void BM_Baseline_Copy96Bets(benchmark::State& state) {
    const std::vector<Bet> bets = sixteenStationsSixBets();
    std::vector<Bet> out;
    out.reserve(bets.size());
    for (auto _ : state) {
        out.assign(bets.begin(), bets.end());
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_Baseline_Copy96Bets)->Unit(benchmark::kMicrosecond);

// One full 80-round shoe through every road (bead plate, big road, three derived roads,
// statistics, probe after each round) and the SVG picture of the result.
std::vector<RoundMarks> eightyRounds() {
    SeededRandom random(80);
    std::vector<RoundMarks> rounds;
    ShoeConfig config;
    Shoe shoe(config, random, 1);
    for (int i = 0; i < 80; ++i) {
        rounds.push_back(RoundMarks::of(evaluate(dealCoup([&] { return shoe.draw(); }))));
    }
    return rounds;
}

// Every road of the shoe, asking the probe after each round as a display does.
Scoreboard roadsOf(const std::vector<RoundMarks>& rounds) {
    Scoreboard board(1);
    for (const RoundMarks& m : rounds) {
        board.add(m);
        benchmark::DoNotOptimize(board.probe());
    }
    return board;
}

void BM_ScoreboardShoeWithSvg(benchmark::State& state) {
    const std::vector<RoundMarks> rounds = eightyRounds();
    for (auto _ : state) {
        const Scoreboard board = roadsOf(rounds);
        const std::string svg = pitlink::ctl::scoreboardSvg(board, "table-1");
        benchmark::DoNotOptimize(svg.data());
    }
}
BENCHMARK(BM_ScoreboardShoeWithSvg)->Unit(benchmark::kMicrosecond);

// The roads alone, without the picture.
void BM_ScoreboardShoe(benchmark::State& state) {
    const std::vector<RoundMarks> rounds = eightyRounds();
    for (auto _ : state) {
        const Scoreboard board = roadsOf(rounds);
        benchmark::DoNotOptimize(board.statistics());
    }
}
BENCHMARK(BM_ScoreboardShoe)->Unit(benchmark::kMicrosecond);

// Baseline: the same shoe's 80 results written out as a plain "B,P,T" string of the same rounds.
void BM_Baseline_ResultString(benchmark::State& state) {
    const std::vector<RoundMarks> rounds = eightyRounds();
    for (auto _ : state) {
        std::string text;
        for (const RoundMarks& m : rounds) {
            text += winnerLetter(m.winner);
            text += ',';
        }
        benchmark::DoNotOptimize(text.data());
    }
}
BENCHMARK(BM_Baseline_ResultString)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
