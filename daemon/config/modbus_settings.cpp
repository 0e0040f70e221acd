#include "daemon/config/modbus_settings.h"

#include <array>

#include "protocols/modbus/enum_names.h"

namespace pitlink::modbus {

namespace {
constexpr std::array<std::string_view, 5> kActionNames{"close_bets", "new_shoe", "void_round", "attendant_key",
                                                       "confirm"};
}

std::optional<ButtonAction> parseButtonAction(std::string_view name) {
    return enumNamed<ButtonAction>(kActionNames, name);
}

std::string_view buttonActionName(ButtonAction action) {
    return nameOf(kActionNames, action);
}

ModulePoints pointsOf(const TableIoSettings& settings, std::size_t module) {
    ModulePoints points;
    const auto moduleOf = [module](const std::vector<std::size_t>& modules, std::size_t i) {
        return (i < modules.size() ? modules[i] : 0) == module;
    };
    for (std::size_t i = 0; i < settings.points.outputs.size(); ++i) {
        if (moduleOf(settings.outputModule, i)) {
            points.map.outputs.push_back(settings.points.outputs[i]);
            points.outputs.push_back(i);
        }
    }
    for (std::size_t i = 0; i < settings.points.inputs.size(); ++i) {
        if (moduleOf(settings.inputModule, i)) {
            points.map.inputs.push_back(settings.points.inputs[i]);
            points.inputs.push_back(i);
        }
    }
    return points;
}

std::size_t outputGameOf(const TableIoSettings& settings, std::size_t i) {
    return i < settings.outputGame.size() ? settings.outputGame[i] : 0;
}

std::size_t inputGameOf(const TableIoSettings& settings, std::size_t i) {
    return i < settings.inputGame.size() ? settings.inputGame[i] : 0;
}

}  // namespace pitlink::modbus
