#pragma once
// One poll cycle against the module, run on the Modbus worker thread: connect if needed; write
// the lamps (the whole image after a (re)connect, read back to prove it took, otherwise only
// what changed); read the buttons. Any failure closes the connection, so that the next cycle
// starts with a reconnect and a full write.
#include <cstdint>
#include <string>
#include <vector>

#include "protocols/modbus/io_image.h"
#include "protocols/modbus/modbus_device.h"

namespace pitlink::modbus {

struct CycleRequest {
    OutputImage image;          // the lamps as they should be now
    OutputImage written;        // what the device holds from earlier cycles
    bool writtenValid = false;  // false: write everything (start, or after a failure)
    ReadPlan plan;
};

struct CycleResult {
    bool ok = false;
    std::string error;         // why not
    bool connected = false;    // this cycle opened the connection
    bool fullWrite = false;    // the whole image was written and read back
    std::size_t requests = 0;  // Modbus requests made
    OutputImage written;       // valid when ok
    std::vector<bool> discrete;
    std::vector<std::uint16_t> registers;
};

[[nodiscard]] CycleResult runCycle(ModbusDevice& device, const CycleRequest& request);

}  // namespace pitlink::modbus
