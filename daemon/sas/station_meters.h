#pragma once
// Where every credit movement of a station lands among the SAS meters a host reads, so that for
// every station at every moment (protocols/sas/README.md "Meters"):
//
//   current credits = ticket in + coin out + keyed on + legacy bonus
//                     -  (coin in + cancelled credits + keyed off)   (and the AFT terms there)
//
// each side a sum of meters the host can read (000C = 000D + 0001 + 00FA + LP 9A's three - 0000
// - 0004 - 00FD).
// Computed from the journal's committed account of the station, in minor units (or counts).
#include <cstdint>
#include <optional>

#include "daemon/journal/ledger/ledger.h"

namespace pitlink::sas {

struct StationSasMeters {
    game::Money coinIn = 0;             // 0000: stakes of settled rounds
    game::Money coinOut = 0;            // 0001: paid back to the credit meter by settled rounds (not jackpots)
    game::Money jackpot = 0;            // 0002: wins at the jackpot limit, hand-paid (never on the credit meter)
    game::Money handpaid = 0;           // 0003: cancelled credits paid by hand
    game::Money cancelled = 0;          // 0004: cancelled credits: tickets out + hand-paid
    game::Money ticketIn = 0;           // 000D (cents)
    game::Money ticketOut = 0;          // 000E (cents)
    game::Money keyedOn = 0;            // 00FA: credits a re-settlement added
    game::Money keyedOff = 0;           // 00FD: tips, and credits a re-settlement took back
    game::Money current = 0;            // 000C: the credits, with the stakes of a round not yet settled
    game::Money currentRestricted = 0;  // 001B: restricted credits, with restricted stakes not yet settled
    game::Money wonCredits = 0;         // 0022: every win paid, by the machine or by hand (coin out + jackpot)
    game::Money handpaidAll = 0;        // 0023: everything paid by hand (0003 + 0002 + 0021)
    // Legacy bonuses (LP 8A) credited: LP 9A's deductible + non-deductible + wager match.
    game::Money legacyBonus = 0;
    // 001E, total machine paid external bonus win: every bonus the station paid to its credit
    // meter, legacy and AFT (00AE + 00B0, less the bonus jackpots hand-paid), as Monaco counts it.
    game::Money machinePaidBonus = 0;
    // 0021, total attendant paid external bonus win: AFT bonus jackpots (LP 72 type 11) at or
    // above the jackpot limit, paid by hand. They are in 00AE/00B0 (the host's AFT sums) and
    // leave the credit meter in the same transaction: a term of the identity of their own.
    game::Money attendantPaidBonus = 0;
};

[[nodiscard]] StationSasMeters stationSasMeters(const journal::StationAccount& account);

}  // namespace pitlink::sas
