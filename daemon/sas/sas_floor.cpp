#include "daemon/sas/sas_floor.h"

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <utility>
#include <variant>

#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/sas_records.h"
#include "daemon/sas/exception_events.h"
#include "protocols/sas/crc16_kermit.h"

namespace pitlink::sas {

using nlohmann::json;

namespace {

constexpr auto kTickEvery = std::chrono::milliseconds(50);
constexpr std::int64_t kHandpayRepeatMs = 15'000;

}  // namespace

SasFloor::SasFloor(FloorSettings settings, MachineInfo machine, table::Table& table, journal::Journal& journal,
                   platform::Executor& timers, TableClock& clock, SasResume resume, boost::asio::io_context* io,
                   std::vector<LinkOutput*> outputs, std::function<std::unique_ptr<platform::Worker>()> newWorker)
    : settings_(std::move(settings)),
      table_(table),
      journal_(journal),
      timers_(timers),
      clock_(clock),
      games_{table.controller().severalGames() ? table.controller().games() : std::vector<std::string>{},
             std::map<std::int64_t, std::uint16_t>(resume.selectedGame.begin(), resume.selectedGame.end())},
      context_{table,
               journal,
               timers,
               clock,
               settings_,
               std::move(machine),
               [this](std::int64_t station, std::uint8_t code) { raise(station, code); },
               [this](std::int64_t station, const SasStationRecord& record, std::function<void(bool)> done) {
                   journal::JournalTransaction tx = journal_.begin();
                   std::visit([&](const auto& r) { tx.add(r, std::nullopt, station); }, record);
                   submitted(std::move(tx), std::move(done));
               },
               [this](std::uint16_t seed) { return romSignature(seed); },
               games_,
               [this](std::int64_t station, const AftStationRecord& record, std::function<void(bool)> done) {
                   journal::JournalTransaction tx = journal_.begin();
                   std::visit([&](const auto& r) { tx.add(r, std::nullopt, station); }, record);
                   submitted(std::move(tx), std::move(done));
               }},
      newWorker_(std::move(newWorker)) {
    for (std::size_t i = 0; i < settings_.links.size(); ++i) {
        const StationLinkSettings& link = settings_.links[i];
        const auto validation = resume.validation.find(link.station);
        auto port = std::make_unique<StationPort>(
            link, context_, validation == resume.validation.end() ? ValidationId{} : validation->second, io,
            i < outputs.size() ? outputs[i] : nullptr);
        port->exceptions().restore(resume.exceptions[link.station]);
        // The game the next 7E/7F is measured against: that of the last 8C raised, still queued
        // or acknowledged (LP 55 answers the acknowledged one until the station reports another).
        for (const SasException& e : resume.exceptions[link.station]) {
            if (const auto game = gameSelectedBy(e)) {
                games_.selected[link.station] = *game;
            }
        }
        if (const auto set = resume.validationIdSet.find(link.station); set != resume.validationIdSet.end()) {
            port->tickets().restoreValidationIdSet(set->second);
        }
        if (const auto setup = resume.ticketSetup.find(link.station); setup != resume.ticketSetup.end()) {
            port->tickets().restoreSetup(setup->second);
        }
        if (const auto last = resume.lastRedemption.find(link.station); last != resume.lastRedemption.end()) {
            const auto& queued = resume.exceptions[link.station];
            const bool unread = std::any_of(queued.begin(), queued.end(), [](const SasException& e) {
                return e.code == code::kTicketTransferComplete;
            });
            port->tickets().restoreRedemption(last->second.first, last->second.second, unread);
        }
        if (const auto acknowledged = resume.selectedGame.find(link.station);
            acknowledged != resume.selectedGame.end()) {
            port->restoreSelectedGame(acknowledged->second);
        }
        if (const auto numbers = resume.machineNumbers.find(link.station); numbers != resume.machineNumbers.end()) {
            port->restoreMachineNumbers(numbers->second);
        }
        if (const auto issued = resume.issued.find(link.station); issued != resume.issued.end()) {
            port->tickets().restoreRecords(issued->second, resume.unreadRecords[link.station]);
        }
        if (const auto aft = resume.aft.find(link.station); aft != resume.aft.end()) {
            port->aft().restore(aft->second);
        }
        if (const auto bonus = resume.legacyBonus.find(link.station); bonus != resume.legacyBonus.end()) {
            port->legacyBonus().restore(bonus->second);
        }
        port->exceptions().onAcknowledged([this, station = link.station](const SasException& e) {
            acknowledged_[station].push_back(SasException{e.code, {}, e.serial});
        });
        linked_.insert(link.station);
        ports_.push_back(std::move(port));
        // A station the host shut down (LP 01) stays down across a restart until an LP 02.
        if (const auto enabled = resume.hostEnabled.find(link.station);
            enabled != resume.hostEnabled.end() && !enabled->second) {
            table.setHostEnabled(link.station, false);
        }
    }
}

SasFloor::~SasFloor() {
    if (signer_) {
        signer_->stop();  // a signature being computed is posted to an executor that still runs it: alive_ says no
    }
    *alive_ = false;
    if (tickTimer_) {
        timers_.cancel(*tickTimer_);
    }
}

void SasFloor::start() {
    for (auto& port : ports_) {
        port->open();
    }
    running_ = true;
    std::vector<RaisedException> power;
    for (const std::int64_t station : linked_) {
        power.push_back(RaisedException{station, code::kPowerApplied, {}});
    }
    for (auto& port : ports_) {
        // Records the host had read without the read reaching the journal are unread again, and
        // their 3D is long acknowledged: one 3D more sends the host back to LP 4D.
        if (port->tickets().unreadRecords() > 0) {
            power.push_back(RaisedException{port->station(), code::kTicketPrinted, {}});
        }
    }
    submitRaises(power);
    for (auto& port : ports_) {
        if (settings_.aft.enabled) {
            port->aft().start();  // a transfer the power cut ends (9F); 69 while one is unacknowledged
        }
    }
    scheduleTick();
}

void SasFloor::stop() {
    running_ = false;
    if (tickTimer_) {
        timers_.cancel(*tickTimer_);
        tickTimer_.reset();
    }
    if (!journal_.failed()) {
        journal::JournalTransaction tx = journal_.begin();
        for (auto& port : ports_) {
            // The station's "power" goes with pitlinkd: 18 waits in the queue (journaled with
            // it) and the host reads it after the restart, before the 17 of the new start.
            port->exceptions().raise(code::kPowerLost);
            tx.add(queueRecordOf(port->exceptions().pending()), std::nullopt, port->station());
        }
        acknowledged_.clear();
        journal_.submit(std::move(tx));
    }
    for (auto& port : ports_) {
        port->close();
    }
}

StationPort* SasFloor::port(std::int64_t station) {
    for (auto& port : ports_) {
        if (port->station() == station) {
            return port.get();
        }
    }
    return nullptr;
}

std::vector<SasFloor::Raised> SasFloor::journalRaises(journal::JournalTransaction& tx,
                                                      const std::vector<RaisedException>& raises) {
    std::vector<Raised> out;
    for (const RaisedException& r : raises) {
        StationPort* p = port(r.station);
        if (p == nullptr) {
            continue;
        }
        const SasException e{r.code, r.eventData, p->exceptions().takeSerial()};
        tx.add(exceptionRecordOf(e), std::nullopt, r.station);
        out.push_back(Raised{r.station, r.code, r.eventData, e.serial});
    }
    return out;
}

std::function<void()> SasFloor::raiseWhenCommitted(std::vector<Raised> raised) {
    if (raised.empty()) {
        return {};
    }
    ++raisesInFlight_;
    return [this, alive = alive_, raised = std::move(raised)] {
        if (!*alive) {
            return;
        }
        --raisesInFlight_;
        for (const Raised& r : raised) {
            if (StationPort* p = port(r.station)) {
                p->exceptions().raise(r.code, r.data, r.serial);
                if (r.code == code::kHandpayPending) {
                    p->handpayAnnounced();
                    handpayRaisedAt_[r.station] = timers_.nowMs();
                }
                if (r.code == code::kLegacyBonusAwarded) {
                    p->legacyBonus().awarded(r.data, r.serial);  // LP 90 reports it from now on
                }
            }
        }
    };
}

void SasFloor::journalFailed() {
    if (journalTiltRaised_) {
        return;  // every failed commit says so again; the journal does not come back without a restart
    }
    journalTiltRaised_ = true;
    for (const auto& p : ports_) {
        p->exceptions().raise(code::kGeneralTilt);
    }
}

void SasFloor::submitted(journal::JournalTransaction tx, std::function<void(bool)> done) {
    if (!done) {
        journal_.submit(std::move(tx));
        return;
    }
    journal_.submit(std::move(tx), [done = std::move(done)](const journal::CommitResult& result) { done(result.ok); });
}

void SasFloor::raise(std::int64_t station, std::uint8_t c, std::vector<std::uint8_t> eventData) {
    submitRaises({RaisedException{station, c, std::move(eventData)}});
}

void SasFloor::submitRaises(const std::vector<RaisedException>& raises) {
    journal::JournalTransaction tx = journal_.begin();
    auto raised = journalRaises(tx, raises);
    journal_.submit(std::move(tx), [done = raiseWhenCommitted(std::move(raised))](const journal::CommitResult& r) {
        if (r.ok && done) {
            done();
        }
    });
}

std::function<void()> SasFloor::submitting(journal::JournalTransaction& tx) {
    const std::vector<RaisedException> raises =
        exceptionsOf(tx.facts(), journal_.projected(), table_.denomination(), linked_, games_);
    std::vector<std::pair<std::int64_t, journal::TicketIssuedRecord>> issued;  // by station
    for (const journal::Fact& f : tx.facts()) {
        if (!f.station || !linked_.contains(*f.station)) {
            continue;
        }
        if (auto ticket = journal::recordOf<journal::TicketIssuedRecord>(f)) {
            issued.emplace_back(*f.station, std::move(*ticket));
        }
    }
    std::function<void()> raise = raiseWhenCommitted(journalRaises(tx, raises));
    if (issued.empty()) {
        return raise;
    }
    return [this, alive = alive_, raise = std::move(raise), issued = std::move(issued)] {
        if (raise) {
            raise();
        }
        if (!*alive) {
            return;
        }
        for (const auto& [station, ticket] : issued) {
            if (StationPort* p = port(station)) {
                p->tickets().ticketIssued(ticket);
            }
        }
    };
}

void SasFloor::flushAcknowledged() {
    if (acknowledged_.empty() || journal_.failed()) {
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    for (auto& [station, acked] : acknowledged_) {
        if (raisesInFlight_ == 0) {
            // Nothing raised is waiting to commit: the queue as it stands is the whole truth.
            tx.add(queueRecordOf(port(station)->exceptions().pending()), std::nullopt, station);
        } else {
            journal::SasAckedRecord record;
            for (const SasException& e : acked) {
                record.acked.push_back(exceptionRecordOf(e));
            }
            tx.add(record, std::nullopt, station);
        }
    }
    acknowledged_.clear();
    journal_.submit(std::move(tx));
}

void SasFloor::scheduleTick() {
    tickTimer_ = timers_.after(kTickEvery, [this] {
        tickTimer_.reset();
        tick();
        if (running_) {
            scheduleTick();
        }
    });
}

void SasFloor::tick() {
    const std::int64_t now = timers_.nowMs();
    for (auto& port : ports_) {
        port->tick();
        const std::int64_t station = port->station();
        // 51 again every 15 s until the host has read the hand-pay with LP 1B.
        if (table_.wallet(station).handpay && !port->handpayRead()) {
            auto [it, fresh] = handpayRaisedAt_.try_emplace(station, now);
            if (!fresh && now - it->second >= kHandpayRepeatMs) {
                it->second = now;
                raise(station, code::kHandpayPending);
            }
        } else {
            handpayRaisedAt_.erase(station);
        }
    }
    flushAcknowledged();
}

// LP 21 over the installed program: computed on a worker (a few MB), answered from the cache
// when the host asks again.
std::optional<std::uint16_t> SasFloor::romSignature(std::uint16_t seed) {
    if (const auto it = signatures_.find(seed); it != signatures_.end()) {
        return it->second;
    }
    if (signing_ || !newWorker_) {
        return std::nullopt;  // busy, or given no worker (a test without the program's file)
    }
    if (!signer_) {
        signer_ = newWorker_();
    }
    signing_ = seed;
    signer_->run([this, alive = alive_, seed, path = settings_.program] {
        std::ifstream in(path, std::ios::binary);
        const std::vector<std::uint8_t> program{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        const std::uint16_t signature = crc16Kermit(program, seed);
        timers_.post([this, alive, seed, signature] {
            if (*alive) {
                signatures_[seed] = signature;
                signing_.reset();
            }
        });
    });
    return std::nullopt;
}

// --- table::TicketSystem ---

void SasFloor::validateCashout(std::int64_t station, game::Money amount,
                               std::function<void(std::optional<table::ValidatedTicket>)> done) {
    StationPort* p = port(station);
    if (p == nullptr) {
        done(std::nullopt);  // a station without a SAS link cannot have its ticket validated: hand-pay
        return;
    }
    p->tickets().validateCashout(amount, std::move(done));
}

void SasFloor::redeemTicket(std::int64_t station, const std::string& validation,
                            std::function<table::RedeemCheck(const table::RedeemVerdict&)> verdict) {
    StationPort* p = port(station);
    if (p == nullptr) {
        verdict(table::RedeemVerdict{false, 0, "station " + std::to_string(station) + " has no SAS link"});
        return;
    }
    p->tickets().redeemTicket(validation, std::move(verdict));
}

void SasFloor::redemptionCommitted(std::int64_t station, bool committed) {
    if (StationPort* p = port(station)) {
        p->tickets().redemptionCommitted(committed);
    }
}

bool SasFloor::offerHostCashout(std::int64_t station, game::Money amount,
                                const std::function<void(std::optional<game::Money>)>& done) {
    StationPort* p = port(station);
    return p != nullptr && p->aft().offerHostCashout(amount, done);
}

json SasFloor::statusJson() const {
    json links = json::array();
    for (const auto& port : ports_) {
        links.push_back(port->statusJson());
    }
    return json{{"links", links}, {"clock_offset_ms", clock_.offsetMs()}};
}

}  // namespace pitlink::sas
