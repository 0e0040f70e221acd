#pragma once
// Big Eye Road (k=1), Small Road (k=2) and Cockroach Road (k=3), computed on the big road's
// logical columns, never on the drawn grid (docs/rules.md "Derived roads"), with probing.

#include <optional>
#include <string_view>
#include <vector>

#include "daemon/game/big_road.h"
#include "daemon/game/road_grid.h"

namespace pitlink::game {

enum class RoadColour : std::uint8_t { Red, Blue };

// The mark road k gives a big-road entry at logical (column, row), 0-based, given the lengths
// of the columns before it; nullopt before the road starts.
[[nodiscard]] std::optional<RoadColour> derivedMark(int k, int column, int row, const std::vector<int>& columnLengths);

struct DerivedCell {
    RoadColour colour{};
    GridCell drawn;
};

class DerivedRoad {
public:
    DerivedRoad(int k, int rows = RoadGrid::kDefaultRows) : k_(k), grid_(rows) {}

    // Called after the big road added `cell`; adds this road's mark, if any. O(1).
    void follow(const BigRoadCell& cell, const std::vector<int>& columnLengths);

    // The mark this road would add if the next result were `next` (Player or Banker).
    [[nodiscard]] std::optional<RoadColour> probe(const BigRoad& road, Winner next) const;

    [[nodiscard]] int k() const { return k_; }
    [[nodiscard]] const std::vector<DerivedCell>& cells() const { return cells_; }
    [[nodiscard]] const RoadGrid& grid() const { return grid_; }

private:
    int k_;
    std::vector<DerivedCell> cells_;
    RoadGrid grid_;
};

[[nodiscard]] std::string_view derivedRoadName(int k);  // "big_eye", "small", "cockroach"
[[nodiscard]] char colourLetter(RoadColour c);          // 'R' / 'B'

}  // namespace pitlink::game
