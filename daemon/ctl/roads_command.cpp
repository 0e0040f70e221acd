#include "daemon/ctl/roads_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>

#include "daemon/app/scoreboard_json.h"
#include "daemon/app/scoreboard_svg.h"
#include "daemon/ctl/arguments.h"

namespace pitlink::ctl {

namespace {
// Letters of a drawn grid, one text line per row, the newest `visible` columns.
template <class Cells, class Letter>
void printGrid(std::ostream& out, const std::string& title, const game::RoadGrid& grid, int visible, const Cells& cells,
               Letter letter) {
    const int first = grid.firstVisibleColumn(visible);
    const int columns = std::min(visible, grid.columns() - first);
    std::vector<std::string> rows(static_cast<std::size_t>(grid.rows()), std::string(static_cast<std::size_t>(columns), '.'));
    for (const auto& c : cells) {
        if (c.drawn.column >= first) {
            rows[static_cast<std::size_t>(c.drawn.row)][static_cast<std::size_t>(c.drawn.column - first)] = letter(c);
        }
    }
    fmt::print(out, "{}\n", title);
    for (const auto& row : rows) {
        fmt::print(out, "  {}\n", row);
    }
}

std::string probeText(const std::optional<game::RoadColour>& c) { return c ? std::string(1, game::colourLetter(*c)) : "-"; }
}  // namespace

void printRoads(std::ostream& out, const game::Scoreboard& board) {
    const auto& st = board.statistics();
    fmt::print(out, "shoe {}: {} rounds, Banker {}, Player {}, Tie {}, Banker pairs {}, Player pairs {}, naturals {}\n\n",
               board.shoeNumber(), st.rounds, st.bankerWins, st.playerWins, st.ties, st.bankerPairs, st.playerPairs,
               st.naturals);
    const int visible = board.layout().visibleColumns;
    const int rows = board.layout().rows;
    std::vector<std::string> beadRows(static_cast<std::size_t>(rows));
    for (std::size_t i = 0; i < board.beads().size(); ++i) {
        beadRows[i % static_cast<std::size_t>(rows)] += game::winnerLetter(board.beads()[i].winner);
    }
    fmt::print(out, "Bead plate\n");
    for (const auto& row : beadRows) {
        fmt::print(out, "  {}\n", row);
    }
    printGrid(out, "Big road (B/P; lower case: a tie is counted on the cell)", board.bigRoad().grid(), visible,
              board.bigRoad().cells(), [](const game::BigRoadCell& c) {
                  const char l = game::winnerLetter(c.side);
                  return c.ties > 0 ? static_cast<char>(l - 'A' + 'a') : l;
              });
    const std::array<const char*, 3> titles{"Big Eye Road (R/B)", "Small Road (R/B)", "Cockroach Road (R/B)"};
    for (int k = 1; k <= 3; ++k) {
        printGrid(out, titles[static_cast<std::size_t>(k - 1)], board.derived(k).grid(), visible * 2,
                  board.derived(k).cells(), [](const game::DerivedCell& c) { return game::colourLetter(c.colour); });
    }
    const game::Probe p = board.probe();
    fmt::print(out, "Next Banker would add: big eye {}, small {}, cockroach {}\n", probeText(p.banker[0]),
               probeText(p.banker[1]), probeText(p.banker[2]));
    fmt::print(out, "Next Player would add: big eye {}, small {}, cockroach {}\n", probeText(p.player[0]),
               probeText(p.player[1]), probeText(p.player[2]));
}

int runRoads(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--results", "--svg", "--rows", "--columns", "--shoe", "--table"}, {"--json"});
    const auto results = a.value("--results");
    if (!results) {
        throw UsageError("--results BPT... is required (reading a shoe from the journal comes with the journal)");
    }
    const auto rounds = game::parseResults(*results);
    if (!rounds) {
        throw UsageError("--results takes only the letters B, P and T");
    }
    game::ScoreboardLayout layout;
    layout.rows = static_cast<int>(a.integer("--rows", layout.rows, 3, 12));
    layout.visibleColumns = static_cast<int>(a.integer("--columns", layout.visibleColumns, 6, 200));
    game::Scoreboard board(static_cast<std::uint32_t>(a.integer("--shoe", 1, 1, UINT32_MAX)), layout);
    for (const game::RoundMarks& m : *rounds) {
        board.add(m);
    }
    if (const auto svgFile = a.value("--svg")) {
        std::ofstream file(*svgFile);
        file << app::scoreboardSvg(board, a.value("--table").value_or("pitlink"));
        if (!file.flush()) {
            throw std::runtime_error("cannot write " + *svgFile);
        }
    }
    if (a.flag("--json")) {
        out << app::scoreboardJson(board).dump() << "\n";
    } else if (!a.value("--svg")) {
        printRoads(out, board);
    }
    return 0;
}

}  // namespace pitlink::ctl
