#pragma once
// The records of a station's credits and cash: credit, ticket.issued, ticket.redeemed,
// handpay.pending, handpay.reset, tip (schema/README.md). Typed records (typed_record.h): the
// table fills them, SAS, the ledger and the resume read them back.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "daemon/journal/ledger/credit_types.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/typed_record.h"

namespace pitlink::journal {

// credit: every movement of a station's credits (JournalTransaction::credit writes it, with the
// balance computed on the projected ledger).
struct CreditRecord {
    static constexpr std::string_view kKind = kind::kCredit;
    std::int64_t amount = 0;         // signed: what the station's credits moved by
    std::int64_t balance = 0;        // the credits after it
    std::string reason;              // reason::k...
    std::optional<std::string> ref;  // what moved them: "bet 3", a ticket's validation number
    // Settlement: the round's stakes (coin in); required in a settlement credit's body.
    std::optional<std::int64_t> wagered;
    std::optional<std::int64_t> due;        // re-settlement: what the correction asked for
    std::optional<std::int64_t> shortfall;  // re-settlement: what the station could not give back
    // Settlement and jackpot credits of a round: the value of one credit the station played it at
    // (minor units; absent in journals from before it was written: the accounting denomination),
    // and on a controller of several games the round's game (JournalTransaction::nameGame). The
    // ledger meters each game and denomination's play apart (Ledger::plays).
    std::optional<std::int64_t> denomination;
    std::optional<std::string> game;
    // The promotional parts of `amount` (credit_types.h; "restricted" and "nonrestricted" in the
    // body when not 0, absent in journals from before them: all cashable), and of a settlement's
    // `wagered` ("wagered_restricted", "wagered_nonrestricted").
    PromoParts promo{};
    PromoParts wageredPromo{};
    // A legacy bonus (SAS LP 8A, reason legacy_bonus): its tax status ("tax_status"; required on
    // those, absent on every other credit).
    std::optional<TaxStatus> taxStatus{};
    friend bool operator==(const CreditRecord&, const CreditRecord&) = default;
};
// What JournalTransaction::credit adds to amount, balance and reason.
struct CreditDetail {
    std::optional<std::string> ref{};
    std::optional<std::int64_t> wagered{};  // settlement credits
    std::optional<std::int64_t> due{};
    std::optional<std::int64_t> shortfall{};
    std::optional<std::int64_t> denomination{};  // settlement and jackpot credits
    // The promotional parts of the amount when the writer decides them (a settlement's stakes
    // coming back, a transfer); else JournalTransaction::credit takes them by the rules of
    // credit_types.h (a bet's, a returned bet's), cashable for the rest.
    std::optional<PromoParts> promo{};
    std::optional<TaxStatus> taxStatus{};  // legacy bonus credits
};
[[nodiscard]] nlohmann::json toBody(const CreditRecord& record);
[[nodiscard]] CreditRecord fromBody(const nlohmann::json& body, std::type_identity<CreditRecord>);

// What a ticket printer printed besides the number and the amount (the SAS station's ticket
// setup, its validation's numbers); each absent when the ticket system has none.
struct TicketPrint {
    std::optional<std::string> printedAt{};  // "YYYY-MM-DD hh:mm:ss", the table clock's local time
    std::optional<std::string> location{};
    std::optional<std::string> address1{};
    std::optional<std::string> address2{};
    std::optional<std::int64_t> expiresDays{};
    std::optional<std::int64_t> systemId{};   // 0: secure enhanced validation (the station's own)
    std::optional<std::int64_t> machineId{};  // secure enhanced validation (LP 4C)
    std::optional<std::int64_t> sequence{};
    friend bool operator==(const TicketPrint&, const TicketPrint&) = default;
};
// The printed fields as they appear in ticket.issued's body and the "ticket" event.
[[nodiscard]] nlohmann::json ticketPrintJson(const TicketPrint& print);

// ticket.issued: a cash-out ticket.
struct TicketIssuedRecord {
    static constexpr std::string_view kKind = kind::kTicketIssued;
    std::string validation;  // absent in a body: "" (what LP 4D then reports as zeros)
    std::int64_t amount = 0;
    TicketPrint print;
    friend bool operator==(const TicketIssuedRecord&, const TicketIssuedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const TicketIssuedRecord& record);
[[nodiscard]] TicketIssuedRecord fromBody(const nlohmann::json& body, std::type_identity<TicketIssuedRecord>);

// ticket.redeemed: a ticket's credits taken in.
struct TicketRedeemedRecord {
    static constexpr std::string_view kKind = kind::kTicketRedeemed;
    std::string validation;
    std::int64_t amount = 0;
    bool host = false;  // redeemed with the SAS accounting host (not locally)
    friend bool operator==(const TicketRedeemedRecord&, const TicketRedeemedRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const TicketRedeemedRecord& record);
[[nodiscard]] TicketRedeemedRecord fromBody(const nlohmann::json& body, std::type_identity<TicketRedeemedRecord>);

// handpay.pending: a station locked for a hand-pay.
struct HandpayPendingRecord {
    static constexpr std::string_view kKind = kind::kHandpayPending;
    std::int64_t amount = 0;
    std::string kind;                // "cancelled_credit" (above the ticket limit), "jackpot", "bonus_jackpot" (AFT)
    std::optional<std::string> why;  // cancelled credit: why it was not a ticket
    // A jackpot whose win left the credit meter when it locked the station (a "jackpot" credit
    // in the same transaction, as SAS meters it: a hand-paid win is never machine-paid); the
    // reset then moves no credits. Journals before issue 17 took the win off at the reset.
    bool offCredits = false;
    friend bool operator==(const HandpayPendingRecord&, const HandpayPendingRecord&) = default;
};
[[nodiscard]] nlohmann::json toBody(const HandpayPendingRecord& record);
[[nodiscard]] HandpayPendingRecord fromBody(const nlohmann::json& body, std::type_identity<HandpayPendingRecord>);

// handpay.reset: an attendant paid it.
struct HandpayResetRecord {
    static constexpr std::string_view kKind = kind::kHandpayReset;
    std::int64_t amount = 0;  // paid
    std::string kind;
    std::string by;
    std::optional<std::int64_t> lockedAmount;  // when a re-settlement took credits back since the lock
};
[[nodiscard]] nlohmann::json toBody(const HandpayResetRecord& record);

// tip: a player's tip to the dealer.
struct TipRecord {
    static constexpr std::string_view kKind = kind::kTip;
    std::int64_t amount = 0;
};
[[nodiscard]] nlohmann::json toBody(const TipRecord& record);

}  // namespace pitlink::journal
