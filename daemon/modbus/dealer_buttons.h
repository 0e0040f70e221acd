#pragma once
// What a dealer button press does: the table is asked at once (its decision takes every
// transaction already submitted into account), and the press is journaled with the table's answer
// (button.pressed: done, or refused with the rule), so that the journal says what the press did.
// Buttons that need confirming are armed by their press (journaled as armed) and carried out by a
// press of `confirm` within the window; an armed action that is not confirmed in time lapses.
// On a controller of several games each button acts on its own game (settings.inputGame), a
// confirm press carries out only what its game's buttons armed, and the press names its game.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "daemon/config/modbus_settings.h"
#include "daemon/journal/journal.h"
#include "daemon/journal/records/modbus_records.h"
#include "daemon/table/table.h"

namespace pitlink::modbus {

class DealerButtons {
public:
    // `games`: the controller's, in pitlink.yaml's order (at least one).
    DealerButtons(const TableIoSettings& settings, std::vector<table::Table*> games, journal::Journal& journal,
                  std::function<std::int64_t()> now);

    void pressed(std::size_t input);  // index into settings.points.inputs
    void expire(std::int64_t nowMs);  // an armed action past its window lapses (in every game)
    [[nodiscard]] std::uint64_t presses() const { return presses_; }

private:
    struct Armed {
        ButtonAction action;
        std::string button;
        std::int64_t until = 0;
    };
    void journal(const journal::ButtonPressedRecord& record, const table::Table& game);
    // Asks the game; `answered` gets its reply (one reply even where the action asks several times).
    static void carryOut(table::Table& game, ButtonAction action, std::function<void(const table::Reply&)> answered);

    const TableIoSettings& settings_;
    std::vector<table::Table*> games_;
    journal::Journal& journal_;
    std::function<std::int64_t()> now_;
    std::map<std::size_t, Armed> armed_;  // per game (an index into games_)
    std::uint64_t presses_ = 0;
};

}  // namespace pitlink::modbus
