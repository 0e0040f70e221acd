#include "daemon/io/reply_line.h"

#include "daemon/io/event_line.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/records/settlement_records.h"
#include "daemon/journal/records/slip_json.h"
#include "daemon/journal/records/station_state.h"
#include "daemon/platform/overloaded.h"
#include "protocols/engine/scoreboard_json.h"

namespace pitlink::io {

using nlohmann::json;

namespace {

using platform::Overloaded;

json stationJson(const table::StationStatus& s) {
    json bets = json::array();
    for (const journal::RoundBet& bet : s.bets) {
        bets.push_back(json{{"bet", bet.index}, {"spot", game::betTypeName(bet.spot)}, {"stake", bet.stake}});
    }
    json out{{"station", s.station},
             {"credits", s.credits},
             {"bets", bets},
             {"handpay", s.handpay ? json{{"amount", s.handpay->amount}, {"kind", s.handpay->kind}} : json(nullptr)},
             {"attendant", s.attendant},
             {"reserved", s.reservedUntilMs.has_value()},
             {"host_disabled", s.hostDisabled},
             {"limit_level", s.limitLevel},
             {"personal_limits", journal::personalLimitsJson(s.personal)},
             {"auto_repeat", s.autoRepeat},
             {"keep_bets", s.keepBets},
             {"denomination", s.denomination},
             {"confirmed", s.confirmed},
             {"dispute", s.dispute ? json{{"round", s.dispute->round}, {"text", s.dispute->text}} : json(nullptr)}};
    if (s.reservedUntilMs) {
        out["reserved_until_ms"] = *s.reservedUntilMs;
    }
    if (!s.games.empty()) {
        out["games"] = s.games;
    }
    // Credit types and the cashless lock (issue 36): only when the station has them, so that a
    // station without promotional credits reads as before.
    if (s.promo.restricted != 0) {
        out["restricted"] = s.promo.restricted;
    }
    if (s.promo.nonrestricted != 0) {
        out["nonrestricted"] = s.promo.nonrestricted;
    }
    if (s.aftLocked) {
        out["aft_locked"] = true;
    }
    return out;
}

// The round's new outcome first, then each settlement it adjusted (the bet.adjusted record with
// its station), as the transaction holds them; each moved credit as its record, by station.
json resettleJson(const table::ResettleAnswer& d) {
    const journal::RoundResettledRecord& resettled = d.records.round;
    json records = json::array();
    records.push_back(json{{"outcome", journal::outcomeToJson(resettled.outcome)},
                           {"previous_outcome", resettled.previousOutcome},
                           {"step", resettled.step}});
    for (const journal::AdjustedStake& stake : d.records.stakes) {
        json bet = journal::toBody(stake.adjusted);
        bet["station"] = stake.station;
        records.push_back(std::move(bet));
    }
    json credits = json::object();
    for (const auto& [station, credit] : d.records.credits) {
        credits[std::to_string(station)] = journal::toBody(credit);
    }
    return json{{"round", d.round}, {"records", std::move(records)}, {"credits", std::move(credits)}};
}

json limitsJson(const table::LimitsAnswer& d) {
    json spots = json::object();
    for (const table::SpotLimitsView& view : d.spots) {
        spots[std::string(game::betTypeName(view.spot))] = json{{"min", view.range.min},
                                                                {"max", view.range.max},
                                                                {"max_win", view.maxWin},
                                                                {"max_payout", view.range.max + view.maxWin}};
    }
    return json{{"station", d.station},
                {"level", d.level},
                {"levels", d.levels},
                {"personal", journal::personalLimitsJson(d.personal)},
                {"denomination", d.denomination},
                {"denominations", d.denominations},
                {"spots", spots},
                {"winnings", journal::slipJson(d.winnings)}};
}

}  // namespace

json statusJson(const table::TableStatus& status) {
    json stations = json::array();
    for (const table::StationStatus& s : status.stations) {
        stations.push_back(stationJson(s));
    }
    json tilts = json::object();
    for (const auto& [cause, message] : status.tilts) {
        tilts[cause] = message;
    }
    json out{{"table", status.table},
             {"source", status.rngSource ? "rng" : "reader"},
             {"phase", table::roundPhaseName(status.phase)},
             {"round", status.round},
             {"shoe", status.shoe},
             {"round_in_shoe", status.roundInShoe},
             {"cards_left", status.cardsLeft},
             {"shoe_reason", status.shoeReason.empty() ? json(nullptr) : json(status.shoeReason)},
             {"shoe_resumed", status.shoeResumed},
             {"rounds_finished", status.roundsFinished},
             {"paytable", status.paytable},
             {"tilts", tilts},
             {"stations", stations},
             {"denominations", status.denominations},
             {"limit_levels", status.limitLevels}};
    if (status.sideBets) {
        const auto names = [](const std::vector<game::BetType>& bets) {
            json list = json::array();
            for (const game::BetType bet : bets) {
                list.push_back(game::betTypeName(bet));
            }
            return list;
        };
        out["side_bets"] =
            json{{"closed", names(status.sideBets->closed)}, {"waiting", names(status.sideBets->waiting)}};
    }
    return out;
}

json replyDataJson(const table::ReplyData& data) {
    return std::visit(
        Overloaded{
            [](const table::NoData&) { return json::object(); },
            [](const table::AlreadySo&) {
                return json{{"already", true}};
            },
            [](const table::RoundAnswer& d) {
                return json{{"round", d.round}};
            },
            [](const table::RoundVoidedAnswer& d) {
                return json{{"round", d.round}, {"bets_returned", d.betsReturned}};
            },
            [](const table::ShoeAnswer& d) {
                return json{{"shoe", d.shoe}};
            },
            [](const table::CardAnswer& d) {
                return json{{"position", d.position}};
            },
            [](const table::RescanAnswer& d) {
                return json{{"rescan", true}, {"rescans", d.rescans}};
            },
            [](const table::BetsAnswer& d) {
                return json{{"round", d.round}, {"credits", d.credits}, {"slip", journal::slipJson(d.slip)}};
            },
            [](const table::CreditsAnswer& d) {
                return json{{"credits", d.credits}};
            },
            [](const table::ReservedAnswer& d) {
                json out{{"reserved", d.reserved}};
                if (d.reserved) {
                    out["until_ms"] = d.untilMs;
                }
                return out;
            },
            [](const table::TicketAnswer& d) {
                return json{{"ticket", ticketJson(d.ticket)}};
            },
            [](const table::HostCashoutAnswer& d) {
                return json{{"to_host", d.amount}, {"credits", d.credits}};
            },
            [](const table::HandpayAnswer& d) {
                return json{{"handpay", d.amount}, {"why", d.why}};
            },
            [](const table::HandpayPaidAnswer& d) {
                return json{{"amount", d.amount}};
            },
            [](const table::ReconfigureAnswer& d) {
                return json{{"applied", d.applied}, {"restart_needed", d.restartNeeded}};
            },
            [](const table::ResettleAnswer& d) { return resettleJson(d); },
            [](const table::TableStatus& d) { return statusJson(d); },
            [](const table::LimitsAnswer& d) { return limitsJson(d); },
            [](const table::GamesAnswer& d) {
                return json{{"games", d.games}};
            },
            [](const table::BetListAnswer& d) {
                json rounds = json::array();
                for (const journal::RecalledRound& round : d.rounds) {
                    rounds.push_back(journal::stationBetListJson(round, d.station));
                }
                return json{{"station", d.station}, {"rounds", std::move(rounds)}};
            },
            [](const table::AutoRepeatAnswer& d) {
                return json{{d.keepBets ? "keep_bets" : "auto_repeat", d.on}};
            },
            [](const table::ConfirmedAnswer& d) {
                return json{{"round", d.round}, {"confirmed", true}, {"slip", journal::slipJson(d.slip)}};
            },
            [](const table::RoadsAnswer& d) {
                return engine::scoreboardJson(d.roads.board, d.roads.naturalsOnBigRoad);
            },
            [](const table::DisputeResolvedAnswer& d) {
                return json{{"station", d.station},
                            {"round", d.round},
                            {"decision", d.upheld ? "upheld" : "rejected"},
                            {"resettlement", d.resettlement ? resettleJson(*d.resettlement) : json(nullptr)}};
            },
        },
        data);
}

namespace {

json replyJson(const json& id, const table::Reply& reply) {
    json out{{"id", id}, {"ok", reply.ok}};
    if (reply.ok) {
        out["data"] = replyDataJson(reply.data);
    } else {
        out["error"] = reply.error;
        out["message"] = reply.message;
    }
    return out;
}

}  // namespace

std::string replyLine(const json& id, const table::Reply& reply) {
    return replyJson(id, reply).dump();
}

std::string replyLine(const json& id, const table::Reply& reply, const std::string& game) {
    json out = replyJson(id, reply);
    out["game"] = game;
    return out.dump();
}

std::string acceptedLine(const json& id, json data) {
    return json{{"id", id}, {"ok", true}, {"data", std::move(data)}}.dump();
}

}  // namespace pitlink::io
