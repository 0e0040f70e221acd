#include "protocols/modbus/connection_settings.h"

namespace pitlink::modbus {

std::string describe(const ConnectionSettings& c) {
    if (c.transport == Transport::Tcp) {
        return "tcp " + c.host + ":" + std::to_string(c.port) + " unit " + std::to_string(c.unitId);
    }
    return "rtu " + c.device + " " + std::to_string(c.baud) + " " + std::to_string(c.dataBits) + c.parity +
           std::to_string(c.stopBits) + " unit " + std::to_string(c.unitId);
}

}  // namespace pitlink::modbus
