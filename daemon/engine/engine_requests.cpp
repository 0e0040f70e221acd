#include "daemon/engine/engine_requests.h"

#include <spdlog/spdlog.h>

#include "daemon/io/reply_line.h"
#include "daemon/journal/read/recall.h"

namespace pitlink::engine {

using engine::Op;

void EngineRequests::handle(const std::string& line, const io::OrderedReplies::Fill& reply, pid_t peer) {
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
    dispatch(request, [reply, id = request.id](const table::Reply& r) { reply(io::replyLine(id, r)); });
}

void EngineRequests::oversize(const io::OrderedReplies::Fill& reply) {
    ++stats_.badRequests;
    reply(io::replyLine(nullptr, table::Reply::refused("line_too_long", "a request is at most " +
                                                                            std::to_string(engine::kMaxLineBytes) +
                                                                            " bytes; the connection is closed")));
}

void EngineRequests::dispatch(const engine::EngineRequest& r, table::Respond respond) {
    table::Table& t = table_;
    switch (r.op) {
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
    if (station < 1 || station > table_.stationCount()) {
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
