#include "daemon/modbus/modbus_worker.h"

#include "daemon/platform/worker_thread.h"

namespace pitlink::modbus {

ModbusWorker::ModbusWorker(std::unique_ptr<ModbusDevice> device, platform::Executor& executor)
    : ModbusWorker(std::move(device), std::make_unique<platform::WorkerThread>(), executor) {}

ModbusWorker::ModbusWorker(std::unique_ptr<ModbusDevice> device, std::unique_ptr<platform::Worker> worker,
                           platform::Executor& executor)
    : device_(std::move(device)), executor_(executor), worker_(std::move(worker)) {}

ModbusWorker::~ModbusWorker() {
    worker_->stop();
    device_->close();
}

void ModbusWorker::submit(CycleRequest request, Done done) {
    worker_->run([this, request = std::move(request), done = std::move(done)]() mutable {
        CycleResult result = runCycle(*device_, request);
        executor_.post([done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
    });
}

}  // namespace pitlink::modbus
