#include "daemon/ctl/scoreboard_svg.h"

#include <fmt/format.h>

#include <algorithm>

namespace pitlink::ctl {

namespace {
using game::RoadColour;
using game::Winner;

constexpr const char* kRed = "#d32f2f";
constexpr const char* kBlue = "#1565c0";
constexpr const char* kGreen = "#2e7d32";
constexpr const char* kYellow = "#fbc02d";
constexpr const char* kGridLine = "#d0d0d0";
constexpr int kMargin = 16;
constexpr int kBigCell = 22;    // bead plate and big road
constexpr int kSmallCell = 12;  // derived roads

const char* sideColour(Winner w) {
    switch (w) {
        case Winner::Banker:
            return kRed;
        case Winner::Player:
            return kBlue;
        case Winner::Tie:
            return kGreen;
    }
    return kGreen;
}
const char* colourOf(RoadColour c) {
    return c == RoadColour::Red ? kRed : kBlue;
}

class SvgWriter {
public:
    SvgWriter() { body_.reserve(std::size_t{96} * 1024); }  // a full shoe is about 60 kB: grow once, not a dozen times

    void text(int x, int y, const std::string& s, int size = 13, const char* weight = "normal") {
        fmt::format_to(fmt::appender(body_),
                       R"(<text x="{}" y="{}" font-family="sans-serif" font-size="{}" font-weight="{}">{}</text>)"
                       "\n",
                       x, y, size, weight, s);
    }
    void grid(int x, int y, int columns, int rows, int cell) {
        fmt::format_to(fmt::appender(body_),
                       R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff" stroke="{}"/>)"
                       "\n",
                       x, y, columns * cell, rows * cell, kGridLine);
        for (int c = 1; c < columns; ++c) {
            line(x + c * cell, y, x + c * cell, y + rows * cell, kGridLine, 1);
        }
        for (int r = 1; r < rows; ++r) {
            line(x, y + r * cell, x + columns * cell, y + r * cell, kGridLine, 1);
        }
    }
    void circle(double cx, double cy, double r, const char* colour, bool solid) {
        fmt::format_to(fmt::appender(body_),
                       R"(<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="{}"/>)"
                       "\n",
                       cx, cy, r, solid ? colour : "none", colour, solid ? 0 : 2.5);
    }
    void line(double x1, double y1, double x2, double y2, const char* colour, double width) {
        fmt::format_to(fmt::appender(body_),
                       R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}"/>)"
                       "\n",
                       x1, y1, x2, y2, colour, width);
    }
    void centredText(double x, double y, const std::string& s, int size, const char* colour) {
        fmt::format_to(
            fmt::appender(body_),
            R"(<text x="{}" y="{}" font-family="sans-serif" font-size="{}" font-weight="bold" fill="{}" text-anchor="middle" dominant-baseline="central">{}</text>)"
            "\n",
            x, y, size, colour, s);
    }
    [[nodiscard]] std::string finish(int width, int height) const {
        std::string out =
            fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}">)"
                        "\n"
                        R"(<rect width="100%" height="100%" fill="#f7f7f2"/>)"
                        "\n",
                        width, height);
        out.reserve(out.size() + body_.size() + 8);
        out.append(body_.data(), body_.size());
        out += "</svg>\n";
        return out;
    }

private:
    fmt::memory_buffer body_;  // appends in blocks; a std::string back_inserter goes char by char
};

// Marks drawn in a cell whose top-left corner is (x, y).
void bigRoadMark(SvgWriter& svg, double x, double y, int cell, const game::BigRoadCell& c) {
    const double cx = x + cell / 2.0;
    const double cy = y + cell / 2.0;
    svg.circle(cx, cy, cell / 2.0 - 3, sideColour(c.side), false);
    if (c.ties > 0) {
        svg.line(x + 4, y + cell - 4, x + cell - 4, y + 4, kGreen, 2.5);
        if (c.ties > 1) {
            svg.centredText(x + cell - 5, y + 6, std::to_string(c.ties), 9, kGreen);  // count in the corner
        }
    }
    if (c.natural != 0) {
        svg.circle(cx, cy, 2.5, kYellow, true);
    }
    if (c.bankerPair) {
        svg.circle(x + 4, y + 4, 3, kRed, true);
    }
    if (c.playerPair) {
        svg.circle(x + cell - 4, y + cell - 4, 3, kBlue, true);
    }
}

