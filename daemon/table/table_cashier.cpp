// Money in and out of a station other than bets: cash-out (ticket up to the ticket limit,
// otherwise a hand-pay that locks the station until an attendant resets it), ticket in, tips.
#include <cstdio>

#include "daemon/journal/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

using nlohmann::json;
namespace kind = journal::kind;
namespace reason = journal::reason;

namespace {

bool allDigits(const std::string& s) {
    return !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

void Table::cashOut(std::int64_t number, Respond respond) {
    if (auto problem = stationProblem(number)) {
        respond(*problem);
        return;
    }
    const game::Money credits = journal_.projected().credits(number);
    if (credits <= 0) {
        respond(Reply::refused("no_credits", "station " + std::to_string(number) + " has no credits"));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    if (credits > settings_.ticketLimit) {
        tx.add(kind::kHandpayPending, std::nullopt, number, json{{"amount", credits}, {"kind", "cancelled_credit"}});
        stationAt(number).handpay = PendingHandpay{credits, "cancelled_credit"};
        commit(std::move(tx), std::move(respond), Reply::accepted(json{{"handpay", credits}}), [this, number, credits] {
            publish("handpay", json{{"station", number}, {"amount", credits}, {"kind", "cancelled_credit"}});
        });
        return;
    }
    // Until SAS validation (#6) the table numbers its own tickets: station, then a sequence that
    // continues across restarts (from the journal).
    char validation[24];
    std::snprintf(validation, sizeof validation, "%02lld%016lld", static_cast<long long>(number % 100),
                  static_cast<long long>(nextTicket_++));
    tx.add(kind::kTicketIssued, std::nullopt, number, json{{"validation", validation}, {"amount", credits}});
    tx.credit(number, -credits, reason::kTicketOut, std::nullopt, json{{"ref", validation}});
    const json ticket{{"validation", validation}, {"amount", credits}, {"station", number}, {"table", settings_.name}};
    commit(std::move(tx), std::move(respond), Reply::accepted(json{{"ticket", ticket}}), [this, ticket] {
        publish("ticket", ticket);
    });
}

void Table::resetHandpay(std::int64_t number, const std::string& who, Respond respond) {
    if (number < 1 || number > stationCount() || !station(number).handpay) {
        respond(Reply::refused("no_handpay", "station " + std::to_string(number) + " has no hand-pay pending"));
        return;
    }
    Station& s = stationAt(number);
    const PendingHandpay handpay = *s.handpay;
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kHandpayReset, std::nullopt, number, json{{"amount", handpay.amount}, {"kind", handpay.kind}, {"by", who}});
    tx.credit(number, -handpay.amount, handpay.kind == "jackpot" ? reason::kJackpot : reason::kHandpay);
    s.handpay.reset();
    commit(std::move(tx), std::move(respond), Reply::accepted(json{{"amount", handpay.amount}}), [this, number] {
        publish("handpay", json{{"station", number}, {"reset", true}});
    });
}

void Table::ticketIn(std::int64_t number, const std::string& validation, game::Money amount, Respond respond) {
    if (auto problem = stationProblem(number)) {
        respond(*problem);
        return;
    }
    if (!settings_.ticketInLocal) {
        respond(Reply::refused("no_host", "tickets are redeemed through the accounting host"));
        return;
    }
    if (!allDigits(validation)) {
        respond(Reply::refused("bad_ticket", "a validation number is 1 to 20 digits"));
        return;
    }
    if (amount <= 0 || amount > settings_.ticketInMax || amount % settings_.denomination != 0) {
        respond(Reply::refused("ticket_amount", "a ticket must be a whole number of credits from 1 credit to " +
                                                    std::to_string(settings_.ticketInMax)));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kTicketRedeemed, std::nullopt, number, json{{"validation", validation}, {"amount", amount}});
    tx.credit(number, amount, reason::kTicketIn, std::nullopt, json{{"ref", validation}});
    const game::Money credits = tx.balance(number);
    commit(std::move(tx), std::move(respond), Reply::accepted(json{{"credits", credits}}), [this, number, credits] {
        publish("credits", json{{"station", number}, {"credits", credits}});
    });
}

void Table::tip(std::int64_t number, game::Money amount, Respond respond) {
    if (auto problem = stationProblem(number)) {
        respond(*problem);
        return;
    }
    if (amount <= 0 || amount % settings_.denomination != 0) {
        respond(Reply::refused("tip_amount", "a tip is a whole number of credits"));
        return;
    }
    if (amount > journal_.projected().credits(number)) {
        respond(Reply::refused("insufficient_credits", "the tip is more than the station's credits"));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(kind::kTip, std::nullopt, number, json{{"amount", amount}});
    tx.credit(number, -amount, reason::kTip);
    const game::Money credits = tx.balance(number);
    commit(std::move(tx), std::move(respond), Reply::accepted(json{{"credits", credits}}), [this, number, credits] {
        publish("credits", json{{"station", number}, {"credits", credits}});
    });
}

}  // namespace pitlink::table
