#include "daemon/modbus/table_io.h"

#include <spdlog/spdlog.h>

#include "daemon/journal/record_kinds.h"

namespace pitlink::modbus {

namespace {

constexpr const char* kTiltCause = "modbus";

TableCondition phaseCondition(table::RoundPhase phase) {
    switch (phase) {
        case table::RoundPhase::BetsOpen:
            return TableCondition::BetsOpen;
        case table::RoundPhase::LastBets:
            return TableCondition::LastBets;
        case table::RoundPhase::Closed:
            return TableCondition::NoMoreBets;
        case table::RoundPhase::Dealing:
            return TableCondition::Dealing;
        case table::RoundPhase::Idle:
            return TableCondition::Idle;
    }
    return TableCondition::Idle;
}

bool& flag(TableConditions& c, TableCondition which) {
    return c.at(static_cast<std::size_t>(which));
}

}  // namespace

TableConditions conditionsOf(const table::Table& table) {
    TableConditions c{};
    flag(c, TableCondition::Tilt) = table.tilted();
    flag(c, TableCondition::DoorOpen) = table.doorOpen();
    for (std::int64_t n = 1; n <= table.stationCount(); ++n) {
        const table::Station& s = table.station(n);
        flag(c, TableCondition::Handpay) = flag(c, TableCondition::Handpay) || s.handpay.has_value();
        flag(c, TableCondition::CallAttendant) = flag(c, TableCondition::CallAttendant) || s.attendantCalled;
    }
    flag(c, phaseCondition(table.phase())) = true;
    return c;
}

TableIo::TableIo(const TableIoSettings& settings, table::Table& table, journal::Journal& journal,
                 platform::Executor& timers, Submit submit)
    : settings_(settings),
      table_(table),
      journal_(journal),
      timers_(timers),
      now_([&timers] { return timers.nowMs(); }),
      submit_(std::move(submit)),
      buttons_(settings, table, journal, now_),
      plan_(readPlanOf(settings.points)),
      debouncers_(settings.points.inputs.size(), ButtonDebouncer(settings.debounce)),
      backoff_(settings.reconnectMin, settings.reconnectMax) {}

TableIo::~TableIo() {
    stop();
}

void TableIo::start() {
    running_ = true;
    downSince_ = now_();
    tick();
}

void TableIo::stop() {
    running_ = false;
    *alive_ = false;
    if (timer_) {
        timers_.cancel(*timer_);
        timer_.reset();
    }
}

std::vector<LampState> TableIo::lampStates() const {
    const TableConditions active = conditionsOf(table_);
    std::vector<LampState> states;
    states.reserve(settings_.lamps.size());
    for (const LampRule& rule : settings_.lamps) {
        states.push_back(lampStateFor(rule, settings_.priority, active));
    }
    return states;
}

void TableIo::tick() {
    if (!running_) {
        return;
    }
    timer_ = timers_.after(settings_.poll, [this] {
        timer_.reset();
        tick();
    });
    const std::int64_t now = now_();
    buttons_.expire(now);
    checkOfflineTilt(now);
    if (inFlight_) {
        ++counters_.skipped;  // the device is slow: this period's lamps go with the next cycle
        return;
    }
    if (!up_ && now < nextAttempt_) {
        return;  // backing off
    }
    std::vector<bool> lit;
    for (const LampState state : lampStates()) {
        lit.push_back(lampLit(state, now, settings_.flash));
    }
    CycleRequest request{outputImageOf(settings_.points, lit), written_, writtenValid_, plan_};
    inFlight_ = true;
    sentAt_ = now;
    submit_(std::move(request), [this, alive = alive_](CycleResult result) {
        if (*alive) {
            onResult(std::move(result));
        }
    });
}

void TableIo::onResult(CycleResult result) {
    inFlight_ = false;
    const std::int64_t now = now_();
    ++counters_.cycles;
    counters_.requests += result.requests;
    counters_.lastCycleMs = now - sentAt_;
    counters_.maxCycleMs = std::max(counters_.maxCycleMs, counters_.lastCycleMs);
    if (result.connected) {
        ++counters_.connects;
        for (ButtonDebouncer& d : debouncers_) {
            d.reset();  // what was held while the device was away is not a press
        }
    }
    if (!result.ok) {
        ++counters_.failures;
        writtenValid_ = false;
        lastError_ = result.error;
        nextAttempt_ = now + backoff_.failed().count();
        if (up_ || !reported_) {
            up_ = false;
            downSince_ = now;
            linkChanged(false, result.error);
        }
        checkOfflineTilt(now);
        return;
    }
    written_ = std::move(result.written);
    writtenValid_ = true;
    if (!up_) {
        up_ = true;
        backoff_.succeeded();
        linkChanged(true, {});
        if (tiltRaised_) {
            tiltRaised_ = false;
            table_.clearTilt(kTiltCause, "modbus", [](const table::Reply&) {});
        }
    }
    const std::vector<bool> pressed = decodeInputs(settings_.points, plan_, result.discrete, result.registers);
    for (std::size_t i = 0; i < pressed.size(); ++i) {
        if (debouncers_[i].sample(pressed[i], now)) {
            buttons_.pressed(i);
        }
    }
}

void TableIo::linkChanged(bool up, const std::string& error) {
    reported_ = up;
    const std::string where = describe(settings_.connection);
    if (up) {
        spdlog::info("modbus: {} answering; lamps written and read back", where);
    } else {
        spdlog::warn("modbus: {} not answering ({}); lamps and buttons wait, reconnecting", where, error);
    }
    if (journal_.failed()) {
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    nlohmann::json body{{"up", up}, {"device", where}};
    if (!up) {
        body["error"] = error;
    }
    tx.add(journal::kind::kModbusLink, std::nullopt, std::nullopt, body);
    journal_.submit(std::move(tx));
}

void TableIo::checkOfflineTilt(std::int64_t now) {
    if (up_ || tiltRaised_ || settings_.offlineTilt.count() == 0 || now - downSince_ < settings_.offlineTilt.count()) {
        return;
    }
    tiltRaised_ = true;
    table_.raiseTilt(kTiltCause,
                     "the table's I/O module (" + describe(settings_.connection) + ") does not answer: " + lastError_);
}

nlohmann::json TableIo::statusJson() const {
    nlohmann::json lamps = nlohmann::json::object();
    const std::vector<LampState> states = lampStates();
    for (std::size_t i = 0; i < states.size(); ++i) {
        lamps[settings_.points.outputs[i].name] = lampStateName(states[i]);
    }
    nlohmann::json buttons = nlohmann::json::object();
    for (std::size_t i = 0; i < debouncers_.size(); ++i) {
        buttons[settings_.points.inputs[i].name] = debouncers_[i].pressed();
    }
    nlohmann::json j{{"device", describe(settings_.connection)},
                     {"up", up_},
                     {"cycles", counters_.cycles},
                     {"failures", counters_.failures},
                     {"failures_in_a_row", backoff_.failuresInARow()},
                     {"connects", counters_.connects},
                     {"skipped_periods", counters_.skipped},
                     {"requests", counters_.requests},
                     {"last_cycle_ms", counters_.lastCycleMs},
                     {"max_cycle_ms", counters_.maxCycleMs},
                     {"presses", buttons_.presses()},
                     {"lamps", lamps},
                     {"buttons", buttons}};
    if (!up_) {
        j["error"] = lastError_;
        j["down_ms"] = now_() - downSince_;
    }
    return j;
}

}  // namespace pitlink::modbus