void beadMark(SvgWriter& svg, double x, double y, int cell, const game::RoundMarks& m) {
    svg.circle(x + cell / 2.0, y + cell / 2.0, cell / 2.0 - 2, sideColour(m.winner), true);
    svg.centredText(x + cell / 2.0, y + cell / 2.0, std::string(1, game::winnerLetter(m.winner)), 11, "#ffffff");
    if (m.bankerPair) {
        svg.circle(x + 4, y + 4, 3, kRed, true);
    }
    if (m.playerPair) {
        svg.circle(x + cell - 4, y + cell - 4, 3, kBlue, true);
    }
}

// Big Eye Road: hollow circle; Small Road: solid dot; Cockroach Road: slash.
void derivedMark(SvgWriter& svg, int k, double x, double y, int cell, RoadColour colour) {
    const char* c = colourOf(colour);
    switch (k) {
        case 1:
            svg.circle(x + cell / 2.0, y + cell / 2.0, cell / 2.0 - 2, c, false);
            break;
        case 2:
            svg.circle(x + cell / 2.0, y + cell / 2.0, cell / 2.0 - 2, c, true);
            break;
        default:
            svg.line(x + 2, y + cell - 2, x + cell - 2, y + 2, c, 2.5);
            break;
    }
}

std::string percent(int n, int total) {
    return total == 0 ? "0 %" : fmt::format("{:.1f} %", 100.0 * n / total);
}
}  // namespace

