// The lamps: what each shows now, and a technician's lamp test.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "daemon/journal/records/modbus_records.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/modbus/table_io.h"

namespace pitlink::modbus {

std::vector<LampState> TableIo::lampStates() const {
    std::vector<std::optional<TableConditions>> active(games_.size());  // each game's, when a lamp shows it
    std::vector<LampState> states;
    states.reserve(settings_.lamps.size());
    for (std::size_t i = 0; i < settings_.lamps.size(); ++i) {
        const std::size_t game = outputGameOf(settings_, i);
        if (!active.at(game)) {
            active[game] = conditionsOf(*games_[game]);
        }
        states.push_back(lampStateFor(settings_.lamps[i], settings_.priority, *active[game]));
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
    const std::vector<LampState> states = lampStates();
    for (std::size_t i = 0; i < n && i < states.size(); ++i) {
        lit[i] = lampLit(states[i], now, settings_.flash);
    }
    if (lampTest_) {
        // The lamps under test: the one whose turn it is alone; the others show their games.
        const auto step = static_cast<std::size_t>((now - lampTest_->start) / lampTest_->step);
        for (std::size_t k = 0; k < lampTest_->lamps.size(); ++k) {
            lit.at(lampTest_->lamps[k]) = k == step;
        }
    }
    return lit;
}

void TableIo::lampTest(std::chrono::milliseconds step, const std::string& by, std::optional<std::size_t> game,
                       const table::Respond& respond) {
    journal::ModbusLampTestRecord record{by, step.count(), {}, up(), false, std::nullopt};
    LampTest test{now_(), step.count(), {}, {}};
    for (std::size_t i = 0; i < settings_.points.outputs.size(); ++i) {
        if (!game || outputGameOf(settings_, i) == *game) {
            record.lamps.push_back(settings_.points.outputs[i].name);
            test.lamps.push_back(i);
            test.games.insert(outputGameOf(settings_, i));
        }
    }
    const bool round = std::any_of(test.games.begin(), test.games.end(), [this](std::size_t g) { return inRound(g); });
    table::Reply reply = table::Reply::accepted();
    if (round) {
        reply = table::Reply::refused("round_in_progress", "a lamp test runs between rounds (players read the lamps)");
    } else if (test.lamps.empty()) {
        reply = table::Reply::refused("no_lamps", game && severalGames()
                                                      ? "pitlink.yaml names no lamps of " + games_.at(*game)->name()
                                                      : "pitlink.yaml names no lamps");
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
        spdlog::info("modbus: lamp test by {}: {} lamps, {} ms each", by, test.lamps.size(), step.count());
        lampTest_ = std::move(test);
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record);
    if (game && severalGames()) {
        tx.nameGame(games_.at(*game)->name());
    }
    journal_.submit(std::move(tx), [this, alive = alive_, respond, reply](const journal::CommitResult& result) {
        if (!result.ok && reply.ok && *alive) {
            lampTest_.reset();  // not recorded: not done
        }
        respond(result.ok ? reply : table::Reply::refused("journal_failed", result.error));
    });
}

}  // namespace pitlink::modbus
