#include "daemon/game/derived_road.h"

namespace pitlink::game {

std::optional<RoadColour> derivedMark(int k, int column, int row, const std::vector<int>& lengths) {
    // The road starts at column k+1 row 2 (1-based), or at column k+2 row 1 when column k+1
    // has a single entry: 0-based, (k, >=1) or any entry from column k+1 on.
    if (column < k || (column == k && row == 0)) {
        return std::nullopt;
    }
    auto length = [&lengths](int c) { return c >= 0 && c < static_cast<int>(lengths.size()) ? lengths[c] : 0; };
    if (row == 0) {
        // A new column: red when the two columns before it, k apart, have the same length.
        return length(column - 1) == length(column - 1 - k) ? RoadColour::Red : RoadColour::Blue;
    }
    // Row r >= 2 (1-based) against column c-k of length L: red if r <= L, blue if r == L+1,
    // red if r > L+1 (both cells empty count as "the same").
    const int r = row + 1;
    const int l = length(column - k);
    return r == l + 1 ? RoadColour::Blue : RoadColour::Red;
}

void DerivedRoad::follow(const BigRoadCell& cell, const std::vector<int>& columnLengths) {
    const auto colour = derivedMark(k_, cell.column, cell.row, columnLengths);
    if (!colour) {
        return;
    }
    const bool newRun = cells_.empty() || cells_.back().colour != *colour;
    cells_.push_back({*colour, grid_.place(newRun)});
}

std::optional<RoadColour> DerivedRoad::probe(const BigRoad& road, Winner next) const {
    const auto& cells = road.cells();
    const auto& lengths = road.columnLengths();
    if (cells.empty()) {
        return derivedMark(k_, 0, 0, lengths);
    }
    const BigRoadCell& last = cells.back();
    if (last.side == next) {
        return derivedMark(k_, last.column, last.row + 1, lengths);
    }
    return derivedMark(k_, last.column + 1, 0, lengths);
}

std::string_view derivedRoadName(int k) {
    switch (k) {
        case 1:
            return "big_eye";
        case 2:
            return "small";
        default:
            return "cockroach";
    }
}

char colourLetter(RoadColour c) {
    return c == RoadColour::Red ? 'R' : 'B';
}

}  // namespace pitlink::game
