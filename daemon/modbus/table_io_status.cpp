// What the I/O says of itself: `pitlinkctl io` (a fresh read of every module) and `status`.
#include <algorithm>

#include "daemon/modbus/table_io.h"

namespace pitlink::modbus {

namespace {

// A module's `io` answer with only `game`'s points (each point names its game).
nlohmann::json pointsOfGame(nlohmann::json module, const std::string& game) {
    for (const char* list : {"inputs", "outputs"}) {
        if (!module.contains(list)) {
            continue;
        }
        nlohmann::json kept = nlohmann::json::array();
        for (nlohmann::json& point : module[list]) {
            if (point.value("game", "") == game) {
                kept.push_back(std::move(point));
            }
        }
        module[list] = std::move(kept);
    }
    return module;
}

}  // namespace

void TableIo::readIo(std::optional<std::size_t> game, std::function<void(nlohmann::json)> answer) {
    IoRead read{game && severalGames() ? std::optional<std::string>(games_.at(*game)->name()) : std::nullopt,
                std::move(answer), std::vector<std::optional<nlohmann::json>>(modules_.size())};
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
        if (severalGames()) {
            in["game"] = games_[inputGameOf(settings_, points.inputs[k])]->name();
        }
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
        nlohmann::json out{{"name", p.name},
                           {"where", p.kind == OutputKind::Coil ? "coil " + std::to_string(p.address)
                                                                : "holding register " + std::to_string(p.address) +
                                                                      " bit " + std::to_string(p.bit)},
                           {"written", written},
                           {"holds", holds}};
        if (severalGames()) {
            out["game"] = games_[outputGameOf(settings_, points.outputs[k])]->name();
        }
        outputs.push_back(std::move(out));
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
            modules.push_back(read.game ? pointsOfGame(std::move(*m), *read.game) : std::move(*m));
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
    if (severalGames()) {
        // Which game each lamp shows and each button or switch acts on.
        nlohmann::json games = nlohmann::json::object();
        for (std::size_t i = 0; i < settings_.points.outputs.size(); ++i) {
            games[games_[outputGameOf(settings_, i)]->name()]["lamps"].push_back(settings_.points.outputs[i].name);
        }
        for (std::size_t i = 0; i < settings_.points.inputs.size(); ++i) {
            games[games_[inputGameOf(settings_, i)]->name()][i < settings_.buttons.size() ? "buttons" : "switches"]
                .push_back(settings_.points.inputs[i].name);
        }
        j["games"] = std::move(games);
    }
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
