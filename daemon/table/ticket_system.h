#pragma once
// Who numbers cash-out tickets and decides on inserted ones when the table is on an accounting
// host (SAS, issue 6): the table asks, the answer comes back later on the logic thread, and the
// table journals what follows. Without one, the table numbers its own tickets and redeems
// tickets locally only if `cashier.ticket_in_local` allows it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "daemon/game/bet_rules.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/records/cashier_records.h"

namespace pitlink::table {

struct ValidatedTicket {
    std::string validation;        // the number printed (18 digits)
    journal::TicketPrint details;  // journaled with the ticket and sent to print it
};

// How the table takes the host's verdict on an inserted ticket.
enum class RedeemCheck : std::uint8_t { Accepted, NotEvenMultiple, AboveLimit, Unable };

struct RedeemVerdict {
    bool accepted = false;
    game::Money amount = 0;
    std::string reason;  // why not (for the station's reply)
};

class TicketSystem {
public:
    virtual ~TicketSystem() = default;
    // A cash-out of `amount` wants a validation number: `done` once, with nullopt when validation
    // was denied or the host did not answer in time (the table then locks for a hand-pay).
    virtual void validateCashout(std::int64_t station, game::Money amount,
                                 std::function<void(std::optional<ValidatedTicket>)> done) = 0;
    // A ticket inserted at the station: `verdict` once, when the host has accepted or rejected it
    // (or did not answer); an accepted verdict is checked by the table at once (the host hears the
    // result of that check), then journaled; `committed` says whether that commit succeeded.
    virtual void redeemTicket(std::int64_t station, const std::string& validation,
                              std::function<RedeemCheck(const RedeemVerdict&)> verdict) = 0;
    virtual void redemptionCommitted(std::int64_t station, bool committed) = 0;
    // SAS AFT's host cash-out (protocols/sas/README.md "AFT"): when the host has asked to take
    // the station's cash-outs, the cash-out of `amount` is offered to it and `done` is called
    // once: with what the host took by a transfer to the host (it may take less), or nullopt when
    // it took nothing in time (soft mode: the cash-out goes on as a ticket or hand-pay). False
    // when the host has not asked (nothing offered, `done` never called).
    virtual bool offerHostCashout(std::int64_t /*station*/, game::Money /*amount*/,
                                  const std::function<void(std::optional<game::Money> taken)>& /*done*/) {
        return false;
    }
};

// Sees every transaction the table submits, before it is submitted: it may add facts of its own
// to it (SAS exceptions raised by what the transaction records) and returns what to do once it
// has committed (nothing, if it does not commit).
class CommitObserver {
public:
    virtual ~CommitObserver() = default;
    virtual std::function<void()> submitting(journal::JournalTransaction& tx) = 0;
};

}  // namespace pitlink::table
