#include "daemon/modbus/table_io.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "daemon/journal/record_kinds.h"

namespace pitlink::modbus {

namespace {

constexpr std::size_t kOutageErrorsKept = 5;
// More edges than this between two polls is not a hand on a button: the module's counter was
// reset (a restart, a latch cleared on read): a new baseline, not thousands of presses.
constexpr std::uint16_t kMostCountedPerPoll = 20;

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
      debouncers_(settings.points.inputs.size(), ButtonDebouncer(settings.debounce)),
      counts_(settings.points.inputs.size()),
      pressedSince_(settings.points.inputs.size(), -1),
      switchTold_(settings.points.inputs.size()) {
    for (std::size_t i = 0; i < settings.modules.size(); ++i) {
        ModulePoints points = pointsOf(settings, i);
        const ReadPlan plan = readPlanOf(points.map);
        modules_.emplace_back(std::move(points), plan, ReconnectBackoff(settings.reconnectMin, settings.reconnectMax));
    }
}

TableIo::~TableIo() {
    // Without answering `io` reads still waiting (stop() does, and the daemon calls it first).
    running_ = false;
    *alive_ = false;
    try {
        if (timer_) {
            timers_.cancel(*timer_);
        }
    } catch (...) {  // an executor going away with us: nothing left to cancel
    }
}

std::string TableIo::tiltCause(std::size_t index) const {
    return modules_.size() == 1 ? "modbus" : "modbus:" + settings_.modules[index].name;
}

std::string TableIo::where(std::size_t index) const {
    const std::string device = describe(settings_.modules[index].connection);
    return modules_.size() == 1 ? device : settings_.modules[index].name + " (" + device + ")";
}

bool TableIo::up() const {
    return std::all_of(modules_.begin(), modules_.end(), [](const Module& m) { return m.up; });
}

void TableIo::start() {
    running_ = true;
    for (Module& m : modules_) {
        m.downSince = now_();
    }
    tick();
}

void TableIo::stop() {
    running_ = false;
    *alive_ = false;
    if (timer_) {
        timers_.cancel(*timer_);
        timer_.reset();
    }
    for (std::size_t i = 0; i < modules_.size(); ++i) {
        answerIo(i, nullptr);
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

namespace {

std::vector<bool> moduleLit(const ModulePoints& points, const std::vector<bool>& lit) {
    std::vector<bool> own;
    own.reserve(points.outputs.size());
    for (const std::size_t i : points.outputs) {
        own.push_back(i < lit.size() && lit[i]);
    }
    return own;
}

}  // namespace

CycleRequest TableIo::safeCycle(std::size_t module) const {
    std::vector<bool> lit(settings_.points.outputs.size(), false);
    for (std::size_t i = 0; i < lit.size() && i < settings_.safeLit.size(); ++i) {
        lit[i] = settings_.safeLit[i];
    }
    const ModuleSettings& m = settings_.modules[module];
    CycleRequest request;
    request.image = outputImageOf(modules_[module].points.map, moduleLit(modules_[module].points, lit));
    request.writtenValid = false;  // all of it
    request.retries = m.connection.retries;
    request.setup = m.atConnect;
    request.final = m.atStop;
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
    if (lampTest_ && (now - lampTest_->start >= lampTest_->step * static_cast<std::int64_t>(settings_.lamps.size()) ||
                      table_.phase() != table::RoundPhase::Idle)) {
        // Done, or a round opened (a dealer's button): the players read the lamps again.
        spdlog::info("modbus: lamp test {}", table_.phase() == table::RoundPhase::Idle ? "done" : "ended by a round");
        lampTest_.reset();
    }
    const std::vector<bool> lit = litNow(now);
    for (std::size_t i = 0; i < modules_.size(); ++i) {
        checkOfflineTilt(i, now);
        tickModule(i, now, lit);
    }
}

void TableIo::tickModule(std::size_t index, std::int64_t now, const std::vector<bool>& lit) {
    Module& m = modules_[index];
    if (m.inFlight) {
        ++m.counters.skipped;  // the device is slow: this period's lamps go with the next cycle
        return;
    }
    if (!m.up && now < m.nextAttempt) {
        return;  // backing off
    }
    const ModuleSettings& module = settings_.modules[index];
    CycleRequest request;
    request.image = outputImageOf(m.points.map, moduleLit(m.points, lit));
    request.written = m.written;
    request.writtenValid = m.writtenValid;
    request.plan = m.plan;
    request.readBack = std::exchange(m.readBackNext, false) ||
                       (settings_.readBack.count() > 0 && now - m.lastReadBack >= settings_.readBack.count());
    request.identify = module.identify;
    request.retries = module.connection.retries;
    request.setup = module.atConnect;
    m.inFlight = true;
    m.sentAt = now;
    submit_(index, std::move(request), [this, index, alive = alive_](CycleResult result) {
        if (*alive) {
            onResult(index, std::move(result));
        }
    });
}

void TableIo::onResult(std::size_t index, CycleResult result) {
    Module& m = modules_[index];
    m.inFlight = false;
    const std::int64_t now = now_();
    ++m.counters.cycles;
    m.counters.requests += result.requests;
    m.counters.lastCycleMs = now - m.sentAt;
    m.counters.maxCycleMs = std::max(m.counters.maxCycleMs, m.counters.lastCycleMs);
    m.counters.transientErrors += result.transientErrors.size();
    if (!result.transientErrors.empty()) {
        m.lastTransientError = result.transientErrors.back();
    }
    if (result.connected) {
        ++m.counters.connects;
        for (const std::size_t input : m.points.inputs) {
            debouncers_[input].reset();  // what was held while the device was away is not a press
            counts_[input].reset();      // a new baseline
        }
        m.identity = result.identity;
        m.identityError = result.identityError;
    }
    if (result.setupWritten) {
        m.watchdogArmed = settings_.modules[index].watchdog.count() > 0;
    }
    if (!result.ok) {
        onFailure(index, result, now);
        answerIo(index, nullptr);
        return;
    }
    m.written = result.written;  // (kept in the result too: answerIo reads it)
    m.writtenValid = true;
    if (!m.up) {
        m.up = true;
        m.backoff.succeeded();
        linkChanged(index, true, {});
        m.outageFailures = 0;
        m.outageErrors.clear();
        if (m.tiltRaised) {
            m.tiltRaised = false;
            table_.clearTilt(tiltCause(index), "modbus", [](const table::Reply&) {});
        }
    }
    if (result.readBack) {
        m.lastReadBack = now;
        checkReadBack(index, *result.readBack);
    }
    onInputs(index, result, now);
    answerIo(index, &result);
}

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

void TableIo::onInputs(std::size_t index, const CycleResult& result, std::int64_t now) {
    const Module& m = modules_[index];
    const std::vector<bool> pressed = decodeInputs(m.points.map, m.plan, result.discrete, result.registers);
    const std::vector<std::optional<std::uint16_t>> counts = decodeCounters(m.points.map, m.plan, result.registers);
    const std::size_t buttons = settings_.buttons.size();
    for (std::size_t k = 0; k < pressed.size(); ++k) {
        const std::size_t i = m.points.inputs[k];
        const bool edge = debouncers_[i].sample(pressed[k], now);
        if (i >= buttons) {
            switchLevel(i, debouncers_[i].pressed());
            continue;
        }
        if (counts[k]) {
            // The module counts the edges: every one since the last reading is a press, however
            // short; the first reading after a connect is the baseline.
            if (counts_[i]) {
                const std::uint16_t n = countedSince(*counts_[i], *counts[k]);
                if (n > kMostCountedPerPoll) {
                    ++counterResets_;
                    spdlog::warn("modbus: {}'s edge counter went from {} to {}: taken as reset, not as {} presses",
                                 settings_.points.inputs[i].name, *counts_[i], *counts[k], n);
                } else {
                    for (std::uint16_t left = n; left > 0; --left) {
                        ++counted_;
                        buttons_.pressed(i);
                    }
                }
            }
            counts_[i] = counts[k];
        } else if (edge) {
            buttons_.pressed(i);
        }
        checkHeld(i, now);
    }
}

void TableIo::checkHeld(std::size_t input, std::int64_t now) {
    const std::string& name = settings_.points.inputs[input].name;
    const auto maxHold = settings_.buttons[input].maxHold.count();
    const std::size_t module = input < settings_.inputModule.size() ? settings_.inputModule[input] : 0;
    if (!debouncers_[input].pressed()) {
        if (pressedSince_[input] >= 0 && faults_.contains(name)) {
            fault(module, name, "button_held", false, {{"held_ms", now - pressedSince_[input]}});
        }
        pressedSince_[input] = -1;
        return;
    }
    if (pressedSince_[input] < 0) {
        pressedSince_[input] = now;
    }
    if (maxHold > 0 && now - pressedSince_[input] > maxHold && !faults_.contains(name)) {
        fault(module, name, "button_held", true, {{"held_ms", now - pressedSince_[input]}, {"max_hold_ms", maxHold}});
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

void TableIo::checkReadBack(std::size_t index, const OutputImage& held) {
    Module& m = modules_[index];
    std::set<std::string> stuck;
    for (const Mismatch& mismatch : mismatches(m.points.map, m.written, held)) {
        const OutputPoint& o = m.points.map.outputs[mismatch.output];
        stuck.insert(o.name);
        if (!faults_.contains(o.name)) {
            fault(index, o.name, "stuck_output", true,
                  {{"written", mismatch.holds ? "off" : "on"},
                   {"holds", mismatch.holds ? "on" : "off"},
                   {"address", o.address},
                   {"kind", o.kind == OutputKind::Coil ? "coil" : "holding_register_bit"}});
        }
        m.writtenValid = false;  // written again, all of it, and read back, at the next cycle
    }
    for (const OutputPoint& o : m.points.map.outputs) {
        if (!stuck.contains(o.name) && faults_.contains(o.name) && faults_.at(o.name) == "stuck_output") {
            fault(index, o.name, "stuck_output", false, {});
        }
    }
}

void TableIo::fault(std::size_t index, const std::string& point, const std::string& fault, bool active,
                    nlohmann::json detail) {
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
    detail["module"] = settings_.modules[index].name;
    detail["device"] = describe(settings_.modules[index].connection);
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::kind::kModbusFault, std::nullopt, std::nullopt, detail);
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
    nlohmann::json body{{"up", up},
                        {"module", settings_.modules[index].name},
                        {"device", describe(settings_.modules[index].connection)}};
    if (!up) {
        body["error"] = error;  // the outage's cause
    } else if (ended) {
        body["down_ms"] = downMs;
        body["failed_cycles"] = m.outageFailures;
        body["errors"] = m.outageErrors;
    }
    tx.add(journal::kind::kModbusLink, std::nullopt, std::nullopt, body);
    journal_.submit(std::move(tx));
}

void TableIo::checkOfflineTilt(std::size_t index, std::int64_t now) {
    Module& m = modules_[index];
    if (m.up || m.tiltRaised || settings_.offlineTilt.count() == 0 ||
        now - m.downSince < settings_.offlineTilt.count()) {
        return;
    }
    m.tiltRaised = true;
    table_.raiseTilt(tiltCause(index), "the table's I/O module " + where(index) + " does not answer: " + m.lastError);
}

void TableIo::lampTest(std::chrono::milliseconds step, const std::string& by, const table::Respond& respond) {
    nlohmann::json lamps = nlohmann::json::array();
    for (const OutputPoint& o : settings_.points.outputs) {
        lamps.push_back(o.name);
    }
    nlohmann::json body{{"by", by}, {"step_ms", step.count()}, {"lamps", lamps}, {"modules_up", up()}};
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
    body["outcome"] = reply.ok ? "started" : "refused";
    if (!reply.ok) {
        body["error"] = reply.error;
    } else {
        lampTest_ = LampTest{now_(), step.count()};
        spdlog::info("modbus: lamp test by {}: {} lamps, {} ms each", by, lamps.size(), step.count());
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::kind::kModbusLampTest, std::nullopt, std::nullopt, body);
    journal_.submit(std::move(tx), [this, alive = alive_, respond, reply](const journal::CommitResult& result) {
        if (!result.ok && reply.ok && *alive) {
            lampTest_.reset();  // not recorded: not done
        }
        respond(result.ok ? reply : table::Reply::refused("journal_failed", result.error));
    });
}

void TableIo::readIo(std::function<void(nlohmann::json)> answer) {
    IoRead read{std::move(answer), std::vector<std::optional<nlohmann::json>>(modules_.size())};
    for (std::size_t i = 0; i < modules_.size(); ++i) {
        if (!modules_[i].up || !running_) {
            read.modules[i] = ioOf(i, nullptr);  // not answering: said at once
        } else {
            modules_[i].readBackNext = true;  // its next cycle reads the outputs back
        }
    }
    ioReads_.push_back(std::move(read));
    answerIo(modules_.size(), nullptr);  // all answered already: no cycle to wait for
}

nlohmann::json TableIo::ioOf(std::size_t index, const CycleResult* result) const {
    const Module& m = modules_[index];
    nlohmann::json j{{"module", settings_.modules[index].name},
                     {"device", describe(settings_.modules[index].connection)},
                     {"up", result != nullptr}};
    if (result == nullptr) {
        j["error"] = m.lastError.empty() ? (running_ ? "the module has not answered yet" : "stopped") : m.lastError;
        return j;
    }
    const ModulePoints& points = m.points;
    const std::vector<bool> active = decodeInputs(points.map, m.plan, result->discrete, result->registers);
    const auto counts = decodeCounters(points.map, m.plan, result->registers);
    nlohmann::json inputs = nlohmann::json::array();
    for (std::size_t k = 0; k < points.map.inputs.size(); ++k) {
        const InputPoint& p = points.map.inputs[k];
        nlohmann::json in{{"name", p.name},
                          {"where", p.kind == InputKind::DiscreteInput ? "discrete input " + std::to_string(p.address)
                                                                       : "input register " + std::to_string(p.address) +
                                                                             " bit " + std::to_string(p.bit)},
                          {"level", active[k] != p.activeLow},
                          {"active", active[k]}};
        if (counts[k]) {
            in["count"] = *counts[k];
        }
        inputs.push_back(in);
    }
    nlohmann::json outputs = nlohmann::json::array();
    const auto stuck =
        result->readBack ? mismatches(points.map, result->written, *result->readBack) : std::vector<Mismatch>{};
    for (std::size_t k = 0; k < points.map.outputs.size(); ++k) {
        const OutputPoint& p = points.map.outputs[k];
        const bool written = p.kind == OutputKind::Coil
                                 ? result->written.coils.at(p.address)
                                 : ((result->written.registers.at(p.address) >> p.bit) & 1U) != 0;
        bool holds = written;
        for (const Mismatch& mismatch : stuck) {
            if (mismatch.output == k) {
                holds = mismatch.holds;
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
    return j;
}

void TableIo::answerIo(std::size_t index, const CycleResult* result) {
    if (ioReads_.empty()) {
        return;
    }
    // A cycle sent before the question, without a read-back, does not answer it: the next will.
    if (index < modules_.size() && (result == nullptr || result->readBack)) {
        const nlohmann::json io = ioOf(index, result);
        for (IoRead& read : ioReads_) {
            if (!read.modules[index]) {
                read.modules[index] = io;
            }
        }
    }
    // The reads every module has answered, in the order they were asked.
    while (!ioReads_.empty() && std::all_of(ioReads_.front().modules.begin(), ioReads_.front().modules.end(),
                                            [](const auto& m) { return m.has_value(); })) {
        IoRead read = std::move(ioReads_.front());
        ioReads_.erase(ioReads_.begin());
        nlohmann::json modules = nlohmann::json::array();
        for (auto& m : read.modules) {
            modules.push_back(std::move(*m));
        }
        read.answer({{"modules", std::move(modules)}});
    }
}

nlohmann::json TableIo::moduleStatus(std::size_t index) const {
    const Module& m = modules_[index];
    nlohmann::json j{
        {"name", settings_.modules[index].name},
        {"device", describe(settings_.modules[index].connection)},
        {"up", m.up},
        {"cycles", m.counters.cycles},
        {"failures", m.counters.failures},
        {"failures_in_a_row", m.backoff.failuresInARow()},
        {"connects", m.counters.connects},
        {"skipped_periods", m.counters.skipped},
        {"requests", m.counters.requests},
        {"transient_errors", m.counters.transientErrors},
        {"last_cycle_ms", m.counters.lastCycleMs},
        {"max_cycle_ms", m.counters.maxCycleMs},
        {"watchdog", {{"ms", settings_.modules[index].watchdog.count()}, {"armed", m.watchdogArmed && m.up}}}};
    if (!m.lastTransientError.empty()) {
        j["last_transient_error"] = m.lastTransientError;
    }
    if (!m.identity.empty()) {
        j["identity"] = m.identity;
    } else if (!m.identityError.empty()) {
        j["identity_error"] = m.identityError;
    }
    if (!m.up) {
        j["error"] = m.lastError;
        j["down_ms"] = now_() - m.downSince;
    }
    return j;
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
    nlohmann::json modules = nlohmann::json::array();
    for (std::size_t i = 0; i < modules_.size(); ++i) {
        modules.push_back(moduleStatus(i));
    }
    // The table-wide view: every module's counters summed, up only when all answer.
    nlohmann::json j{{"up", up()},
                     {"modules", modules},
                     {"presses", buttons_.presses()},
                     {"counted_presses", counted_},
                     {"counter_resets", counterResets_},
                     {"faults", faults_},
                     {"lamps", lamps},
                     {"buttons", buttons},
                     {"switches", switches},
                     {"lamp_test", lampTest_.has_value()},
                     {"safe_image", !ready_}};
    for (const char* key : {"cycles", "failures", "connects", "skipped_periods", "requests", "transient_errors"}) {
        std::uint64_t sum = 0;
        for (const auto& m : modules) {
            sum += m.at(key).get<std::uint64_t>();
        }
        j[key] = sum;
    }
    return j;
}

}  // namespace pitlink::modbus
