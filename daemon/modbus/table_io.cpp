// The logic-thread side of the table's I/O modules: the conditions the lamps show, the start and
// stop, and each module's cycle (outputs written, inputs read) and its result. The lamps, inputs,
// faults and status are in table_io_*.cpp.
#include "daemon/modbus/table_io.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

namespace pitlink::modbus {

namespace {

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
        const table::StationWallet& s = table.wallet(n);
        flag(c, TableCondition::Handpay) = flag(c, TableCondition::Handpay) || s.handpay.has_value();
        flag(c, TableCondition::CallAttendant) = flag(c, TableCondition::CallAttendant) || s.attendantCalled;
    }
    flag(c, phaseCondition(table.phase())) = true;
    return c;
}

TableIo::TableIo(const TableIoSettings& settings, std::vector<table::Table*> games, journal::Journal& journal,
                 platform::Executor& timers, Submit submit)
    : settings_(settings),
      games_(std::move(games)),
      journal_(journal),
      timers_(timers),
      now_([&timers] { return timers.nowMs(); }),
      submit_(std::move(submit)),
      buttons_(settings, games_, journal, now_),
      debouncers_(settings.points.inputs.size(), ButtonDebouncer(settings.debounce)),
      counts_(settings.points.inputs.size()),
      pressedSince_(settings.points.inputs.size(), -1),
      switchTold_(settings.points.inputs.size()) {
    for (std::size_t i = 0; i < settings.modules.size(); ++i) {
        ModulePoints points = pointsOf(settings, i);
        const ReadPlan plan = readPlanOf(points.map);
        Module& m = modules_.emplace_back(std::move(points), plan,
                                          ReconnectBackoff(settings.reconnectMin, settings.reconnectMax));
        for (const std::size_t o : m.points.outputs) {
            m.games.insert(outputGameOf(settings, o));
        }
        for (const std::size_t in : m.points.inputs) {
            m.games.insert(inputGameOf(settings, in));
        }
        for (const std::size_t game : m.games) {
            if (game >= games_.size()) {
                throw std::invalid_argument("modbus: a point of module " + settings.modules[i].name + " names game " +
                                            std::to_string(game) + " of " + std::to_string(games_.size()));
            }
        }
    }
}

bool TableIo::inRound(std::size_t game) const {
    return games_.at(game)->phase() != table::RoundPhase::Idle;
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
    if (lampTest_) {
        // Done, or a round opened (a dealer's button): the players read the lamps again.
        const bool round = std::any_of(lampTest_->games.begin(), lampTest_->games.end(),
                                       [this](std::size_t game) { return inRound(game); });
        if (round || now - lampTest_->start >= lampTest_->step * static_cast<std::int64_t>(lampTest_->lamps.size())) {
            spdlog::info("modbus: lamp test {}", round ? "ended by a round" : "done");
            lampTest_.reset();
        }
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
            for (const std::size_t game : m.games) {
                games_[game]->clearTilt(tiltCause(index), "modbus", [](const table::Reply&) {});
            }
        }
    }
    if (result.readBack) {
        m.lastReadBack = now;
        checkReadBack(index, *result.readBack);
    }
    onInputs(index, result, now);
    answerIo(index, &result);
}

}  // namespace pitlink::modbus
