#include "daemon/io/event_line.h"

#include <string>

#include "daemon/journal/records/cashier_records.h"
#include "daemon/platform/overloaded.h"
#include "protocols/engine/scoreboard_json.h"

namespace pitlink::io {

bool isGameEvent(const table::TableEvent& event) {
    return !(
        std::holds_alternative<table::CreditsChanged>(event) || std::holds_alternative<table::TicketIssued>(event) ||
        std::holds_alternative<table::HandpayLocked>(event) || std::holds_alternative<table::HandpayReset>(event) ||
        std::holds_alternative<table::AttendantChanged>(event) ||
        std::holds_alternative<table::HostEnabledChanged>(event) ||
        std::holds_alternative<table::ReservationChanged>(event) ||
        std::holds_alternative<table::StationGamesChanged>(event) ||
        std::holds_alternative<table::AftLockChanged>(event));
}

bool isControlOnly(const table::TableEvent& event) {
    return std::holds_alternative<table::ShoeEdge>(event) || std::holds_alternative<table::ProtectionAlert>(event);
}

using nlohmann::json;

namespace {

json betNames(const std::vector<game::BetType>& bets) {
    json names = json::array();
    for (const game::BetType bet : bets) {
        names.push_back(game::betTypeName(bet));
    }
    return names;
}

using platform::Overloaded;

json settledJson(const table::RoundSettled& e) {
    json wins = json::object();
    for (const auto& [station, win] : e.wins) {
        wins[std::to_string(station)] = win;
    }
    json out{{"event", "result"},
             {"round", e.round},
             {"shoe", e.shoe},
             {"round_in_shoe", e.roundInShoe},
             {"player", e.player.cardNames()},
             {"banker", e.banker.cardNames()},
             {"winner", game::winnerName(e.outcome.winner)},
             {"player_total", e.outcome.playerTotal},
             {"banker_total", e.outcome.bankerTotal},
             {"wins", wins},
             {"cut_card_out", e.cutCardOut},
             {"cards_left", e.cardsLeft}};
    if (e.statistics) {
        const game::ShoeStatistics& st = *e.statistics;
        out["statistics"] =
            json{{"rounds", st.rounds},    {"banker", st.bankerWins},        {"player", st.playerWins},
                 {"tie", st.ties},         {"banker_pairs", st.bankerPairs}, {"player_pairs", st.playerPairs},
                 {"naturals", st.naturals}};
    }
    return out;
}

}  // namespace

json ticketJson(const table::TicketIssued& ticket) {
    json out = journal::ticketPrintJson(ticket.details);
    out.update(json{{"validation", ticket.validation},
                    {"amount", ticket.amount},
                    {"station", ticket.station},
                    {"table", ticket.table}});
    return out;
}

json eventJson(const table::TableEvent& event) {
    return std::visit(
        Overloaded{
            [](const table::ShoeStarted& e) {
                return json{{"event", "shoe"}, {"shoe", e.shoe}, {"reason", e.reason}};
            },
            [](const table::RoundOpened& e) {
                return json{{"event", "round"},
                            {"round", e.round},
                            {"phase", "bets_open"},
                            {"shoe", e.shoe},
                            {"round_in_shoe", e.roundInShoe}};
            },
            [](const table::LastBets& e) {
                return json{{"event", "round"}, {"round", e.round}, {"phase", "last_bets"}};
            },
            [](const table::BetsClosed& e) {
                return json{{"event", "round"}, {"round", e.round}, {"phase", "closed"}};
            },
            [](const table::CardDealt& e) {
                return json{
                    {"event", "card"}, {"round", e.round}, {"position", e.position}, {"card", e.card.toString()}};
            },
            [](const table::RoundSettled& e) { return settledJson(e); },
            [](const table::RoundVoided& e) {
                return json{{"event", "result"}, {"round", e.round}, {"voided", true}, {"reason", e.reason}};
            },
            [](const table::CreditsChanged& e) {
                json out{{"event", "credits"}, {"station", e.station}, {"credits", e.credits}};
                if (e.resettledRound) {
                    out["resettled_round"] = *e.resettledRound;
                }
                if (e.promo.restricted != 0) {
                    out["restricted"] = e.promo.restricted;
                }
                if (e.promo.nonrestricted != 0) {
                    out["nonrestricted"] = e.promo.nonrestricted;
                }
                if (e.transfer) {
                    out["transfer"] = json{{"id", e.transfer->first}, {"reason", e.transfer->second}};
                }
                return out;
            },
            [](const table::TicketIssued& e) {
                json out = ticketJson(e);
                out["event"] = "ticket";
                return out;
            },
            [](const table::HandpayLocked& e) {
                return json{{"event", "handpay"}, {"station", e.station}, {"amount", e.amount}, {"kind", e.kind}};
            },
            [](const table::HandpayReset& e) {
                return json{{"event", "handpay"}, {"station", e.station}, {"reset", true}};
            },
            [](const table::AttendantChanged& e) {
                return json{{"event", "attendant"}, {"station", e.station}, {"called", e.called}};
            },
            [](const table::HostEnabledChanged& e) {
                return json{{"event", "station"}, {"station", e.station}, {"host_enabled", e.enabled}};
            },
            [](const table::TiltChanged& e) {
                json out{{"event", "tilt"}, {"tilted", e.tilted}};
                if (e.cause) {
                    out["cause"] = *e.cause;
                }
                if (e.message) {
                    out["message"] = *e.message;
                }
                return out;
            },
            [](const table::DisputeChanged& e) {
                json out{{"event", "dispute"}, {"station", e.station}, {"round", e.round}};
                if (e.open) {
                    out.update(json{{"status", "open"}, {"text", e.text}});
                } else {
                    out.update(json{{"status", e.upheld ? "upheld" : "rejected"},
                                    {"reason", e.text},
                                    {"resettled", e.resettled},
                                    {"by", e.by}});
                }
                return out;
            },
            [](const table::ReservationChanged& e) {
                json out{{"event", "reserved"}, {"station", e.station}, {"reserved", e.reserved}, {"by", e.by}};
                if (e.reserved) {
                    out["until_ms"] = e.untilMs;
                }
                return out;
            },
            [](const table::AftLockChanged& e) {
                return json{{"event", "aft_lock"}, {"station", e.station}, {"locked", e.locked}};
            },
            [](const table::StationGamesChanged& e) {
                return json{{"event", "games"},
                            {"station", e.station},
                            {"action", e.joined ? "join" : "leave"},
                            {"games", e.games}};
            },
            [](const table::AutoRepeatChanged& e) {
                json out{{"event", "auto_repeat"}, {"station", e.station}, {"on", e.on}};
                if (!e.reason.empty()) {
                    out["reason"] = e.reason;
                }
                return out;
            },
            [](const table::KeepBetsChanged& e) {
                json out{{"event", "keep_bets"}, {"station", e.station}, {"on", e.on}};
                if (!e.reason.empty()) {
                    out["reason"] = e.reason;
                }
                return out;
            },
            [](const table::BetsUnconfirmed& e) {
                return json{{"event", "unconfirmed"},
                            {"round", e.round},
                            {"station", e.station},
                            {"returned", e.returned},
                            {"credits", e.credits}};
            },
            [](const table::RoadsChanged& e) {
                json out = engine::scoreboardJson(e.board, e.naturalsOnBigRoad);
                out["event"] = "roads";
                return out;
            },
            [](const table::SideBetsChanged& e) {
                return json{{"event", "side_bets"}, {"closed", betNames(e.closed)}};
            },
            [](const table::ShoeEdge& e) {
                json edges = json::object();
                for (const auto& [bet, ppm] : e.edgesPpm) {
                    edges[game::betTypeName(bet)] = ppm;
                }
                return json{{"event", "shoe_edge"},        {"shoe", e.shoe}, {"round_in_shoe", e.roundInShoe},
                            {"cards_known", e.cardsKnown}, {"edges", edges}, {"closed", betNames(e.closed)}};
            },
            [](const table::ProtectionAlert& e) {
                return json{{"event", "protection_alert"},
                            {"station", e.station},
                            {"shoe", e.shoe},
                            {"bet", game::betTypeName(e.bet)},
                            {"rounds", e.rounds},
                            {"staked", e.staked},
                            {"mean_edge_ppm", e.meanEdgePpm},
                            {"staked_edge_ppm", e.stakedEdgePpm},
                            {"z_hundredths", e.zHundredths},
                            {"attendant_called", e.attendantCalled}};
            },
        },
        event);
}

}  // namespace pitlink::io
