// The lamps: what each shows now, and a technician's lamp test.
#include <spdlog/spdlog.h>

#include "daemon/journal/records/modbus_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/modbus/table_io.h"

namespace pitlink::modbus {

std::vector<LampState> TableIo::lampStates() const {
    const TableConditions active = conditionsOf(table_);
    std::vector<LampState> states;
    states.reserve(settings_.lamps.size());
    for (const LampRule& rule : settings_.lamps) {
        states.push_back(lampStateFor(rule, settings_.priority, active));
    }
    return states;
}

std::vector<bool> TableIo::litNow(std::int64_t now) const {
    const std::size_t n = settings_.points.outputs.size();
    std::vector<bool> lit(n, false);
    if (!ready_) {
        for (std::size_t i = 0; i < n && i < settings_.safeLit.size(); ++i) {
            lit[i] = settings_.safeLit[i];
        }
        return lit;
    }
    if (lampTest_) {
        const auto step = static_cast<std::size_t>((now - lampTest_->start) / lampTest_->step);
        if (step < n) {
            lit[step] = true;
        }
        return lit;
    }
    const std::vector<LampState> states = lampStates();
    for (std::size_t i = 0; i < n && i < states.size(); ++i) {
        lit[i] = lampLit(states[i], now, settings_.flash);
    }
    return lit;
}

void TableIo::lampTest(std::chrono::milliseconds step, const std::string& by, const table::Respond& respond) {
    journal::ModbusLampTestRecord record{by, step.count(), {}, up(), false, std::nullopt};
    for (const OutputPoint& o : settings_.points.outputs) {
        record.lamps.push_back(o.name);
    }
    const std::vector<std::string>& lamps = record.lamps;
    table::Reply reply = table::Reply::accepted();
    if (table_.phase() != table::RoundPhase::Idle) {
        reply = table::Reply::refused("round_in_progress", "a lamp test runs between rounds (players read the lamps)");
    } else if (lamps.empty()) {
        reply = table::Reply::refused("no_lamps", "pitlink.yaml names no lamps");
    } else if (lampTest_) {
        reply = table::Reply::refused("already_testing", "a lamp test is under way");
    }
    if (journal_.failed()) {
        respond(table::Reply::refused("journal_failed", "the journal cannot record the lamp test"));
        return;
    }
    record.started = reply.ok;
    if (!reply.ok) {
        record.error = reply.error;
    } else {
        lampTest_ = LampTest{now_(), step.count()};
        spdlog::info("modbus: lamp test by {}: {} lamps, {} ms each", by, lamps.size(), step.count());
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record);
    journal_.submit(std::move(tx), [this, alive = alive_, respond, reply](const journal::CommitResult& result) {
        if (!result.ok && reply.ok && *alive) {
            lampTest_.reset();  // not recorded: not done
        }
        respond(result.ok ? reply : table::Reply::refused("journal_failed", result.error));
    });
}

}  // namespace pitlink::modbus
