#include "daemon/ctl/protection_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

namespace pitlink::ctl {

namespace {

using nlohmann::json;

constexpr std::array<const char*, 8> kColours{"#d32f2f", "#1565c0", "#2e7d32", "#f9a825",
                                              "#6a1b9a", "#00838f", "#ef6c00", "#5d4037"};
constexpr int kLeft = 70;
constexpr int kTop = 40;
constexpr int kPlotWidth = 760;
constexpr int kPlotHeight = 320;

std::string escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

}  // namespace

std::string protectionSvg(const json& shoe, std::optional<std::int64_t> station) {
    // The last edge journaled for each round (a restart computes a round's edge again).
    std::map<std::int64_t, json> byRound;
    std::vector<std::string> bets;
    for (const json& edge : shoe.at("edges")) {
        byRound[edge.at("round_in_shoe").get<std::int64_t>()] = edge;
        for (const auto& [bet, ppm] : edge.at("edges").items()) {
            if (std::find(bets.begin(), bets.end(), bet) == bets.end()) {
                bets.push_back(bet);
            }
        }
    }
    const std::int64_t rounds = std::max<std::int64_t>(
        {shoe.value("rounds", std::int64_t{0}), byRound.empty() ? 1 : byRound.rbegin()->first, 1});
    std::int64_t lowPpm = 0;
    std::int64_t highPpm = 0;
    for (const auto& [round, edge] : byRound) {
        for (const auto& [bet, ppm] : edge.at("edges").items()) {
            lowPpm = std::min(lowPpm, ppm.get<std::int64_t>());
            highPpm = std::max(highPpm, ppm.get<std::int64_t>());
        }
    }
    // Whole 5 % steps around every edge shown, 0 always among them.
    constexpr std::int64_t kStep = 50'000;
    lowPpm = (lowPpm - kStep + 1) / kStep * kStep;  // rounded down (division truncates toward 0)
    lowPpm = std::min<std::int64_t>(lowPpm, -kStep);
    highPpm = std::max<std::int64_t>((highPpm + kStep - 1) / kStep * kStep, kStep);
    const auto x = [&](double round) { return kLeft + (round - 0.5) * kPlotWidth / static_cast<double>(rounds); };
    const auto y = [&](double ppm) {
        return kTop + (static_cast<double>(highPpm) - ppm) * kPlotHeight / static_cast<double>(highPpm - lowPpm);
    };
    const double band = static_cast<double>(kPlotWidth) / static_cast<double>(rounds);
    const int height = kTop + kPlotHeight + 60 + 18 * static_cast<int>(bets.size() + 2);
    std::string svg = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">)"
        "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        kLeft + kPlotWidth + 30, height);
    std::string title = "shoe " + std::to_string(shoe.at("shoe").get<std::int64_t>());
    if (shoe.contains("table") && shoe.at("table").is_string()) {
        title = shoe.at("table").get<std::string>() + ", " + title;
    }
    svg += fmt::format(
        R"(<text x="{}" y="20" font-size="15">{}: the player's edge of each side bet, round by round</text>)"
        "\n",
        kLeft, escaped(title));
    // Closed rounds: a band in the bet's colour behind the lines.
    for (const auto& [round, edge] : byRound) {
        for (const json& closed : edge.at("closed")) {
            const auto index =
                static_cast<std::size_t>(std::find(bets.begin(), bets.end(), closed.get<std::string>()) - bets.begin());
            svg += fmt::format(R"(<rect x="{:.1f}" y="{}" width="{:.1f}" height="{}" fill="{}" opacity="0.15"/>)"
                               "\n",
                               x(static_cast<double>(round)) - band / 2, kTop, band, kPlotHeight,
                               kColours[index % kColours.size()]);
        }
    }
    // Axes: a line every 5 %, 0 bold; rounds along the bottom.
    for (std::int64_t ppm = lowPpm; ppm <= highPpm; ppm += kStep) {
        svg += fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="{}" stroke-width="{}"/>)"
                           "\n"
                           R"(<text x="{}" y="{:.1f}" text-anchor="end">{:+d} %</text>)"
                           "\n",
                           kLeft, y(static_cast<double>(ppm)), kLeft + kPlotWidth, y(static_cast<double>(ppm)),
                           ppm == 0 ? "#000" : "#d0d0d0", ppm == 0 ? 1.5 : 1, kLeft - 6,
                           y(static_cast<double>(ppm)) + 4, ppm / 10'000);
    }
    const std::int64_t every = std::max<std::int64_t>(1, rounds / 20);
    for (std::int64_t round = 1; round <= rounds; round += every) {
        svg += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)"
                           "\n",
                           x(static_cast<double>(round)), kTop + kPlotHeight + 16, round);
    }
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">round of the shoe</text>)"
                       "\n",
                       kLeft + kPlotWidth / 2, kTop + kPlotHeight + 34);
    // One line per side bet.
    for (std::size_t i = 0; i < bets.size(); ++i) {
        std::string points;
        for (const auto& [round, edge] : byRound) {
            if (edge.at("edges").contains(bets[i])) {
                points += fmt::format("{:.1f},{:.1f} ", x(static_cast<double>(round)),
                                      y(edge.at("edges").at(bets[i]).get<double>()));
            }
        }
        svg += fmt::format(R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>)"
                           "\n",
                           points, kColours[i % kColours.size()]);
    }
    // The station's side-bet stakes: a dot on the bet's line, its area the stake.
    std::int64_t largest = 1;
    const json* mine = nullptr;
    if (station && shoe.contains("stakes") && shoe.at("stakes").contains(std::to_string(*station))) {
        mine = &shoe.at("stakes").at(std::to_string(*station));
        for (const auto& [round, stakes] : mine->items()) {
            for (const auto& [bet, stake] : stakes.items()) {
                largest = std::max(largest, stake.get<std::int64_t>());
            }
        }
        for (const auto& [round, stakes] : mine->items()) {
            const std::int64_t r = std::stoll(round);
            const auto edge = byRound.find(r);
            for (const auto& [bet, stake] : stakes.items()) {
                const auto index = static_cast<std::size_t>(std::find(bets.begin(), bets.end(), bet) - bets.begin());
                if (edge == byRound.end() || !edge->second.at("edges").contains(bet)) {
                    continue;
                }
                const double radius = 3 + 9 * std::sqrt(stake.get<double>() / static_cast<double>(largest));
                svg +=
                    fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}" stroke="black" opacity="0.8"/>)"
                                "\n",
                                x(static_cast<double>(r)), y(edge->second.at("edges").at(bet).get<double>()), radius,
                                kColours[index % kColours.size()]);
            }
        }
    }
    // Legend, then the stations reported.
    int line = kTop + kPlotHeight + 58;
    for (std::size_t i = 0; i < bets.size(); ++i) {
        svg += fmt::format(R"(<rect x="{}" y="{}" width="14" height="4" fill="{}"/><text x="{}" y="{}">{}</text>)"
                           "\n",
                           kLeft, line - 5, kColours[i % kColours.size()], kLeft + 20, line, escaped(bets[i]));
        line += 18;
    }
    svg += fmt::format(R"(<text x="{}" y="{}">Shaded: the bet closed for that round. {}</text>)"
                       "\n",
                       kLeft, line,
                       station ? fmt::format("Dots: station {}'s side-bet stakes (area: stake).", *station)
                               : std::string("--station N draws a station's stakes."));
    line += 18;
    std::string reported;
    for (const json& alert : shoe.value("alerts", json::array())) {
        reported += fmt::format("{}station {} on {} (z {:.2f}) ", reported.empty() ? "" : "; ",
                                alert.at("station").get<std::int64_t>(), alert.at("bet").get<std::string>(),
                                static_cast<double>(alert.at("z_hundredths").get<std::int64_t>()) / 100);
    }
    svg += fmt::format(R"(<text x="{}" y="{}">Reported: {}</text>)"
                       "\n</svg>\n",
                       kLeft, line, reported.empty() ? "none" : escaped(reported));
    return svg;
}

}  // namespace pitlink::ctl
