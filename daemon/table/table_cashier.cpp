// Money in and out of a station other than bets: cash-out (ticket up to the ticket limit,
// otherwise a hand-pay that locks the station until an attendant resets it), ticket in, tips.
#include <algorithm>
#include <cstdio>

#include "daemon/journal/journal.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/table/table.h"

namespace pitlink::table {

namespace reason = journal::reason;

namespace {

bool allDigits(const std::string& s) {
    return !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

void Table::cashOut(std::int64_t number, Respond respond) {
    if (auto problem = stationProblem(number)) {
        refuse("cash_out", number, respond, *problem);
        return;
    }
    TicketSystem* host = controller_.tickets();
    const journal::StationAccount held = journal_.projected().station(number);
    const game::Money credits = held.cashable() + held.promo.held.nonrestricted;
    if (host != nullptr && credits > 0) {
        // SAS AFT host cash-out: the host takes it by a transfer, or (soft mode) the ticket does.
        walletAt(number).hostCashingOut = true;
        const bool offered = host->offerHostCashout(
            number, credits, [this, number, respond](const std::optional<game::Money>& taken) mutable {
                walletAt(number).hostCashingOut = false;
                if (taken) {
                    respond(Reply::accepted(HostCashoutAnswer{*taken, journal_.projected().credits(number)}));
                    return;
                }
                if (auto problem = stationProblem(number)) {
                    refuse("cash_out", number, respond, *problem);  // locked or tilted meanwhile
                    return;
                }
                cashOutByTicket(number, std::move(respond));
            });
        if (offered) {
            return;
        }
        walletAt(number).hostCashingOut = false;
    }
    cashOutByTicket(number, std::move(respond));
}

void Table::cashOutByTicket(std::int64_t number, Respond respond) {
    // The credits after everything submitted: a settlement or ticket in still committing counts.
    // A cash-out pays cashable and non-restricted credits; restricted ones stay (docs: README
    // "Credit types"), and a hand-pay pays cashable credits only.
    const journal::StationAccount held = journal_.projected().station(number);
    const game::Money credits = held.cashable() + held.promo.held.nonrestricted;
    if (credits <= 0) {
        refuse("cash_out", number, respond,
               Reply::refused("no_credits", "station " + std::to_string(number) + " has no credits to cash out" +
                                                (held.credits > 0 ? " (restricted credits stay)" : "")));
        return;
    }
    if (credits > settings_.ticketLimit) {
        if (held.cashable() <= 0) {
            refuse("cash_out", number, respond,
                   Reply::refused("no_credits",
                                  "non-restricted promotional credits above the ticket limit: a "
                                  "hand-pay pays cashable credits only"));
            return;
        }
        lockForHandpay(number, held.cashable(), "above the ticket limit", std::move(respond));
        return;
    }
    TicketSystem* tickets = controller_.tickets();
    if (tickets == nullptr) {
        // No accounting host: the table numbers its own tickets, station then a sequence that
        // continues across restarts (from the journal).
        char validation[24];
        std::snprintf(validation, sizeof validation, "%02lld%016lld", static_cast<long long>(number % 100),
                      static_cast<long long>(controller_.takeTicketNumber()));
        issueTicket(number, credits, ValidatedTicket{validation, {}}, std::move(respond));
        return;
    }
    walletAt(number).cashingOut = true;
    tickets->validateCashout(
        number, credits,
        [this, number, credits, respond = std::move(respond)](const std::optional<ValidatedTicket>& ticket) mutable {
            walletAt(number).cashingOut = false;
            const journal::StationAccount now = journal_.projected().station(number);
            if (now.cashable() + now.promo.held.nonrestricted < credits) {
                // Only a re-settlement taking credits back can do this while the station is locked.
                refuse("cash_out", number, respond,
                       Reply::refused("credits_changed", "the credits changed while the host validated the cash-out"));
                return;
            }
            if (ticket) {
                issueTicket(number, credits, *ticket, std::move(respond));
            } else {
                lockForHandpay(number, credits, "the host did not validate the ticket", std::move(respond));
            }
        });
}

void Table::issueTicket(std::int64_t number, game::Money amount, const ValidatedTicket& validated, Respond respond) {
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::TicketIssuedRecord{validated.validation, amount, validated.details}, std::nullopt, number);
    // Non-restricted promotional credits leave on the ticket first, as cashable (SAS prints them
    // on a cashable ticket); the ledger meters the parts apart.
    const game::Money nonrestricted = std::min(amount, tx.promo(number).held.nonrestricted);
    tx.credit(number, -amount, reason::kTicketOut, std::nullopt,
              {.ref = validated.validation, .promo = journal::PromoParts{0, -nonrestricted}});
    const TicketIssued issued{number, amount, validated.validation, settings_.name, validated.details};
    commit(std::move(tx), std::move(respond), Reply::accepted(TicketAnswer{issued}),
           [this, issued] { publish(issued); });
}

void Table::lockForHandpay(std::int64_t number, game::Money amount, const std::string& why, Respond respond) {
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::HandpayPendingRecord{amount, "cancelled_credit", why, false}, std::nullopt, number);
    walletAt(number).handpay = PendingHandpay{amount, "cancelled_credit"};
    commit(std::move(tx), std::move(respond), Reply::accepted(HandpayAnswer{amount, why}), [this, number, amount] {
        publish(HandpayLocked{number, amount, "cancelled_credit"});
    });
}

void Table::resetHandpay(std::int64_t number, const std::string& who, Respond respond) {
    if (number < 1 || number > stationCount() || !wallet(number).handpay) {
        refuse("handpay_reset", number, respond,
               Reply::refused("no_handpay", "station " + std::to_string(number) + " has no hand-pay pending"),
               journal::RefusedRequest{.by = who});
        return;
    }
    StationWallet& s = walletAt(number);
    const PendingHandpay handpay = *s.handpay;
    // A jackpot locked since issue 17 left the credit meter at the lock: the attendant pays the
    // win as it was won. Otherwise the credits leave now, and a re-settlement since the lock may
    // have taken some back (found by tests/sim, seed 9): the attendant pays what the station
    // still holds, never more, and the journal says both.
    const game::Money paid =
        handpay.offCredits
            ? handpay.amount
            : std::clamp<game::Money>(journal_.projected().station(number).cashable(), 0, handpay.amount);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::HandpayResetRecord{paid, handpay.kind, who,
                                       paid != handpay.amount ? std::optional(handpay.amount) : std::nullopt},
           std::nullopt, number);
    if (!handpay.offCredits) {
        tx.credit(number, -paid, handpay.kind == "jackpot" ? reason::kJackpot : reason::kHandpay);
    }
    s.handpay.reset();
    commit(std::move(tx), std::move(respond), Reply::accepted(HandpayPaidAnswer{paid}),
           [this, number] { publish(HandpayReset{number}); });
}

