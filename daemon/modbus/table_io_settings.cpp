#include "daemon/modbus/table_io_settings.h"

#include <array>

namespace pitlink::modbus {

namespace {
constexpr std::array<std::string_view, 5> kActionNames{"close_bets", "new_shoe", "void_round", "attendant_key", "confirm"};
}

std::optional<ButtonAction> parseButtonAction(std::string_view name) {
    for (std::size_t i = 0; i < kActionNames.size(); ++i) {
        if (kActionNames[i] == name) {
            return static_cast<ButtonAction>(i);
        }
    }
    return std::nullopt;
}

std::string_view buttonActionName(ButtonAction action) { return kActionNames.at(static_cast<std::size_t>(action)); }

}  // namespace pitlink::modbus
