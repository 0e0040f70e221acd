#include "daemon/game/road_grid.h"

namespace pitlink::game {

bool RoadGrid::occupied(GridCell cell) const {
    if (cell.row < 0 || cell.row >= rows_ || cell.column < 0 || cell.column >= columns()) {
        return false;
    }
    return occupied_[indexOf(cell)] != 0;
}

void RoadGrid::mark(GridCell cell) {
    while (cell.column >= columns()) {
        occupied_.resize(occupied_.size() + static_cast<std::size_t>(rows_), 0);
    }
    occupied_[indexOf(cell)] = 1;
    last_ = cell;
}

GridCell RoadGrid::place(bool newRun) {
    GridCell next;
    if (newRun || runStartColumn_ < 0) {
        next = {runStartColumn_ + 1, 0};
        while (occupied(next)) {
            ++next.column;  // an older tail runs along the top row here
        }
        runStartColumn_ = next.column;
        turned_ = false;
    } else {
        const GridCell below{last_.column, last_.row + 1};
        if (!turned_ && below.row < rows_ && !occupied(below)) {
            next = below;
        } else {
            turned_ = true;  // the dragon tail: right along this row until the run ends
            next = {last_.column + 1, last_.row};
            while (occupied(next)) {
                ++next.column;
            }
        }
    }
    mark(next);
    return next;
}

}  // namespace pitlink::game
