#include "daemon/ctl/odds_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "daemon/config/paytable_loader.h"
#include "daemon/ctl/arguments.h"
#include "daemon/game/shoe_composition.h"

namespace pitlink::ctl {

namespace {
std::string payoutText(const game::Payout& p) {
    return p.push ? "push" : p.ratio.toString() + ":1";
}
}  // namespace

int runOdds(const std::vector<std::string>& args, std::ostream& out) {
    const Arguments a(args, {"--paytable", "--decks"}, {"--json"});
    const auto file = a.value("--paytable");
    if (!file) {
        throw UsageError("--paytable FILE is required");
    }
    const auto decks = static_cast<int>(a.integer("--decks", 8, game::kMinDecks, game::kMaxDecks));
    const game::Paytable table = config::loadPaytableFile(*file);
    const game::OddsReport& report = game::fullShoeOdds(decks);
    if (a.flag("--json")) {
        printOddsJson(out, table, decks, report);
    } else {
        printOdds(out, table, decks, report);
    }
    return 0;
}

void printOdds(std::ostream& out, const game::Paytable& table, int decks, const game::OddsReport& report) {
    fmt::print(out, "Exact odds: paytable '{}' ({}), {} deck(s), {} card sequences\n\n", table.id, table.name, decks,
               report.sequences);
    fmt::print(out, "{:<8} {:>10}\n", "result", "probability");
    for (const auto w : {game::Winner::Banker, game::Winner::Player, game::Winner::Tie}) {
        fmt::print(out, "{:<8} {:>10.6f}\n", game::winnerName(w), static_cast<double>(report.probability(w)));
    }
    fmt::print(out, "\n{:<12} {:<26} {:>7} {:>12} {:>10} {:>10}\n", "bet", "event", "pays", "probability", "RTP %",
               "edge %");
    for (const game::BetType type : game::kAllBetTypes) {
        if (!table.offers(type)) {
            continue;
        }
        const game::BetTally& t = report.tally(type);
        const game::BetReturn r = game::betReturn(table, type, t);
        const auto tiers = game::payTiers(type);
        bool first = true;
        auto row = [&](std::string_view event, const std::string& pays, std::uint64_t count) {
            if (count == 0) {
                return;
            }
            if (first) {
                fmt::print(out, "{:<12} {:<26} {:>7} {:>12.8f} {:>10.4f} {:>10.4f}\n", game::betTypeName(type), event,
                           pays, static_cast<double>(report.probability(count)),
                           static_cast<double>(100 * r.returnToPlayer()), static_cast<double>(100 * r.houseEdge()));
                first = false;
            } else {
                fmt::print(out, "{:<12} {:<26} {:>7} {:>12.8f}\n", "", event, pays,
                           static_cast<double>(report.probability(count)));
            }
        };
        for (std::size_t i = 0; i < tiers.size(); ++i) {
            row(tiers[i].name, payoutText(table.payout(type, static_cast<int>(i))), t.wins[i]);
        }
        row("push (tie)", "push", t.pushes);
        row("loss", "-1", t.losses);
    }
}

void printOddsJson(std::ostream& out, const game::Paytable& table, int decks, const game::OddsReport& report) {
    fmt::print(
        out, R"({{"paytable":"{}","decks":{},"sequences":{},"player":{:.10f},"banker":{:.10f},"tie":{:.10f},"bets":[)",
        table.id, decks, report.sequences, static_cast<double>(report.probability(game::Winner::Player)),
        static_cast<double>(report.probability(game::Winner::Banker)),
        static_cast<double>(report.probability(game::Winner::Tie)));
    bool firstBet = true;
    for (const game::BetType type : game::kAllBetTypes) {
        if (!table.offers(type)) {
            continue;
        }
        const game::BetTally& t = report.tally(type);
        const game::BetReturn r = game::betReturn(table, type, t);
        fmt::print(
            out,
            R"({}{{"bet":"{}","house_edge":{:.10f},"return_to_player":{:.10f},"push":{:.10f},"loss":{:.10f},"tiers":{{)",
            firstBet ? "" : ",", game::betTypeName(type), static_cast<double>(r.houseEdge()),
            static_cast<double>(r.returnToPlayer()), static_cast<double>(report.probability(t.pushes)),
            static_cast<double>(report.probability(t.losses)));
        const auto tiers = game::payTiers(type);
        for (std::size_t i = 0; i < tiers.size(); ++i) {
            fmt::print(out, R"({}"{}":{:.10f})", i == 0 ? "" : ",", tiers[i].name,
                       static_cast<double>(report.probability(t.wins[i])));
        }
        fmt::print(out, "}}}}");
        firstBet = false;
    }
    fmt::print(out, "]}}\n");
}

}  // namespace pitlink::ctl
