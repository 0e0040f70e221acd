#pragma once
// One station's cashless transfers over SAS AFT (protocols/sas/README.md "AFT", docs/sas.md
// "AFT"): LP 73 registration (journaled, resumed), LP 74 lock and status, LP 72 transfers in
// house to the station, to the host and bonus awards, exactly once:
// - a new request is journaled before anything is answered: a refusal as its final record, a
//   transfer as pending (40); until that record is durable the request is not answered (the
//   host repeats it, and the repeat, known by its transaction ID, gets its status);
// - a pending transfer is then checked again and ends in the table's transaction that moves
//   its credits (Table::aftTransfer), which raises 69; 69 repeats every 15 s until the host
//   interrogates it (72 FF) and polls on (the implied ACK, journaled as aft.acknowledged); a
//   successful one then goes to the 127-entry history;
// - a transfer still pending at a restart ends as 9F with no credit moved (the resume);
// - an LP 73 change of the registration is journaled and answered once durable (the host
//   repeats it until then; the repeat gets the state it made, where SAS's state machine would take
//   a repeated 01 as out of turn and cancel); a read answers the durable registration;
// - restricted credits brought in expire at the end of their expiry date, station local time
//   (protocols/sas/aft_expiration.h): resolved when the transfer ends (its aft.transfer's
//   `expires`), the later date kept while restricted credits are held, checked at start, every
//   60 s and after the clock moved (LP 7F), journaled as a restricted_expired credit.
// Runs on the logic thread; answers from memory.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "daemon/config/sas_settings.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/records/aft_records.h"
#include "daemon/platform/executor.h"
#include "daemon/sas/table_clock.h"
#include "daemon/table/table.h"
#include "protocols/sas/aft_expiration.h"
#include "protocols/sas/aft_rules.h"

namespace pitlink::sas {

using AftStationRecord =
    std::variant<journal::AftRegistrationRecord, journal::AftTransferRecord, journal::AftAcknowledgedRecord>;

// What a station resumes of its AFT state (daemon/sas/sas_resume.cpp).
using AftResume = journal::AftState;

// A transfer request as its journal record (status pending), and back.
[[nodiscard]] journal::AftTransferRecord transferRecordOf(const aft::TransferRequest& request);
[[nodiscard]] aft::TransferRequest requestOf(const journal::AftTransferRecord& record);

class StationAft final : public aft::AftHost {
public:
    using Raise = std::function<void(std::uint8_t code)>;
    using JournalRecord = std::function<void(const AftStationRecord& record, std::function<void(bool committed)>)>;
    using AssetNumber = std::function<std::uint32_t()>;
    // LP 7B's restricted expiration days of the station (its ticket setup): a request's 0.
    using RestrictedDays = std::function<std::uint16_t()>;

    StationAft(std::int64_t station, const AftSettings& settings, table::Table& table, const journal::Journal& journal,
               platform::Executor& timers, const TableClock& clock, Raise raise, JournalRecord journalRecord,
               AssetNumber asset, RestrictedDays restrictedDays);
    ~StationAft() override;
    StationAft(const StationAft&) = delete;
    StationAft& operator=(const StationAft&) = delete;

    // At start, the state the journal left (registration, current transfer, history)...
    void restore(const AftResume& resume);
    // ...and once the floor runs: a transfer the journal leaves pending ended with the power (9F,
    // nothing moved, journaled); 69 is raised while the current transfer is unacknowledged.
    void start();
    // Every tick: a pending lock taken when the station is idle, a lock released by a tilt; the
    // restricted credits' expiry checked when the clock was moved (LP 7F) since the last check;
    // a cash-out offered to the host ended (`done` with nullopt) once nothing is left to take.
    void tick();
    // Restricted credits past their expiry date (the station's local date after it) and not staked
    // are journaled gone (Table::expireRestricted), unless a transfer of the station is in flight
    // or a hand-pay or cash-out is pending (then at the next check); once the station holds none,
    // staked or not, their pool and date are cleared. Run by start(), every 60 s and by tick().
    void checkExpiry();
    // Host cash-out (table::TicketSystem::offerHostCashout): false unless the host asked for it
    // (LP 72 flags 01 + 02); else 6A until a transfer to the host takes the credits (`done` with
    // what it took) or, in soft mode, the wait ends (`done` with nullopt). Hard mode waits, unless
    // a re-settlement leaves nothing to take (tick()).
    bool offerHostCashout(game::Money amount, std::function<void(std::optional<game::Money>)> done);

