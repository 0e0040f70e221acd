#pragma once
// How often each event of a bet happened (by pay tier, push, loss) over some total of rounds,
// and the return those counts give under a paytable. Shared by the exact odds (counts of
// equally likely card sequences) and the simulator (counts of dealt rounds).

#include <array>
#include <cstdint>

#include "daemon/game/bet_type.h"
#include "daemon/game/paytable.h"

namespace pitlink::game {

struct BetTally {
    std::array<std::uint64_t, kMaxPayTiers> wins{};  // by pay tier, as classified by classifyBet
    std::uint64_t pushes = 0;                        // pushed by the rules (Player/Banker on a tie)
    std::uint64_t losses = 0;

    void add(BetEvent event, std::uint64_t weight = 1) {
        switch (event.kind) {
            case BetEvent::Kind::Win:
                wins[event.tier] += weight;
                break;
            case BetEvent::Kind::Push:
                pushes += weight;
                break;
            case BetEvent::Kind::Loss:
                losses += weight;
                break;
        }
    }
    [[nodiscard]] std::uint64_t total() const;
};

// Net return per unit staked: mean, and the variance of one bet's net (for standard errors).
struct BetReturn {
    long double mean = 0;      // expected net per unit: -house edge
    long double variance = 0;  // of the net of one bet
    [[nodiscard]] long double houseEdge() const { return -mean; }
    [[nodiscard]] long double returnToPlayer() const { return 1 + mean; }
};

// The net a tier pays per unit staked (0 for a tier the paytable pushes).
[[nodiscard]] long double netPerUnit(const Paytable& table, BetType type, int tier);

[[nodiscard]] BetReturn betReturn(const Paytable& table, BetType type, const BetTally& tally);

}  // namespace pitlink::game
