#include "protocols/engine/scoreboard_json.h"

#include <string>

namespace pitlink::engine {

namespace {
using nlohmann::json;

std::string letter(game::Winner w) {
    return std::string(1, game::winnerLetter(w));
}
std::string colourName(game::RoadColour c) {
    return c == game::RoadColour::Red ? "red" : "blue";
}
json colourOrNull(const std::optional<game::RoadColour>& c) {
    return c ? json(colourName(*c)) : json(nullptr);
}
}  // namespace

json scoreboardJson(const game::Scoreboard& board, bool naturalsOnBigRoad) {
    const game::ShoeStatistics& st = board.statistics();
    json out;
    out["shoe"] = board.shoeNumber();
    out["rows"] = board.layout().rows;
    out["visible_columns"] = board.layout().visibleColumns;
    out["naturals_on_big_road"] = naturalsOnBigRoad;
    out["statistics"] = {{"rounds", st.rounds},    {"player_wins", st.playerWins},   {"banker_wins", st.bankerWins},
                         {"ties", st.ties},        {"player_pairs", st.playerPairs}, {"banker_pairs", st.bankerPairs},
                         {"naturals", st.naturals}};
    json beads = json::array();
    for (std::size_t i = 0; i < board.beads().size(); ++i) {
        const game::RoundMarks& m = board.beads()[i];
        const game::GridCell cell = board.beadCell(static_cast<int>(i));
        beads.push_back({{"result", letter(m.winner)},
                         {"column", cell.column},
                         {"row", cell.row},
                         {"player_pair", m.playerPair},
                         {"banker_pair", m.bankerPair},
                         {"natural", m.natural}});
    }
    out["bead_plate"] = beads;
    const game::BigRoad& road = board.bigRoad();
    json cells = json::array();
    for (const game::BigRoadCell& c : road.cells()) {
        cells.push_back({{"result", letter(c.side)},
                         {"column", c.column},
                         {"row", c.row},
                         {"x", c.drawn.column},
                         {"y", c.drawn.row},
                         {"ties", c.ties},
                         {"tie_first", c.tieFirst},
                         {"player_pair", c.playerPair},
                         {"banker_pair", c.bankerPair},
                         {"natural", naturalsOnBigRoad ? c.natural : 0}});
    }
    out["big_road"] = {{"columns", road.columnLengths()}, {"leading_ties", road.leadingTies()}, {"cells", cells}};
    for (int k = 1; k <= 3; ++k) {
        json marks = json::array();
        for (const game::DerivedCell& c : board.derived(k).cells()) {
            marks.push_back({{"colour", colourName(c.colour)}, {"x", c.drawn.column}, {"y", c.drawn.row}});
        }
        out[std::string(game::derivedRoadName(k))] = marks;
    }
    const game::Probe probe = board.probe();
    json banker;
    json player;
    for (int k = 1; k <= 3; ++k) {
        const std::string name(game::derivedRoadName(k));
        banker[name] = colourOrNull(probe.banker[static_cast<std::size_t>(k - 1)]);
        player[name] = colourOrNull(probe.player[static_cast<std::size_t>(k - 1)]);
    }
    out["probe"] = {{"banker", banker}, {"player", player}};
    return out;
}

}  // namespace pitlink::engine
