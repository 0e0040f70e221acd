#pragma once
// Every player station's SAS link, on the logic thread (docs/design.md "Data flow": "one EGM link per
// station, answers from memory"). The floor
// - raises exceptions only once they are journaled: with the table's own transaction when a
//   table fact causes them (CommitObserver), else in a transaction of their own;
// - journals what the host acknowledged, in batches (sas.acked, or the whole queue, sas.queue,
//   when no raise is in flight), so that a restart reports exactly what was not acknowledged;
// - numbers and redeems tickets for the table (TicketSystem) through each station's
//   StationTickets;
// - keeps the links' timers (loop break, chirps) and repeats 51 every 15 s until LP 1B is read.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "daemon/config/sas_settings.h"
#include "daemon/journal/journal.h"
#include "daemon/platform/worker.h"
#include "daemon/sas/exception_events.h"
#include "daemon/sas/sas_resume.h"
#include "daemon/sas/station_port.h"
#include "daemon/sas/table_clock.h"
#include "daemon/table/table.h"

namespace pitlink::sas {

class SasFloor final : public table::TicketSystem, public table::CommitObserver {
public:
    // `io`: the ports' transports run on it (null in tests that give `outputs`, one per link).
    SasFloor(FloorSettings settings, MachineInfo machine, table::Table& table, journal::Journal& journal,
             platform::Executor& timers, TableClock& clock, SasResume resume, boost::asio::io_context* io,
             std::vector<LinkOutput*> outputs = {}, std::function<std::unique_ptr<platform::Worker>()> newWorker = {});
    ~SasFloor() override;
    SasFloor(const SasFloor&) = delete;
    SasFloor& operator=(const SasFloor&) = delete;

    // Opens every port (std::system_error names the one that failed), raises 17 (power applied)
    // at every station and starts the timers.
    void start();
    // Journals every queue as it stands and closes the ports.
    void stop();

    [[nodiscard]] StationPort* port(std::int64_t station);
    [[nodiscard]] nlohmann::json statusJson() const;
    // Journaled, then raised at the station.
    void raise(std::int64_t station, std::uint8_t code, std::vector<std::uint8_t> eventData = {});
    // The journal cannot commit: every station reports general tilt (20) at once, the one raise
    // not journaled first (the journal cannot take it; it is not replayed after a restart).
    void journalFailed();
    void tick();  // the timers' work (tests call it with a manual clock)

    // table::TicketSystem
    void validateCashout(std::int64_t station, game::Money amount,
                         std::function<void(std::optional<table::ValidatedTicket>)> done) override;
    void redeemTicket(std::int64_t station, const std::string& validation,
                      std::function<table::RedeemCheck(const table::RedeemVerdict&)> verdict) override;
    void redemptionCommitted(std::int64_t station, bool committed) override;
    bool offerHostCashout(std::int64_t station, game::Money amount,
                          const std::function<void(std::optional<game::Money>)>& done) override;
    // table::CommitObserver
    std::function<void()> submitting(journal::JournalTransaction& tx) override;

private:
    struct Raised {
        std::int64_t station;
        std::uint8_t code;
        std::vector<std::uint8_t> data;
        std::uint64_t serial;
    };
    // Adds the sas.exception facts to `tx`; returns what to raise once it has committed.
    std::vector<Raised> journalRaises(journal::JournalTransaction& tx, const std::vector<RaisedException>& raises);
    std::function<void()> raiseWhenCommitted(std::vector<Raised> raised);
    // A transaction of its own holding `raises`, raised once it has committed.
    void submitRaises(const std::vector<RaisedException>& raises);
    // A station's own transaction; `done(committed)` once it has committed or failed, if not empty.
    void submitted(journal::JournalTransaction tx, std::function<void(bool)> done);
    void flushAcknowledged();
    void scheduleTick();
    std::optional<std::uint16_t> romSignature(std::uint16_t seed);

    FloorSettings settings_;
    table::Table& table_;
    journal::Journal& journal_;
    platform::Executor& timers_;
    TableClock& clock_;
    GameSelection games_;  // before context_, which holds a reference to it
    PortContext context_;
    std::vector<std::unique_ptr<StationPort>> ports_;
    std::set<std::int64_t> linked_;
    std::map<std::int64_t, std::vector<SasException>> acknowledged_;  // not yet journaled
    int raisesInFlight_ = 0;
    std::optional<platform::Executor::TimerId> tickTimer_;
    std::map<std::int64_t, std::int64_t> handpayRaisedAt_;          // station -> steady ms of the last 51
    std::map<std::uint16_t, std::uint16_t> signatures_;             // LP 21, by seed
    std::optional<std::uint16_t> signing_;                          // the seed being computed
    std::function<std::unique_ptr<platform::Worker>()> newWorker_;  // the daemon's world's; none: no LP 21
    std::unique_ptr<platform::Worker> signer_;                      // LP 21's CRC, made at the first one
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    bool running_ = false;
    bool journalTiltRaised_ = false;
};

}  // namespace pitlink::sas
