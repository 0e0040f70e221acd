#pragma once
// The thread libmodbus blocks on (DESIGN.md rule 2): the logic thread hands it one poll cycle at
// a time and gets the result posted back, so a device that stops answering delays only the
// lamps and buttons, never the table.
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "protocols/modbus/io_cycle.h"
#include "protocols/modbus/modbus_device.h"

namespace pitlink::modbus {

class ModbusWorker {
public:
    using Post = std::function<void(std::function<void()>)>;  // onto the logic thread
    using Done = std::function<void(CycleResult)>;

    ModbusWorker(std::unique_ptr<ModbusDevice> device, Post post);
    ~ModbusWorker();  // finishes the cycle under way, closes the device
    ModbusWorker(const ModbusWorker&) = delete;
    ModbusWorker& operator=(const ModbusWorker&) = delete;

    // One cycle at a time: the caller waits for `done` before the next.
    void submit(CycleRequest request, Done done);

private:
    void run();

    std::unique_ptr<ModbusDevice> device_;
    Post post_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<std::pair<CycleRequest, Done>> job_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace pitlink::modbus
