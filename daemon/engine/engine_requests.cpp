#include "daemon/engine/engine_requests.h"

#include <spdlog/spdlog.h>

#include "daemon/io/reply_line.h"
#include "daemon/journal/read/recall.h"

namespace pitlink::engine {

using engine::Op;

namespace {

// Dealer ops: accepted only from a dealer connection of the game (or one that never said hello).
bool isDealerOp(Op op) {
    switch (op) {
        case Op::NewShoe:
        case Op::OpenRound:
        case Op::CloseBets:
        case Op::Card:
        case Op::CardUnreadable:
        case Op::VoidRound:
        case Op::Burn:
        case Op::Cut:
        case Op::Reader:
            return true;
        default:
            return false;
    }
}

// The station's wallet (one credit meter for every game it plays) and the controller's doors:
// decided by the first game whatever game the request names. (A tip is the wallet's money too,
// but it goes to a dealer: the game's it names, which its record names.)
bool isWalletOp(Op op) {
    switch (op) {
        case Op::CashOut:
        case Op::TicketIn:
        case Op::CallAttendant:
        case Op::Reserve:
        case Op::Denomination:
        case Op::BetList:
        case Op::Door:
            return true;
        default:
            return false;
    }
}

std::optional<std::int64_t> stationOf(const engine::EngineRequest& r) {
    return r.station > 0 ? std::optional(r.station) : std::nullopt;
}

}  // namespace

void EngineRequests::handle(const std::string& line, const io::OrderedReplies::Fill& reply, pid_t peer) {
    handle(noHello_, line, reply, peer);
}

void EngineRequests::handle(EngineSession& session, const std::string& line, const io::OrderedReplies::Fill& reply,
                            pid_t peer) {
    ++stats_.requests;
    const auto parsed = engine::parseRequest(line);
    if (const auto* error = std::get_if<engine::RequestError>(&parsed)) {
        ++stats_.badRequests;
        if (stats_.badRequests <= 10 || stats_.badRequests % 1000 == 0) {  // rate-limited
            spdlog::warn("engine link: bad request #{} from pid {}: {}", stats_.badRequests, peer, error->message);
        }
        reply(io::replyLine(error->id, table::Reply::refused(error->error, error->message)));
        return;
    }
    const auto& request = std::get<engine::EngineRequest>(parsed);
    if (stopping_ && request.op != Op::Status) {
        reply(io::replyLine(request.id, table::Reply::refused("stopping", "pitlinkd is stopping")));
        return;
    }
    dispatch(session, request, reply);
}

void EngineRequests::oversize(const io::OrderedReplies::Fill& reply) {
    ++stats_.badRequests;
    reply(io::replyLine(nullptr, table::Reply::refused("line_too_long", "a request is at most " +
                                                                            std::to_string(engine::kMaxLineBytes) +
                                                                            " bytes; the connection is closed")));
}

bool EngineRequests::serves(const EngineSession& session, const std::optional<std::string>& game) const {
    if (!game) {
        return true;
    }
    if (session.games.empty()) {
        return *game == home().name();
    }
    return std::find(session.games.begin(), session.games.end(), *game) != session.games.end();
}

table::Table* EngineRequests::named(const std::string& name) const {
    for (table::Table* game : games_) {
        if (game->name() == name) {
            return game;
        }
    }
    return nullptr;
}

void EngineRequests::hello(EngineSession& session, const engine::EngineRequest& r, const table::Respond& respond) {
    for (const std::string& name : r.games) {
        if (named(name) == nullptr) {
            home().refuseRequest("hello", std::nullopt, respond,
                                 table::Reply::refused("unknown_game", "this controller has no game " + name));
            return;
        }
    }
    session.games = r.games;
    session.dealer = r.role == "dealer";
    respond(table::Reply::accepted(table::GamesAnswer{session.games}));
}

table::Table* EngineRequests::gameOf(const EngineSession& session, const engine::EngineRequest& r,
                                     const table::Respond& respond) {
    const std::string_view op = engine::opName(r.op);
    const std::string name = r.game ? *r.game : session.games.empty() ? home().name() : session.games.front();
    std::string served;
    for (const std::string& g : session.games.empty() ? std::vector<std::string>{home().name()} : session.games) {
        served += (served.empty() ? "" : ", ") + g;
    }
    table::Table* game = named(name);
    if (game == nullptr) {
        home().refuseRequest(op, stationOf(r), respond,
                             table::Reply::refused("unknown_game", "this controller has no game " + name));
        return nullptr;
    }
    if (!serves(session, name)) {
        // Journaled as the game asked for's refusal (with its round, if one is in progress).
        game->refuseRequest(
            op, stationOf(r), respond,
            table::Reply::refused("not_your_game", "this connection serves " + served + ", not " + name + " (hello)"));
        return nullptr;
    }
    if (isDealerOp(r.op) && !session.dealer) {
        game->refuseRequest(
            op, stationOf(r), respond,
            table::Reply::refused("not_dealer",
                                  "dealer ops for " + name + " come from its dealer connection (hello role dealer)"));
        return nullptr;
    }
    return game;
}

void EngineRequests::dispatch(EngineSession& session, const engine::EngineRequest& r,
                              const io::OrderedReplies::Fill& reply) {
    const auto answer = [reply, id = r.id](const table::Reply& out) { reply(io::replyLine(id, out)); };
    if (r.op == Op::Hello) {
        hello(session, r, answer);
        return;
    }
    table::Table* game = gameOf(session, r, answer);
    if (game == nullptr) {
        return;
    }
    if (isWalletOp(r.op)) {
        play(home(), r, answer);
        return;
    }
    if (!severalGames()) {
        play(*game, r, answer);
        return;
    }
    play(*game, r,
         [reply, id = r.id, name = game->name()](const table::Reply& out) { reply(io::replyLine(id, out, name)); });
}

void EngineRequests::play(table::Table& t, const engine::EngineRequest& r, table::Respond respond) {
    switch (r.op) {
        case Op::Hello:
            return;  // answered by dispatch
        case Op::Join:
            t.join(r.station, std::move(respond));
            return;
        case Op::Leave:
            t.leave(r.station, std::move(respond));
            return;
        case Op::Status:
            respond(table::Reply::accepted(t.status()));
            return;
        case Op::NewShoe:
            t.newShoe(std::move(respond));
            return;
        case Op::OpenRound:
            t.openRound(std::move(respond));
            return;
        case Op::CloseBets:
            t.closeBets(std::move(respond));
            return;
        case Op::Card:
            t.dealCard(*r.card, std::move(respond));
            return;
        case Op::CardUnreadable:
            t.cardUnreadable(respond);
            return;
        case Op::VoidRound:
            t.voidRound(r.text, "engine", std::move(respond));
            return;
        case Op::Bet:
            t.placeBet(r.station, r.spot, r.amount, std::move(respond));
            return;
        case Op::Clear:
            t.clearBets(r.station, std::move(respond));
            return;
        case Op::Undo:
            t.undoBet(r.station, std::move(respond));
            return;
        case Op::Repeat:
            t.repeatBets(r.station, std::move(respond));
            return;
        case Op::Double:
            t.doubleBets(r.station, std::move(respond));
            return;
        case Op::CashOut:
            t.cashOut(r.station, std::move(respond));
            return;
        case Op::TicketIn:
            t.ticketIn(r.station, r.text, r.amount, std::move(respond));
            return;
        case Op::Tip:
            t.tip(r.station, r.amount, std::move(respond));
            return;
        case Op::CallAttendant:
            t.callAttendant(r.station, std::move(respond));
            return;
        case Op::Dispute:
            t.dispute(r.station, r.round, r.text, std::move(respond));
            return;
        case Op::Reserve:
            t.reserve(r.station, r.on, r.text, std::move(respond));
            return;
        case Op::AutoRepeat:
            t.setAutoRepeat(r.station, r.on, std::move(respond));
            return;
        case Op::Denomination:
            t.selectDenomination(r.station, r.amount, std::move(respond));
            return;
        case Op::KeepBets:
            t.setKeepBets(r.station, r.on, std::move(respond));
            return;
        case Op::Deal:
            t.deal(r.station, std::move(respond));
            return;
        case Op::Confirm:
            t.confirmBets(r.station, std::move(respond));
            return;
        case Op::Roads:
            respond(t.roads());
            return;
        case Op::BetList:
            betList(r.station, r.round, respond);
            return;
        case Op::Burn:
            t.reportBurn(r.cards, std::move(respond));
            return;
        case Op::Cut:
            t.reportCut(static_cast<int>(r.round), std::move(respond));
            return;
        case Op::Reader:
            t.readerStatus(r.on, r.text, std::move(respond));
            return;
        case Op::Raise:
            t.raiseBets(r.station, r.amount, std::move(respond));
            return;
        case Op::Limits:
            respond(t.limits(r.station));
            return;
        case Op::LimitLevel:
            t.selectLimitLevel(r.station, static_cast<int>(r.round), std::move(respond));
            return;
        case Op::Door:
            if (r.on) {
                t.doorOpened(r.text, std::move(respond));
            } else {
                t.doorClosed(r.text, std::move(respond));
            }
            return;
    }
}

void EngineRequests::betList(std::int64_t station, std::int64_t rounds, const table::Respond& respond) {
    if (station < 1 || station > home().stationCount()) {
        respond(table::Reply::refused("no_such_station", "there is no station " + std::to_string(station)));
        return;
    }
    if (journal_ == nullptr || reader_ == nullptr) {
        respond(table::Reply::refused("unavailable", "the bet list is read from the journal, which is not open"));
        return;
    }
    journal_->afterPending([this, station, rounds, respond] {
        reader_->read<std::vector<journal::RecalledRound>>(
            [station, rounds](journal::SegmentedJournal& journal) {
                return journal::recallRounds(journal, static_cast<int>(rounds), station);
            },
            [respond, station](std::vector<journal::RecalledRound> list) {
                respond(table::Reply::accepted(table::BetListAnswer{station, std::move(list)}));
            },
            [respond](const std::string& error) { respond(table::Reply::refused("unavailable", error)); });
    });
}

}  // namespace pitlink::engine
