#include "daemon/ctl/roads_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>
#include <iostream>

#include "daemon/ctl/arguments.h"
#include "daemon/ctl/control_commands.h"
#include "daemon/ctl/scoreboard_svg.h"
#include "protocols/engine/scoreboard_json.h"

namespace pitlink::ctl {

namespace {
// Letters of a drawn grid, one text line per row, the newest `visible` columns.
template <class Cells, class Letter>
void printGrid(std::ostream& out, const std::string& title, const game::RoadGrid& grid, int visible, const Cells& cells,
               Letter letter) {
    const int first = grid.firstVisibleColumn(visible);
    const int columns = std::min(visible, grid.columns() - first);
    std::vector<std::string> rows(static_cast<std::size_t>(grid.rows()),
                                  std::string(static_cast<std::size_t>(columns), '.'));
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

std::string probeText(const std::optional<game::RoadColour>& c) {
    return c ? std::string(1, game::colourLetter(*c)) : "-";
}
}  // namespace

void printRoads(std::ostream& out, const game::Scoreboard& board) {
    const auto& st = board.statistics();
    fmt::print(out,
               "shoe {}: {} rounds, Banker {}, Player {}, Tie {}, Banker pairs {}, Player pairs {}, naturals {}\n\n",
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
    const Arguments a(args, {"--results", "--svg", "--rows", "--columns", "--shoe", "--table", "--socket"}, {"--json"});
    std::vector<game::RoundMarks> rounds;
    std::int64_t shoe = a.integer("--shoe", 1, 1, UINT32_MAX);
    std::string table = a.value("--table").value_or("pitlink");
    if (const auto results = a.value("--results")) {
        const auto parsed = game::parseResults(*results);
        if (!parsed) {
            throw UsageError("--results takes only the letters B, P and T");
        }
        rounds = *parsed;
    } else {
        // The running table's current shoe (or --shoe N from its journal), from the daemon.
        nlohmann::json reply;
        try {
            control::ControlRequest request;
            request.command = control::Command::Roads;
            if (a.value("--shoe")) {
                request.shoe = shoe;  // an earlier shoe, drawn from the journal
            }
            reply = askDaemon(a.value("--socket").value_or(kDefaultControlSocket), request);
        } catch (const DaemonUnavailable& e) {
            std::cerr << "pitlinkctl: " << e.what() << " (or give --results BPT...)\n";
            return kExitUnavailable;
        }
        if (!reply.value("ok", false)) {
            std::cerr << "pitlinkctl: refused (" << reply.value("error", "?") << "): " << reply.value("message", "")
                      << "\n";
            return reply.value("error", "") == "permission_denied" ? kExitNoPermission : 1;
        }
        const auto& data = reply["data"];
        shoe = data["shoe"].get<std::int64_t>();
        table = data["table"].get<std::string>();
        for (const auto& b : data["beads"]) {
            const char w = b["winner"].get<std::string>().at(0);
            rounds.push_back(game::RoundMarks{w == 'B'   ? game::Winner::Banker
                                              : w == 'P' ? game::Winner::Player
                                                         : game::Winner::Tie,
                                              b["player_pair"].get<bool>(), b["banker_pair"].get<bool>(),
                                              b["natural"].get<std::uint8_t>()});
        }
    }
    game::ScoreboardLayout layout;
    layout.rows = static_cast<int>(a.integer("--rows", layout.rows, 3, 12));
    layout.visibleColumns = static_cast<int>(a.integer("--columns", layout.visibleColumns, 6, 200));
    game::Scoreboard board(static_cast<std::uint32_t>(shoe), layout);
    for (const game::RoundMarks& m : rounds) {
        board.add(m);
    }
    if (const auto svgFile = a.value("--svg")) {
        std::ofstream file(*svgFile);
        file << ctl::scoreboardSvg(board, table);
        if (!file.flush()) {
            throw std::runtime_error("cannot write " + *svgFile);
        }
    }
    if (a.flag("--json")) {
        out << engine::scoreboardJson(board).dump() << "\n";
    } else if (!a.value("--svg")) {
        printRoads(out, board);
    }
    return 0;
}

}  // namespace pitlink::ctl
