#include "daemon/modbus/modbus_worker.h"

#include "daemon/platform/worker_thread.h"

namespace pitlink::modbus {

ModbusWorker::ModbusWorker(std::unique_ptr<ModbusDevice> device, Post post)
    : ModbusWorker(std::move(device), std::make_unique<platform::WorkerThread>(), std::move(post)) {}

ModbusWorker::ModbusWorker(std::unique_ptr<ModbusDevice> device, std::unique_ptr<platform::Worker> worker, Post post)
    : device_(std::move(device)), post_(std::move(post)), worker_(std::move(worker)) {}

ModbusWorker::~ModbusWorker() {
    worker_->stop();
    device_->close();
}

void ModbusWorker::submit(CycleRequest request, Done done) {
    worker_->run([this, request = std::move(request), done = std::move(done)]() mutable {
        CycleResult result = runCycle(*device_, request);
        post_([done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
    });
}

}  // namespace pitlink::modbus
