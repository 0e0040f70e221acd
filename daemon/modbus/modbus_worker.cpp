#include "daemon/modbus/modbus_worker.h"

namespace pitlink::modbus {

ModbusWorker::ModbusWorker(std::unique_ptr<ModbusDevice> device, Post post)
    : device_(std::move(device)), post_(std::move(post)), thread_([this] { run(); }) {}

ModbusWorker::~ModbusWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
    device_->close();
}

void ModbusWorker::submit(CycleRequest request, Done done) {
    {
        std::lock_guard lock(mutex_);
        job_.emplace(std::move(request), std::move(done));
    }
    wake_.notify_one();
}

void ModbusWorker::run() {
    for (;;) {
        std::pair<CycleRequest, Done> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || job_; });
            if (stopping_) {
                return;
            }
            job = std::move(*job_);
            job_.reset();
        }
        CycleResult result = runCycle(*device_, job.first);
        post_([done = std::move(job.second), result = std::move(result)]() mutable { done(std::move(result)); });
    }
}

}  // namespace pitlink::modbus
