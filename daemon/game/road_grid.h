#pragma once
// The drawn grid of a road with the dragon-tail rule of docs/rules.md: a run goes down its column;
// when the cell below is the bottom or taken, it turns right along the row it is on and stays
// on that row until the run ends. A new run starts at the top of the column right of the
// previous run's first column, or further right at the first free top cell.

#include <cstdint>
#include <vector>

namespace pitlink::game {

struct GridCell {
    int column = 0;
    int row = 0;
    friend bool operator==(GridCell, GridCell) = default;
};

class RoadGrid {
public:
    static constexpr int kDefaultRows = 6;

    explicit RoadGrid(int rows = kDefaultRows) : rows_(rows < 1 ? 1 : rows) {}

    // Places the next mark: continuing the current run, or starting a new one. O(1) amortised.
    GridCell place(bool newRun);

    [[nodiscard]] int rows() const { return rows_; }
    [[nodiscard]] int columns() const { return static_cast<int>(occupied_.size()) / rows_; }
    [[nodiscard]] bool occupied(GridCell cell) const;

    // First column of the window of `visible` columns that shows the newest marks (displays
    // scroll left as the road grows).
    [[nodiscard]] int firstVisibleColumn(int visible) const { return columns() > visible ? columns() - visible : 0; }

private:
    void mark(GridCell cell);

    // Where a cell inside the grid is kept in occupied_.
    [[nodiscard]] std::size_t indexOf(GridCell cell) const {
        return static_cast<std::size_t>(cell.column) * static_cast<std::size_t>(rows_) +
               static_cast<std::size_t>(cell.row);
    }

    int rows_;
    std::vector<std::uint8_t> occupied_;  // column-major, rows_ per column
    GridCell last_{};
    int runStartColumn_ = -1;
    bool turned_ = false;
};

}  // namespace pitlink::game
