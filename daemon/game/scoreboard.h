#pragma once
// Every road of one shoe and its statistics, updated in O(1) amortised per round. A new shoe
// starts a new Scoreboard (docs/rules.md: roads reset at every new shoe).

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "daemon/game/big_road.h"
#include "daemon/game/derived_road.h"

namespace pitlink::game {

struct ShoeStatistics {
    int rounds = 0;
    int playerWins = 0;
    int bankerWins = 0;
    int ties = 0;
    int playerPairs = 0;
    int bankerPairs = 0;
    int naturals = 0;
    friend bool operator==(const ShoeStatistics&, const ShoeStatistics&) = default;
};

struct ScoreboardLayout {
    int rows = RoadGrid::kDefaultRows;  // rows of every drawn grid and of the bead plate
    int visibleColumns = 24;            // columns a display shows (newest at the right)
};

// What each derived road would add if the next result were Banker or Player.
struct Probe {
    std::array<std::optional<RoadColour>, 3> banker;  // index k-1
    std::array<std::optional<RoadColour>, 3> player;
};

class Scoreboard {
public:
    explicit Scoreboard(std::uint32_t shoeNumber = 1, ScoreboardLayout layout = {});

    void add(const RoundMarks& round);
    void add(const Outcome& outcome) { add(RoundMarks::of(outcome)); }

    [[nodiscard]] std::uint32_t shoeNumber() const { return shoeNumber_; }
    [[nodiscard]] const ScoreboardLayout& layout() const { return layout_; }
    // Bead plate: one bead per round including ties, column-major, `rows` per column.
    [[nodiscard]] const std::vector<RoundMarks>& beads() const { return beads_; }
    [[nodiscard]] GridCell beadCell(int index) const { return {index / layout_.rows, index % layout_.rows}; }
    [[nodiscard]] const BigRoad& bigRoad() const { return bigRoad_; }
    [[nodiscard]] const DerivedRoad& derived(int k) const { return derived_[static_cast<std::size_t>(k - 1)]; }
    [[nodiscard]] const ShoeStatistics& statistics() const { return stats_; }
    [[nodiscard]] Probe probe() const;

private:
    std::uint32_t shoeNumber_;
    ScoreboardLayout layout_;
    std::vector<RoundMarks> beads_;
    BigRoad bigRoad_;
    std::array<DerivedRoad, 3> derived_;
    ShoeStatistics stats_;
};

// "BPTB..." -> rounds (pairs and naturals absent); anything but B, P, T is refused (nullopt).
[[nodiscard]] std::optional<std::vector<RoundMarks>> parseResults(std::string_view text);

}  // namespace pitlink::game
