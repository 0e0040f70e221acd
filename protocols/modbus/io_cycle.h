#pragma once
// One poll cycle against the module, run on the Modbus worker thread: connect if needed (then
// the set-up writes, e.g. the module's watchdog, and its identity where asked); write the lamps
// (the whole image after a (re)connect, otherwise only what changed); read the outputs back
// where asked (after a full write, and periodically) so that a stuck output is found; read the
// buttons. A request that fails is tried again (`retries`) before the cycle fails: one bad frame
// is a transient error, counted, not an outage. A cycle that fails closes the connection, so that
// the next one starts with a reconnect and a full write.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocols/modbus/io_image.h"
#include "protocols/modbus/modbus_device.h"

namespace pitlink::modbus {

// A write made after every connect, before the lamps: holding registers (function 10) or coils
// (function 0F, values 0/1). How a module's watchdog is armed.
struct SetupWrite {
    bool coils = false;
    std::uint16_t address = 0;
    std::vector<std::uint16_t> values;
    bool operator==(const SetupWrite&) const = default;
};

struct CycleRequest {
    OutputImage image;          // the lamps as they should be now
    OutputImage written;        // what the device holds from earlier cycles
    bool writtenValid = false;  // false: write everything (start, or after a failure)
    ReadPlan plan;
    bool readBack = false;  // read the outputs back even without a full write
    bool identify = false;  // after a connect: read the device identification (43/14)
    int retries = 1;
    std::vector<SetupWrite> setup;  // after a connect
    std::vector<SetupWrite> final;  // at the end of this cycle (the last one, at a clean stop)
};

struct CycleResult {
    bool ok = false;
    std::string error;                            // why not
    bool connected = false;                       // this cycle opened the connection
    bool fullWrite = false;                       // the whole image was written
    bool setupWritten = false;                    // this cycle made the set-up writes
    std::size_t requests = 0;                     // Modbus requests made
    std::vector<std::string> transientErrors;     // requests that failed and then succeeded when tried again
    OutputImage written;                          // valid when ok
    std::optional<OutputImage> readBack;          // what the module holds, where read back
    std::map<std::string, std::string> identity;  // where identified: object name -> value
    std::string identityError;                    // asked but not identified
    std::vector<bool> discrete;
    std::vector<std::uint16_t> registers;
};

[[nodiscard]] CycleResult runCycle(ModbusDevice& device, const CycleRequest& request);

// The outputs whose read-back value differs from what was written, with what the module holds.
struct Mismatch {
    std::size_t output = 0;  // index into the point map's outputs
    bool holds = false;      // what the module holds for it
};
[[nodiscard]] std::vector<Mismatch> mismatches(const PointMap& map, const OutputImage& written,
                                               const OutputImage& readBack);

}  // namespace pitlink::modbus
