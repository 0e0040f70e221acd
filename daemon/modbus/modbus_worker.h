#pragma once
// Where libmodbus blocks (docs/design.md rule 2): the logic thread hands a worker one poll cycle at a
// time and gets the result posted back, so a device that stops answering delays only the lamps
// and buttons, never the table.
#include <functional>
#include <memory>

#include "daemon/platform/executor.h"
#include "daemon/platform/worker.h"
#include "protocols/modbus/io_cycle.h"
#include "protocols/modbus/modbus_device.h"

namespace pitlink::modbus {

class ModbusWorker {
public:
    using Done = std::function<void(CycleResult)>;

    // On a thread of its own.
    ModbusWorker(std::unique_ptr<ModbusDevice> device, platform::Executor& executor);
    // On `worker` (the simulation tier's).
    ModbusWorker(std::unique_ptr<ModbusDevice> device, std::unique_ptr<platform::Worker> worker,
                 platform::Executor& executor);
    ~ModbusWorker();  // finishes the cycle under way, closes the device
    ModbusWorker(const ModbusWorker&) = delete;
    ModbusWorker& operator=(const ModbusWorker&) = delete;

    // One cycle at a time: the caller waits for `done` before the next.
    void submit(CycleRequest request, Done done);

private:
    std::unique_ptr<ModbusDevice> device_;
    platform::Executor& executor_;
    std::unique_ptr<platform::Worker> worker_;  // last: stopped first, before the device goes
};

}  // namespace pitlink::modbus
