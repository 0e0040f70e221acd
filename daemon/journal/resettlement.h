#pragma once
// Re-settlement of a round with corrected cards (docs/rules.md; seed 004: "settlements will be
// re-settled based on current video result"). The original settlement stays on the record; a
// round.resettled record with the corrected cards, reason and operator, one bet.adjusted per bet
// with the difference from the result in force, and one credit per station moving the
// difference are added. A round can be re-settled again: each step compares with the last.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "daemon/game/card.h"
#include "daemon/game/paytable.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/read/round_history.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/settlement_records.h"

namespace pitlink::journal {

struct ResettlementRequest {
    std::int64_t roundId = 0;
    std::vector<game::Card> cards;  // the corrected coup, in deal order
    std::string reason;
    std::string operatorName;  // Unix user from the control socket
};

// A bet.adjusted and the station whose stake it settles.
struct AdjustedStake {
    std::int64_t station = 0;
    BetAdjustedRecord adjusted;
};

// What addResettlement added, in the transaction's order (the reply to the operator shows it).
struct Resettlement {
    RoundResettledRecord round;
    std::vector<AdjustedStake> stakes;
    std::map<std::int64_t, CreditRecord> credits;  // by station: those whose credits moved
};

// Throws std::invalid_argument when the round is not settled, the cards are not a complete legal
// coup, or reason or operator is missing. A station whose credits no longer cover what it owes
// gives what it has: the credit record says what was due and the shortfall.
Resettlement addResettlement(JournalTransaction& tx, const RoundHistory& round, const game::Paytable& paytable,
                             const ResettlementRequest& request);

}  // namespace pitlink::journal