void Table::ticketIn(std::int64_t number, const std::string& validation, game::Money amount, Respond respond) {
    const journal::RefusedRequest detail{.amount = amount, .validation = validation.substr(0, 40)};
    if (auto problem = stationProblem(number)) {
        refuse("ticket_in", number, respond, *problem, detail);
        return;
    }
    if (!allDigits(validation)) {
        refuse("ticket_in", number, respond, Reply::refused("bad_ticket", "a validation number is 1 to 20 digits"),
               detail);
        return;
    }
    if (controller_.tickets() != nullptr && !settings_.ticketInLocal) {
        redeemThroughHost(number, validation, std::move(respond));
        return;
    }
    if (!settings_.ticketInLocal) {
        refuse("ticket_in", number, respond,
               Reply::refused("no_host", "tickets are redeemed through the accounting host"), detail);
        return;
    }
    if (amount <= 0 || amount > settings_.ticketInMax || amount % settings_.denomination != 0) {
        refuse("ticket_in", number, respond,
               Reply::refused("ticket_amount", "a ticket must be a whole number of credits from 1 credit to " +
                                                   std::to_string(settings_.ticketInMax)),
               detail);
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::TicketRedeemedRecord{validation, amount, false}, std::nullopt, number);
    tx.credit(number, amount, reason::kTicketIn, std::nullopt, {.ref = validation});
    const game::Money credits = tx.balance(number);
    commit(std::move(tx), std::move(respond), Reply::accepted(CreditsAnswer{credits}), [this, number, credits] {
        publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
    });
}