std::string scoreboardSvg(const game::Scoreboard& board, const std::string& tableName) {
    SvgWriter svg;
    const int rows = board.layout().rows;
    const int visible = board.layout().visibleColumns;
    const int width = kMargin * 2 + std::max(visible * kBigCell, 640);
    int y = kMargin + 16;

    const game::ShoeStatistics& st = board.statistics();
    svg.text(kMargin, y, fmt::format("{}: shoe {}", tableName, board.shoeNumber()), 18, "bold");
    y += 22;
    svg.text(kMargin, y,
             fmt::format("rounds {}   Banker {} ({})   Player {} ({})   Tie {} ({})   Banker pairs {}   Player pairs "
                         "{}   naturals {}",
                         st.rounds, st.bankerWins, percent(st.bankerWins, st.rounds), st.playerWins,
                         percent(st.playerWins, st.rounds), st.ties, percent(st.ties, st.rounds), st.bankerPairs,
                         st.playerPairs, st.naturals),
             12);
    y += 14;

    // Legend.
    int lx = kMargin;
    int ly = y + 6;
    auto legend = [&](auto draw, const std::string& label) {
        const int labelWidth = 18 + static_cast<int>(label.size()) * 6 + 14;
        if (lx + labelWidth > width - kMargin) {
            lx = kMargin;  // wrap onto a new legend line
            ly += 20;
        }
        draw(lx, ly);
        svg.text(lx + 18, ly + 11, label, 11);
        lx += labelWidth;
    };
    legend([&](int x, int yy) { svg.circle(x + 7, yy + 7, 6, kRed, true); }, "Banker");
    legend([&](int x, int yy) { svg.circle(x + 7, yy + 7, 6, kBlue, true); }, "Player");
    legend([&](int x, int yy) { svg.circle(x + 7, yy + 7, 6, kGreen, true); }, "Tie");
    legend([&](int x, int yy) { svg.line(x + 1, yy + 13, x + 13, yy + 1, kGreen, 2.5); },
           "tie on a big-road cell (count if > 1)");
    legend([&](int x, int yy) { svg.circle(x + 4, yy + 4, 3, kRed, true); }, "Banker pair");
    legend([&](int x, int yy) { svg.circle(x + 10, yy + 10, 3, kBlue, true); }, "Player pair");
    legend(
        [&](int x, int yy) {
            svg.circle(x + 7, yy + 7, 6, kRed, false);
            svg.circle(x + 7, yy + 7, 2.5, kYellow, true);
        },
        "natural");
    legend([&](int x, int yy) { svg.circle(x + 7, yy + 7, 6, kBlue, false); }, "Big Eye: hollow");
    legend([&](int x, int yy) { svg.circle(x + 7, yy + 7, 5, kRed, true); }, "Small: solid");
    legend([&](int x, int yy) { svg.line(x + 1, yy + 13, x + 13, yy + 1, kBlue, 2.5); },
           "Cockroach: slash (derived roads: red = order, blue = chaos)");
    y = ly + 34;

    auto section = [&](const std::string& title) {
        svg.text(kMargin, y, title, 13, "bold");
        y += 6;
    };

    // Bead plate: the newest `visible` columns.
    section("Bead plate");
    svg.grid(kMargin, y, visible, rows, kBigCell);
    const int beadColumns = (static_cast<int>(board.beads().size()) + rows - 1) / rows;
    const int firstBead = std::max(0, beadColumns - visible);
    for (std::size_t i = 0; i < board.beads().size(); ++i) {
        const game::GridCell cell = board.beadCell(static_cast<int>(i));
        if (cell.column >= firstBead) {
            beadMark(svg, kMargin + (cell.column - firstBead) * kBigCell, y + cell.row * kBigCell, kBigCell,
                     board.beads()[i]);
        }
    }
    y += rows * kBigCell + 24;

    section(board.bigRoad().leadingTies() > 0 && !board.bigRoad().cells().empty() ? "Big road (tie first)"
                                                                                  : "Big road");
    svg.grid(kMargin, y, visible, rows, kBigCell);
    const int firstBig = board.bigRoad().grid().firstVisibleColumn(visible);
    for (const game::BigRoadCell& c : board.bigRoad().cells()) {
        if (c.drawn.column >= firstBig) {
            bigRoadMark(svg, kMargin + (c.drawn.column - firstBig) * kBigCell, y + c.drawn.row * kBigCell, kBigCell, c);
        }
    }
    y += rows * kBigCell + 24;

    const std::array<const char*, 3> titles{"Big Eye Road", "Small Road", "Cockroach Road"};
    const int derivedVisible = visible * kBigCell / kSmallCell;
    for (int k = 1; k <= 3; ++k) {
        const game::DerivedRoad& road = board.derived(k);
        section(titles[static_cast<std::size_t>(k - 1)]);
        svg.grid(kMargin, y, derivedVisible, rows, kSmallCell);
        const int first = road.grid().firstVisibleColumn(derivedVisible);
        for (const game::DerivedCell& c : road.cells()) {
            if (c.drawn.column >= first) {
                derivedMark(svg, k, kMargin + (c.drawn.column - first) * kSmallCell, y + c.drawn.row * kSmallCell,
                            kSmallCell, c.colour);
            }
        }
        y += rows * kSmallCell + 22;
    }

    // Probe: what each derived road would add if the next result were Banker or Player.
    section("Next result would add (Big Eye, Small, Cockroach)");
    y += 4;
    const game::Probe probe = board.probe();
    auto probeRow = [&](const char* label, Winner side, const std::array<std::optional<RoadColour>, 3>& marks) {
        svg.circle(kMargin + 8, y + 8, 7, sideColour(side), true);
        svg.text(kMargin + 22, y + 12, label, 12);
        for (int k = 1; k <= 3; ++k) {
            const int x = kMargin + 90 + (k - 1) * 30;
            const auto& mark = marks[static_cast<std::size_t>(k - 1)];
            if (mark) {
                derivedMark(svg, k, x, y, 16, *mark);
            } else {
                svg.text(x + 4, y + 12, "-", 12);
            }
        }
        y += 22;
    };
    probeRow("Banker", Winner::Banker, probe.banker);
    probeRow("Player", Winner::Player, probe.player);

    return svg.finish(width, y + kMargin);
}

}  // namespace pitlink::ctl
