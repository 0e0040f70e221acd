#pragma once
// One station's legacy bonusing over SAS (LP 8A, 90, 9A and exception 7C; protocols/sas/README.md
// "Legacy bonusing", docs/sas.md "Legacy bonusing"):
// - LP 8A is decided and answered at once, ACK or busy, as LP 94 is (docs/design.md "Persistence
//   before acknowledgement"): the table takes the award on the state with everything in flight and
//   submits its transaction (a cashable credit, reason legacy_bonus, with its tax status), or
//   journals its refusal. SAS's answer window (20 ms) is shorter than a commit, and an 8A has no
//   transaction ID by which a repeat could be told from a second award, so its answer cannot wait
//   for the disk: the ACK says "taken"; 7C, raised by the award's transaction once it has
//   committed, says "paid", and LP 90 then reports it;
// - LP 90 reports the bonus of the last 7C raised until the host acknowledges an answer that
//   reported it (journaled, sas.legacy_bonus_read with that 7C's serial), then zeros;
// - LP 9A reads the legacy bonus meters of the journal's committed ledger.
// Runs on the logic thread; answers from memory.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "daemon/journal/journal.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/table/table.h"
#include "protocols/sas/legacy_bonus_polls.h"

namespace pitlink::sas {

// The same three codes on both sides (SAS LP 8A's 00, 01, 02).
[[nodiscard]] journal::TaxStatus journalTaxStatus(legacy::TaxStatus status);
[[nodiscard]] legacy::TaxStatus sasTaxStatus(journal::TaxStatus status);

class StationLegacyBonus final : public legacy::LegacyBonusHost {
public:
    // A sas.legacy_bonus_read in a transaction of its own.
    using JournalRead = std::function<void(const journal::SasLegacyBonusReadRecord& record)>;

    StationLegacyBonus(std::int64_t station, table::Table& table, const journal::Journal& journal,
                       JournalRead journalRead);

    // At start: the 7C whose bonus the host had not read with LP 90 (sas_resume).
    void restore(const journal::SasExceptionRecord& awarded);
    // A 7C was raised at the station (its award's transaction committed): LP 90 reports it.
    void awarded(const std::vector<std::uint8_t>& eventData, std::uint64_t serial);

    // LegacyBonusHost
    legacy::AwardAnswer award(const legacy::Award& award) override;
    legacy::BonusWin lastBonus() override;
    void lastBonusAcknowledged() override;
    [[nodiscard]] legacy::BonusMeters meters(std::uint16_t game) const override;

private:
    struct Unread {
        legacy::BonusWin win;
        std::uint64_t serial = 0;  // its 7C's (journaled with the read)
        std::uint64_t number = 0;  // which award of this run: serials may repeat across restarts
    };

    std::int64_t station_;
    table::Table& table_;
    const journal::Journal& journal_;
    JournalRead journalRead_;
    std::optional<Unread> unread_;
    std::optional<std::uint64_t> reported_;  // the number of the unread bonus the last LP 90 reported
    std::uint64_t awards_ = 0;
};

}  // namespace pitlink::sas
