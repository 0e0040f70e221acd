// The control socket's `protection` (docs/protection.md): a game's protection as it stands (its
// rules, this shoe's edges, what is closed or waiting, the stations' scores and reports, the
// worker's figures), or an earlier shoe's as the journal holds it (`shoe`), for surveillance.
#include <cmath>

#include "daemon/control/control_commands.h"
#include "daemon/io/event_line.h"
#include "daemon/io/reply_line.h"
#include "daemon/journal/read/shoe_protection.h"

namespace pitlink::control {

using nlohmann::json;
using table::Reply;

namespace {

json rulesJson(const game::SideBetGuard& guard) {
    json rules = json::array();
    for (const game::SideBetRule& rule : guard.watched()) {
        rules.push_back(json{{"bet", game::betTypeName(rule.bet)},
                             {"action", game::edgeActionName(rule.action)},
                             {"above_ppm", rule.abovePpm}});
    }
    return rules;
}

json scoreJson(std::int64_t station, game::BetType bet, const game::CounterScore& s) {
    return json{{"station", station},
                {"bet", game::betTypeName(bet)},
                {"rounds", s.rounds},
                {"staked", s.staked},
                {"mean_edge_ppm", std::llround(s.meanEdgePpm)},
                {"staked_edge_ppm", std::llround(s.stakedEdgePpm)},
                {"z_hundredths", std::llround(s.z * 100)}};
}

json withoutEvent(json line) {
    line.erase("event");
    return line;
}

}  // namespace

void ControlCommands::protection(table::Table& game, const ControlRequest& request, const Answer& answer) {
    if (request.shoe) {
        protectionOfShoe(game, *request.shoe, answer);
        return;
    }
    const game::SideBetGuard* guard = game.protection();
    if (guard == nullptr) {
        answer.data(json{{"table", game.name()}, {"enabled", false}});
        return;
    }
    json edges = json::array();
    for (const table::ShoeEdge& edge : game.shoeEdges()) {
        edges.push_back(withoutEvent(io::eventJson(edge)));
    }
    const table::TableStatus status = game.status();
    json scores = json::array();
    for (const table::StationStatus& s : status.stations) {
        for (const game::SideBetRule& rule : guard->watched()) {
            if (const auto score = guard->score(s.station, rule.bet)) {
                scores.push_back(scoreJson(s.station, rule.bet, *score));
            }
        }
    }
    json alerts = json::array();
    for (const game::CounterAlert& alert : guard->alerts()) {
        alerts.push_back(scoreJson(alert.station, alert.bet, alert.score));
    }
    const game::ProtectionRules& rules = guard->rules();
    const table::Table::ProtectionStats& stats = game.protectionStats();
    const json sideBets = io::statusJson(status).value("side_bets", json::object());
    answer.data(json{{"table", game.name()},
                     {"enabled", true},
                     {"rules", rulesJson(*guard)},
                     {"counter",
                      {{"alert_z", rules.counterAlertZ},
                       {"min_rounds", rules.counterMinRounds},
                       {"min_staked_rounds", rules.counterMinStakedRounds},
                       {"call_attendant", rules.counterCallsAttendant}}},
                     {"shoe", status.shoe},
                     {"round_in_shoe", status.roundInShoe},
                     {"cards_known", game.knownLeft().total()},
                     {"edges", std::move(edges)},
                     {"closed", sideBets.value("closed", json::array())},
                     {"waiting", sideBets.value("waiting", json::array())},
                     {"scores", std::move(scores)},
                     {"alerts", std::move(alerts)},
                     {"worker",
                      {{"edges_computed", stats.edgesComputed},
                       {"edges_stale", stats.edgesStale},
                       {"rounds_opened_before_edge", stats.roundsOpenedBeforeEdge},
                       {"bets_waited", stats.betsWaited},
                       {"bets_closed", stats.betsClosed},
                       {"last_error", stats.lastError.empty() ? json(nullptr) : json(stats.lastError)}}}});
}

void ControlCommands::protectionOfShoe(table::Table& game, std::int64_t shoe, const Answer& answer) {
    reader_.read<json>(
        [shoe](journal::SegmentedJournal& journal) {
            const journal::ShoeProtection read = journal::shoeProtection(journal, shoe);
            json edges = json::array();
            for (const journal::ShoeEdgeRecord& edge : read.edges) {
                edges.push_back(toBody(edge));
            }
            json stakes = json::object();
            for (const auto& [station, rounds] : read.stakes) {
                json byRound = json::object();
                for (const auto& [round, bets] : rounds) {
                    byRound[std::to_string(round)] = bets;
                }
                stakes[std::to_string(station)] = std::move(byRound);
            }
            json alerts = json::array();
            for (const auto& [station, alert] : read.alerts) {
                json reported = toBody(alert);
                reported["station"] = station;  // the record's station column
                alerts.push_back(std::move(reported));
            }
            return json{{"shoe", shoe},
                        {"game", read.game.empty() ? json(nullptr) : json(read.game)},
                        {"rounds", read.rounds},
                        {"edges", std::move(edges)},
                        {"stakes", std::move(stakes)},
                        {"alerts", std::move(alerts)}};
        },
        [&game, answer](json data) {
            // Shoe numbers are the controller's: the shoe may be another game's than the one asked.
            data["table"] = data["game"].is_string() ? data["game"].get<std::string>() : game.name();
            answer.data(std::move(data));
        },
        [answer](const std::string& error) { answer(Reply::refused("no_such_shoe", error)); });
}

}  // namespace pitlink::control
