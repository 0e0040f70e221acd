#pragma once
// The big road of a shoe on logical columns (runs of equal non-tie results): ties never make a
// cell, they are counted on the last cell; ties before the first result are counted on the
// first cell and flagged "tie first" (seed 000). Each cell keeps pair dots and the natural.

#include <cstdint>
#include <vector>

#include "daemon/game/outcome.h"
#include "daemon/game/road_grid.h"

namespace pitlink::game {

// What a scoreboard needs from one round.
struct RoundMarks {
    Winner winner = Winner::Tie;
    bool playerPair = false;
    bool bankerPair = false;
    std::uint8_t natural = 0;  // 8 or 9 when the winning total was a natural, else 0

    static RoundMarks of(const Outcome& o);
    friend bool operator==(const RoundMarks&, const RoundMarks&) = default;
};

struct BigRoadCell {
    Winner side = Winner::Banker;  // Player or Banker
    int column = 0;                // logical column (run)
    int row = 0;                   // position in its run
    GridCell drawn;                // where it sits on the drawn (dragon-tail) grid
    int ties = 0;
    bool tieFirst = false;
    bool playerPair = false;
    bool bankerPair = false;
    std::uint8_t natural = 0;
};

class BigRoad {
public:
    explicit BigRoad(int rows = RoadGrid::kDefaultRows) : grid_(rows) {}

    // Adds a round; returns true when it made a new cell (not a tie).
    bool add(const RoundMarks& round);

    [[nodiscard]] const std::vector<BigRoadCell>& cells() const { return cells_; }
    [[nodiscard]] const std::vector<int>& columnLengths() const { return columnLengths_; }
    [[nodiscard]] int leadingTies() const { return leadingTies_; }  // ties seen before any cell
    [[nodiscard]] const RoadGrid& grid() const { return grid_; }

private:
    std::vector<BigRoadCell> cells_;
    std::vector<int> columnLengths_;
    int leadingTies_ = 0;
    RoadGrid grid_;
};

}  // namespace pitlink::game
