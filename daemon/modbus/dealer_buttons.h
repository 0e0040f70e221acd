#pragma once
// What a dealer button press does: journaled first (button.pressed, with what it did), then
// carried out by the table once that has committed. Buttons that need confirming are armed by
// their press and carried out by a press of `confirm` within the window; an armed action that is
// not confirmed in time lapses.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "daemon/config/modbus_settings.h"
#include "daemon/journal/journal.h"
#include "daemon/table/table.h"

namespace pitlink::modbus {

class DealerButtons {
public:
    DealerButtons(const TableIoSettings& settings, table::Table& table, journal::Journal& journal,
                  std::function<std::int64_t()> now);

    void pressed(std::size_t input);  // index into settings.points.inputs
    void expire(std::int64_t nowMs);  // an armed action past its window lapses
    [[nodiscard]] std::uint64_t presses() const { return presses_; }

private:
    struct Armed {
        ButtonAction action;
        std::string button;
        std::int64_t until = 0;
    };
    void journalThen(const nlohmann::json& body, std::function<void()> act);
    void carryOut(ButtonAction action, const std::string& button);

    const TableIoSettings& settings_;
    table::Table& table_;
    journal::Journal& journal_;
    std::function<std::int64_t()> now_;
    std::optional<Armed> armed_;
    std::uint64_t presses_ = 0;
};

}  // namespace pitlink::modbus
