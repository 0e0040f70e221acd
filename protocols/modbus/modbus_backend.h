#pragma once
// The ModbusDevice of a real module, through libmodbus (TCP or RTU). Blocking: used only on the
// Modbus worker threads. The libmodbus context is hidden here so that nothing else includes it.
#include <map>
#include <memory>
#include <string>

#include "protocols/modbus/connection_settings.h"
#include "protocols/modbus/modbus_device.h"

namespace pitlink::modbus {

class LibmodbusBus;

// Where several modules are units on one serial port (RS-485), their devices share the port:
// one libmodbus context, one request at a time on the line.
class LibmodbusBuses {
public:
    [[nodiscard]] std::unique_ptr<ModbusDevice> device(const ConnectionSettings& settings);

private:
    std::map<std::string, std::shared_ptr<LibmodbusBus>> serialBuses_;  // by serial port path
};

// One module alone on its line.
[[nodiscard]] std::unique_ptr<ModbusDevice> makeLibmodbusDevice(const ConnectionSettings& settings);

}  // namespace pitlink::modbus