// SAS ticket in: the host reads the ticket (67, LP 70) and accepts or rejects it (LP 71); credits
// are added only once the host accepted and the journal has committed them.
void Table::redeemThroughHost(std::int64_t number, const std::string& validation, Respond respond) {
    walletAt(number).redeeming = true;
    controller_.tickets()->redeemTicket(
        number, validation,
        [this, number, validation, respond = std::move(respond)](const RedeemVerdict& verdict) mutable -> RedeemCheck {
            walletAt(number).redeeming = false;
            if (!verdict.accepted) {
                refuse("ticket_in", number, respond, Reply::refused("ticket_rejected", verdict.reason),
                       journal::RefusedRequest{.validation = validation});
                return RedeemCheck::Accepted;  // nothing to check: the host said no
            }
            const game::Money amount = verdict.amount;
            const RedeemCheck check = amount <= 0                            ? RedeemCheck::Unable
                                      : amount % settings_.denomination != 0 ? RedeemCheck::NotEvenMultiple
                                      : amount > settings_.ticketInMax       ? RedeemCheck::AboveLimit
                                      : journal_.failed() || !tilts_.empty() ? RedeemCheck::Unable
                                                                             : RedeemCheck::Accepted;
            if (check != RedeemCheck::Accepted) {
                refuse("ticket_in", number, respond,
                       Reply::refused("ticket_amount", "the ticket's amount " + std::to_string(amount) +
                                                           " cannot be credited at this station; ticket returned"),
                       journal::RefusedRequest{.amount = amount, .validation = validation});
                return check;
            }
            journal::JournalTransaction tx = journal_.begin();
            tx.add(journal::TicketRedeemedRecord{validation, amount, true}, std::nullopt, number);
            tx.credit(number, amount, reason::kTicketIn, std::nullopt, {.ref = validation});
            const game::Money credits = tx.balance(number);
            // Not through commit(): the ticket system hears of a failed commit too (the host is told).
            CommitObserver* observer = controller_.observer();
            std::function<void()> observed = observer != nullptr ? observer->submitting(tx) : std::function<void()>{};
            journal_.submit(std::move(tx), [this, number, credits, observed = std::move(observed),
                                            respond = std::move(respond)](const journal::CommitResult& result) {
                if (result.ok && observed) {
                    observed();
                }
                if (TicketSystem* host = controller_.tickets()) {
                    host->redemptionCommitted(number, result.ok);
                }
                if (!result.ok) {
                    tiltNow("journal", "the journal cannot be written: " + result.error, false);
                    respond(Reply::refused("journal_failed", result.error));
                    return;
                }
                respond(Reply::accepted(CreditsAnswer{credits}));
                publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
            });
            return RedeemCheck::Accepted;
        });
}

void Table::tip(std::int64_t number, game::Money amount, Respond respond) {
    if (auto problem = stationProblem(number)) {
        refuse("tip", number, respond, *problem, journal::RefusedRequest{.amount = amount});
        return;
    }
    if (amount <= 0 || amount % denominationOf(number) != 0) {
        refuse("tip", number, respond, Reply::refused("tip_amount", "a tip is a whole number of credits"),
               journal::RefusedRequest{.amount = amount});
        return;
    }
    if (amount > journal_.projected().station(number).cashable()) {
        refuse("tip", number, respond,
               Reply::refused("insufficient_credits", "the tip is more than the station's cashable credits"),
               journal::RefusedRequest{.amount = amount});
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::TipRecord{amount}, std::nullopt, number);
    tx.credit(number, -amount, reason::kTip);
    const game::Money credits = tx.balance(number);
    commit(std::move(tx), std::move(respond), Reply::accepted(CreditsAnswer{credits}), [this, number, credits] {
        publish(CreditsChanged{number, credits, std::nullopt, std::nullopt, {}});
    });
}

}  // namespace pitlink::table
