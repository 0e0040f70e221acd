#include "daemon/modbus/table_io.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "daemon/journal/record_kinds.h"

namespace pitlink::modbus {

namespace {

constexpr const char* kTiltCause = "modbus";
constexpr std::size_t kOutageErrorsKept = 5;

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
      counts_(settings.points.inputs.size()),
      pressedSince_(settings.points.inputs.size(), -1),
      switchTold_(settings.points.inputs.size()),
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
    answerIo(nullptr);
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

CycleRequest TableIo::safeCycle() const {
    std::vector<bool> lit(settings_.points.outputs.size(), false);
    for (std::size_t i = 0; i < lit.size() && i < settings_.safeLit.size(); ++i) {
        lit[i] = settings_.safeLit[i];
    }
    CycleRequest request;
    request.image = outputImageOf(settings_.points, lit);
    request.writtenValid = false;  // all of it
    request.retries = settings_.connection.retries;
    request.setup = settings_.atConnect;
    request.final = settings_.atStop;
    return request;
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
    if (lampTest_ && now - lampTest_->start >= lampTest_->step * static_cast<std::int64_t>(settings_.lamps.size())) {
        lampTest_.reset();
        spdlog::info("modbus: lamp test done");
    }
    if (inFlight_) {
        ++counters_.skipped;  // the device is slow: this period's lamps go with the next cycle
        return;
    }
    if (!up_ && now < nextAttempt_) {
        return;  // backing off
    }
    CycleRequest request;
    request.image = outputImageOf(settings_.points, litNow(now));
    request.written = written_;
    request.writtenValid = writtenValid_;
    request.plan = plan_;
    request.readBack =
        !ioWaiting_.empty() || (settings_.readBack.count() > 0 && now - lastReadBack_ >= settings_.readBack.count());
    request.identify = settings_.identify;
    request.retries = settings_.connection.retries;
    request.setup = settings_.atConnect;
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
    counters_.transientErrors += result.transientErrors.size();
    if (!result.transientErrors.empty()) {
        lastTransientError_ = result.transientErrors.back();
    }
    if (result.connected) {
        ++counters_.connects;
        for (ButtonDebouncer& d : debouncers_) {
            d.reset();  // what was held while the device was away is not a press
        }
        std::fill(counts_.begin(), counts_.end(), std::nullopt);  // a new baseline
        identity_ = result.identity;
        identityError_ = result.identityError;
    }
    if (result.setupWritten) {
        watchdogArmed_ = settings_.watchdog.count() > 0;
    }
    if (!result.ok) {
        onFailure(result, now);
        answerIo(nullptr);
        return;
    }
    written_ = result.written;  // (kept in the result too: answerIo reads it)
    writtenValid_ = true;
    if (!up_) {
        up_ = true;
        backoff_.succeeded();
        linkChanged(true, {});
        outageFailures_ = 0;
        outageErrors_.clear();
        if (tiltRaised_) {
            tiltRaised_ = false;
            table_.clearTilt(kTiltCause, "modbus", [](const table::Reply&) {});
        }
    }
    if (result.readBack) {
        lastReadBack_ = now;
        checkReadBack(*result.readBack);
    }
    onInputs(result, now);
    answerIo(&result);
}

void TableIo::onFailure(const CycleResult& result, std::int64_t now) {
    ++counters_.failures;
    writtenValid_ = false;
    watchdogArmed_ = false;
    lastError_ = result.error;
    nextAttempt_ = now + backoff_.failed().count();
    ++outageFailures_;
    if (outageErrors_.size() < kOutageErrorsKept) {
        outageErrors_.insert(result.error);
    }
    if (up_ || !reported_) {
        up_ = false;
        downSince_ = now;
        linkChanged(false, result.error);
    }
    checkOfflineTilt(now);
}

void TableIo::onInputs(const CycleResult& result, std::int64_t now) {
    const std::vector<bool> pressed = decodeInputs(settings_.points, plan_, result.discrete, result.registers);
    const std::vector<std::optional<std::uint16_t>> counts = decodeCounters(settings_.points, plan_, result.registers);
    const std::size_t buttons = settings_.buttons.size();
    for (std::size_t i = 0; i < pressed.size(); ++i) {
        const bool edge = debouncers_[i].sample(pressed[i], now);
        if (i >= buttons) {
            switchLevel(i, debouncers_[i].pressed());
            continue;
        }
        if (counts[i]) {
            // The module counts the edges: every one since the last reading is a press, however
            // short; the first reading after a connect is the baseline.
            if (counts_[i]) {
                for (std::uint16_t n = countedSince(*counts_[i], *counts[i]); n > 0; --n) {
                    ++counters_.counted;
                    buttons_.pressed(i);
                }
            }
            counts_[i] = counts[i];
        } else if (edge) {
            buttons_.pressed(i);
        }
        checkHeld(i, now);
    }
}

void TableIo::checkHeld(std::size_t input, std::int64_t now) {
    const std::string& name = settings_.points.inputs[input].name;
    const auto maxHold = settings_.buttons[input].maxHold.count();
    if (!debouncers_[input].pressed()) {
        if (pressedSince_[input] >= 0 && faults_.contains(name)) {
            fault(name, "button_held", false, {{"held_ms", now - pressedSince_[input]}});
        }
        pressedSince_[input] = -1;
        return;
    }
    if (pressedSince_[input] < 0) {
        pressedSince_[input] = now;
    }
    if (maxHold > 0 && now - pressedSince_[input] > maxHold && !faults_.contains(name)) {
        fault(name, "button_held", true, {{"held_ms", now - pressedSince_[input]}, {"max_hold_ms", maxHold}});
    }
}

void TableIo::switchLevel(std::size_t input, bool active) {
    // A change is told to the table; the first reading only when active (an inactive reader
    // switch must not clear a fault the engine link reported).
    const bool first = !switchTold_[input].has_value();
    if (switchTold_[input] == active) {
        return;
    }
    switchTold_[input] = active;
    if (first && !active) {
        return;
    }
    const SwitchSettings& sw = settings_.switches.at(input - settings_.buttons.size());
    const std::string& name = settings_.points.inputs[input].name;
    spdlog::info("modbus: switch {} {}", name, active ? "active" : "inactive");
    if (sw.role == SwitchRole::Door) {
        if (active) {
            table_.doorOpened(sw.door, [](const table::Reply&) {});
        } else {
            table_.doorClosed(sw.door, [](const table::Reply&) {});
        }
        return;
    }
    table_.readerStatus(!active, active ? "the card reader's fault output (" + name + ") is on" : "",
                        [](const table::Reply&) {});
}

void TableIo::checkReadBack(const OutputImage& held) {
    std::set<std::string> stuck;
    for (const Mismatch& m : mismatches(settings_.points, written_, held)) {
        const OutputPoint& o = settings_.points.outputs[m.output];
        stuck.insert(o.name);
        if (!faults_.contains(o.name)) {
            fault(o.name, "stuck_output", true,
                  {{"written", m.holds ? "off" : "on"},
                   {"holds", m.holds ? "on" : "off"},
                   {"address", o.address},
                   {"kind", o.kind == OutputKind::Coil ? "coil" : "holding_register_bit"}});
        }
        writtenValid_ = false;  // written again, all of it, and read back, at the next cycle
    }
    for (const OutputPoint& o : settings_.points.outputs) {
        if (!stuck.contains(o.name) && faults_.contains(o.name) && faults_.at(o.name) == "stuck_output") {
            fault(o.name, "stuck_output", false, {});
        }
    }
}

void TableIo::fault(const std::string& point, const std::string& fault, bool active, nlohmann::json detail) {
    if (active) {
        faults_[point] = fault;
        spdlog::warn("modbus: fault {} on {}: {}", fault, point, detail.dump());
    } else {
        faults_.erase(point);
        spdlog::info("modbus: fault {} on {} cleared", fault, point);
    }
    if (journal_.failed()) {
        return;
    }
    detail["point"] = point;
    detail["fault"] = fault;
    detail["active"] = active;
    detail["device"] = describe(settings_.connection);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::kind::kModbusFault, std::nullopt, std::nullopt, detail);
    journal_.submit(std::move(tx));
}

void TableIo::linkChanged(bool up, const std::string& error) {
    const bool ended = reported_.has_value();  // an up that ends an outage (not the first connect)
    reported_ = up;
    const std::string where = describe(settings_.connection);
    const std::int64_t downMs = now_() - downSince_;
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
        body["error"] = error;  // the outage's cause
    } else if (ended) {
        body["down_ms"] = downMs;
        body["failed_cycles"] = outageFailures_;
        body["errors"] = outageErrors_;
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

void TableIo::lampTest(std::chrono::milliseconds step, const std::string& by, const table::Respond& respond) {
    nlohmann::json lamps = nlohmann::json::array();
    for (const OutputPoint& o : settings_.points.outputs) {
        lamps.push_back(o.name);
    }
    nlohmann::json body{{"by", by}, {"step_ms", step.count()}, {"lamps", lamps}, {"module_up", up_}};
    table::Reply reply = table::Reply::accepted();
    if (table_.phase() != table::RoundPhase::Idle) {
        reply = table::Reply::refused("round_in_progress", "a lamp test runs between rounds (players read the lamps)");
    } else if (lamps.empty()) {
        reply = table::Reply::refused("no_lamps", "pitlink.yaml names no lamps");
    } else if (lampTest_) {
        reply = table::Reply::refused("already_testing", "a lamp test is under way");
    }
    body["outcome"] = reply.ok ? "started" : "refused";
    if (!reply.ok) {
        body["error"] = reply.error;
    } else {
        lampTest_ = LampTest{now_(), step.count()};
        spdlog::info("modbus: lamp test by {}: {} lamps, {} ms each", by, lamps.size(), step.count());
    }
    if (journal_.failed()) {
        respond(table::Reply::refused("journal_failed", "the journal cannot record the lamp test"));
        return;
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::kind::kModbusLampTest, std::nullopt, std::nullopt, body);
    journal_.submit(std::move(tx), [respond, reply](const journal::CommitResult& result) {
        respond(result.ok ? reply : table::Reply::refused("journal_failed", result.error));
    });
}

void TableIo::readIo(std::function<void(nlohmann::json)> answer) {
    if (!up_ || !running_) {
        answer({{"device", describe(settings_.connection)},
                {"up", false},
                {"error", lastError_.empty() ? "the module has not answered yet" : lastError_}});
        return;
    }
    ioWaiting_.push_back(std::move(answer));  // the next cycle reads the outputs back
}

void TableIo::answerIo(const CycleResult* result) {
    if (ioWaiting_.empty()) {
        return;
    }
    nlohmann::json j{{"device", describe(settings_.connection)}, {"up", result != nullptr}};
    if (result == nullptr) {
        j["error"] = lastError_.empty() ? "stopped" : lastError_;
    } else {
        const std::vector<bool> active = decodeInputs(settings_.points, plan_, result->discrete, result->registers);
        const auto counts = decodeCounters(settings_.points, plan_, result->registers);
        nlohmann::json inputs = nlohmann::json::array();
        for (std::size_t i = 0; i < settings_.points.inputs.size(); ++i) {
            const InputPoint& p = settings_.points.inputs[i];
            nlohmann::json in{
                {"name", p.name},
                {"where", p.kind == InputKind::DiscreteInput
                              ? "discrete input " + std::to_string(p.address)
                              : "input register " + std::to_string(p.address) + " bit " + std::to_string(p.bit)},
                {"level", active[i] != p.activeLow},
                {"active", active[i]}};
            if (counts[i]) {
                in["count"] = *counts[i];
            }
            inputs.push_back(in);
        }
        nlohmann::json outputs = nlohmann::json::array();
        const auto stuck = result->readBack ? mismatches(settings_.points, result->written, *result->readBack)
                                            : std::vector<Mismatch>{};
        for (std::size_t i = 0; i < settings_.points.outputs.size(); ++i) {
            const OutputPoint& p = settings_.points.outputs[i];
            const bool written = p.kind == OutputKind::Coil
                                     ? result->written.coils.at(p.address)
                                     : ((result->written.registers.at(p.address) >> p.bit) & 1U) != 0;
            bool holds = written;
            for (const Mismatch& m : stuck) {
                if (m.output == i) {
                    holds = m.holds;
                }
            }
            outputs.push_back({{"name", p.name},
                               {"where", p.kind == OutputKind::Coil ? "coil " + std::to_string(p.address)
                                                                    : "holding register " + std::to_string(p.address) +
                                                                          " bit " + std::to_string(p.bit)},
                               {"written", written},
                               {"holds", holds}});
        }
        j["inputs"] = inputs;
        j["outputs"] = outputs;
    }
    for (auto& answer : std::exchange(ioWaiting_, {})) {
        answer(j);
    }
}

nlohmann::json TableIo::statusJson() const {
    nlohmann::json lamps = nlohmann::json::object();
    const std::vector<LampState> states = lampStates();
    for (std::size_t i = 0; i < states.size(); ++i) {
        lamps[settings_.points.outputs[i].name] = lampStateName(states[i]);
    }
    nlohmann::json buttons = nlohmann::json::object();
    nlohmann::json switches = nlohmann::json::object();
    for (std::size_t i = 0; i < debouncers_.size(); ++i) {
        (i < settings_.buttons.size() ? buttons : switches)[settings_.points.inputs[i].name] = debouncers_[i].pressed();
    }
    nlohmann::json j{{"device", describe(settings_.connection)},
                     {"up", up_},
                     {"cycles", counters_.cycles},
                     {"failures", counters_.failures},
                     {"failures_in_a_row", backoff_.failuresInARow()},
                     {"connects", counters_.connects},
                     {"skipped_periods", counters_.skipped},
                     {"requests", counters_.requests},
                     {"transient_errors", counters_.transientErrors},
                     {"counted_presses", counters_.counted},
                     {"last_cycle_ms", counters_.lastCycleMs},
                     {"max_cycle_ms", counters_.maxCycleMs},
                     {"presses", buttons_.presses()},
                     {"watchdog", {{"ms", settings_.watchdog.count()}, {"armed", watchdogArmed_ && up_}}},
                     {"faults", faults_},
                     {"lamps", lamps},
                     {"buttons", buttons},
                     {"switches", switches},
                     {"lamp_test", lampTest_.has_value()},
                     {"safe_image", !ready_}};
    if (!lastTransientError_.empty()) {
        j["last_transient_error"] = lastTransientError_;
    }
    if (!identity_.empty()) {
        j["identity"] = identity_;
    } else if (!identityError_.empty()) {
        j["identity_error"] = identityError_;
    }
    if (!up_) {
        j["error"] = lastError_;
        j["down_ms"] = now_() - downSince_;
    }
    return j;
}

}  // namespace pitlink::modbus
