#pragma once
// The ModbusDevice of a real module, through libmodbus (TCP or RTU). Blocking: used only on the
// Modbus worker thread. The libmodbus context is hidden here so that nothing else includes it.
#include <memory>

#include "protocols/modbus/connection_settings.h"
#include "protocols/modbus/modbus_device.h"

namespace pitlink::modbus {

[[nodiscard]] std::unique_ptr<ModbusDevice> makeLibmodbusDevice(const ConnectionSettings& settings);

}  // namespace pitlink::modbus
