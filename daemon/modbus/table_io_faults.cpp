// The module's health: failures and back-off, the link up or down, stuck outputs and the tilt of a
// module that stays away.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "daemon/journal/records/modbus_records.h"
#include "daemon/modbus/table_io.h"

namespace pitlink::modbus {

namespace {

constexpr std::size_t kOutageErrorsKept = 5;

// What the log says of a fault raised (the journal has it all).
std::string faultDetail(const journal::ModbusFaultRecord::Detail& detail) {
    if (const auto& stuck = detail.stuck) {
        return fmt::format("{} {} written {}, holds {}", stuck->kind, stuck->address, stuck->holds ? "off" : "on",
                           stuck->holds ? "on" : "off");
    }
    return fmt::format("held {} ms (at most {} ms)", detail.heldMs.value_or(0), detail.maxHoldMs.value_or(0));
}

}  // namespace

void TableIo::onFailure(std::size_t index, const CycleResult& result, std::int64_t now) {
    Module& m = modules_[index];
    ++m.counters.failures;
    m.writtenValid = false;
    m.watchdogArmed = false;
    m.lastError = result.error;
    m.nextAttempt = now + m.backoff.failed().count();
    ++m.outageFailures;
    if (m.outageErrors.size() < kOutageErrorsKept) {
        m.outageErrors.insert(result.error);
    }
    if (m.up || !m.reported) {
        m.up = false;
        m.downSince = now;
        linkChanged(index, false, result.error);
    }
    checkOfflineTilt(index, now);
}

void TableIo::checkReadBack(std::size_t index, const OutputImage& held) {
    Module& m = modules_[index];
    std::set<std::string> stuck;
    for (const Mismatch& mismatch : mismatches(m.points.map, m.written, held)) {
        const OutputPoint& o = m.points.map.outputs[mismatch.output];
        stuck.insert(o.name);
        if (!faults_.contains(o.name)) {
            const journal::ModbusFaultRecord::Stuck what{mismatch.holds, o.address,
                                                         o.kind == OutputKind::Coil ? "coil" : "holding_register_bit"};
            fault(index, o.name, "stuck_output", true, {what, std::nullopt, std::nullopt});
        }
        m.writtenValid = false;  // written again, all of it, and read back, at the next cycle
    }
    for (const OutputPoint& o : m.points.map.outputs) {
        if (!stuck.contains(o.name) && faults_.contains(o.name) && faults_.at(o.name) == "stuck_output") {
            fault(index, o.name, "stuck_output", false);
        }
    }
}

void TableIo::fault(std::size_t index, const std::string& point, const std::string& fault, bool active,
                    journal::ModbusFaultRecord::Detail detail) {
    if (active) {
        faults_[point] = fault;
        spdlog::warn("modbus: fault {} on {}: {}", fault, point, faultDetail(detail));
    } else {
        faults_.erase(point);
        spdlog::info("modbus: fault {} on {} cleared", fault, point);
    }
    if (journal_.failed()) {
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::ModbusFaultRecord{point, fault, active, settings_.modules[index].name,
                                      describe(settings_.modules[index].connection), std::move(detail)});
    journal_.submit(std::move(tx));
}

void TableIo::linkChanged(std::size_t index, bool up, const std::string& error) {
    Module& m = modules_[index];
    const bool ended = m.reported.has_value();  // an up that ends an outage (not the first connect)
    m.reported = up;
    const std::int64_t downMs = now_() - m.downSince;
    if (up) {
        spdlog::info("modbus: {} answering; lamps written and read back", where(index));
    } else {
        spdlog::warn("modbus: {} not answering ({}); its lamps and inputs wait, reconnecting", where(index), error);
    }
    if (journal_.failed()) {
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    journal::ModbusLinkRecord record{up, settings_.modules[index].name, describe(settings_.modules[index].connection),
                                     std::nullopt, std::nullopt};
    if (!up) {
        record.error = error;  // the outage's cause
    } else if (ended) {
        record.ended = journal::ModbusLinkRecord::Outage{downMs, m.outageFailures, m.outageErrors};
    }
    tx.add(record);
    journal_.submit(std::move(tx));
}

void TableIo::checkOfflineTilt(std::size_t index, std::int64_t now) {
    Module& m = modules_[index];
    if (m.up || m.tiltRaised || settings_.offlineTilt.count() == 0 ||
        now - m.downSince < settings_.offlineTilt.count()) {
        return;
    }
    m.tiltRaised = true;
    for (const std::size_t game : m.games) {
        games_[game]->raiseTilt(tiltCause(index),
                                "the table's I/O module " + where(index) + " does not answer: " + m.lastError);
    }
}

}  // namespace pitlink::modbus
