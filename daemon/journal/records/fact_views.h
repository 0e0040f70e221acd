#pragma once
// Typed views of the record bodies that more than one part of the daemon reads: the ledger, the
// SAS floor (exceptions raised from committed facts, the resume at start) and the start-up. Each
// names its fields and their ranges once (body_fields.h); a body that does not fit is refused
// with BodyError, as by every reader of journal bodies. schema/README.md documents the bodies.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace pitlink::journal {

// credit: every movement of a station's credits.
struct CreditFact {
    std::int64_t amount = 0;   // signed: what the station's credits moved by
    std::int64_t balance = 0;  // the credits after it
    std::string reason;        // reason::k...
    std::int64_t wagered = 0;  // settlement only: the round's stakes (coin in); 0 otherwise
};
[[nodiscard]] CreditFact creditFact(const nlohmann::json& body);

// handpay.pending: a station locked for a hand-pay.
struct HandpayFact {
    std::int64_t amount = 0;
    std::string kind;  // "cancelled_credit" (cash-out above the ticket limit) or "jackpot"
    // A jackpot whose win left the credit meter when it locked the station (a "jackpot" credit
    // in the same transaction, as SAS meters it: a hand-paid win is never machine-paid); the
    // reset then moves no credits. Journals before issue 17 took the win off at the reset.
    bool offCredits = false;
};
[[nodiscard]] HandpayFact handpayFact(const nlohmann::json& body);

// ticket.redeemed: a ticket's credits taken in.
struct TicketRedeemedFact {
    std::string validation;
    std::int64_t amount = 0;
    bool host = false;  // redeemed with the SAS accounting host (not locally)
};
[[nodiscard]] TicketRedeemedFact ticketRedeemedFact(const nlohmann::json& body);

// dispute.raised: a player's dispute of a round, open until a dispute.resolved of its station.
struct DisputeFact {
    std::int64_t round = 0;
    std::string text;
    friend bool operator==(const DisputeFact&, const DisputeFact&) = default;
};

// station.reserved: a station locked for its player until `untilMs` (table clock) or released.
struct ReservationFact {
    bool reserved = false;
    std::int64_t untilMs = 0;  // 0: journals before issue 20 (no time-out: released by hand)
    std::string pinSha256;     // hex, when the player locked it with a PIN (releasing needs it)
    friend bool operator==(const ReservationFact&, const ReservationFact&) = default;
};
[[nodiscard]] ReservationFact reservationFact(const nlohmann::json& body);
// Its body: `reserved`, and when reserved `until_ms` and `pin_sha256` (if any).
[[nodiscard]] nlohmann::json reservationJson(const ReservationFact& reservation);

}  // namespace pitlink::journal