    // AftHost
    aft::TransferReply transfer(const aft::TransferRequest& request) override;
    aft::TransferReply interrogate(const aft::TransferQuery& query) override;
    void interrogationAcknowledged() override;
    std::optional<aft::RegistrationAnswer> registration(const aft::RegistrationRequest& request) override;
    aft::LockAnswer lock(const aft::LockRequest& request) override;

    [[nodiscard]] const aft::Registration& registrationState() const { return registration_; }
    // For `pitlinkctl status`: registration, lock, the current transfer, the history's size.
    [[nodiscard]] nlohmann::json statusJson() const;
    [[nodiscard]] std::uint8_t lockStatus() const { return lockStatus_; }

private:
    struct Current {
        journal::AftTransferRecord record;
        bool durable = false;       // its last record is committed: its status may be answered
        bool acknowledged = false;  // by the host (a refusal found at once needs none)
        std::uint8_t position = 0;  // its history position once acknowledged
    };
    [[nodiscard]] aft::TransferContext context() const;
    [[nodiscard]] aft::RegistrationAnswer registrationAnswer() const;
    [[nodiscard]] aft::Amounts available() const;
    [[nodiscard]] std::uint8_t availableTransfers() const;
    [[nodiscard]] std::uint8_t aftStatus() const;
    [[nodiscard]] aft::TransferAnswer answerOf(const journal::AftTransferRecord& record, std::uint8_t position) const;
    [[nodiscard]] std::string nowText() const;
    [[nodiscard]] aft::Date today() const;
    [[nodiscard]] aft::Expiry expiryOf(std::uint32_t expiration) const;
    // Restricted credits of the station, held and staked (the state with everything in flight).
    [[nodiscard]] game::Money restrictedHeld() const;
    [[nodiscard]] bool transferInFlight() const;
    // The `expires` the end of a transfer in that moves restricted credits carries: its own
    // expiration resolved today, or the later date of the restricted credits already held.
    [[nodiscard]] std::optional<std::string> expiresAfter(const aft::TransferRequest& request) const;
    void scheduleExpiryCheck();
    void begin(const aft::TransferRequest& request);
    void execute();
    void ended(const journal::AftTransferRecord& final);
    void repeatComplete();
    void tryLock();
    void repeatLocked();
    void releaseLock();
    void repeatHostCashout();
    void endHostCashout(std::optional<game::Money> taken);

    std::int64_t station_;
    const AftSettings& settings_;
    table::Table& table_;
    const journal::Journal& journal_;
    platform::Executor& timers_;
    const TableClock& clock_;
    Raise raise_;
    JournalRecord journalRecord_;
    AssetNumber asset_;
    RestrictedDays restrictedDays_;
    aft::Registration registration_;  // durable: what LP 73, 74 and 72 answer and check
    // An LP 73 change journaled and not durable yet (no LP 73 change is answered meanwhile)...
    std::optional<aft::RegistrationRequest> registering_;
    // ...and, once durable, the change whose repeat is answered with the state it made (until
    // another change request).
    std::optional<aft::RegistrationRequest> registered_;
    std::optional<Current> current_;
    aft::TransferHistory history_;
    std::optional<std::string> lastHistoryId_;
    // The restricted credits held: their pool and the last local date they may be played on
    // (nullopt: never); none while the station holds no restricted credits.
    struct Restricted {
        std::uint16_t pool = 0;
        std::optional<aft::Date> expires;
    };
    std::optional<Restricted> restricted_;
    platform::Executor::TimerId expiryCheck_ = 0;     // every 60 s
    std::int64_t checkedOffset_ = 0;                  // the clock's offset at the last expiry check
    platform::Executor::TimerId completeRepeat_ = 0;  // 69 every 15 s until acknowledged
    std::uint8_t lockStatus_;
    platform::Executor::TimerId lockTimeout_ = 0;
    platform::Executor::TimerId lockedRepeat_ = 0;                     // 6F every 5 s while locked
    std::uint8_t hostCashout_ = 0;                                     // LP 72 flags 02 (enabled) and 04 (hard)
    std::function<void(std::optional<game::Money>)> hostCashoutDone_;  // a cash-out offered to the host
    platform::Executor::TimerId hostCashoutRepeat_ = 0;                // 6A every 800 ms until taken
    platform::Executor::TimerId hostCashoutWait_ = 0;                  // soft mode's wait
};

}  // namespace pitlink::sas
