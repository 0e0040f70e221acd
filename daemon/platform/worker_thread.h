#pragma once
// A Worker on a thread of its own: the one helper behind the journal writer, the journal reader,
// the integrity scan and the Modbus worker.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "daemon/platform/worker.h"

namespace pitlink::platform {

class WorkerThread final : public Worker {
public:
    WorkerThread() : thread_([this] { loop(); }) {}
    ~WorkerThread() override { stop(); }
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    void run(std::function<void()> job) override;
    void stop() override;  // finishes the jobs given, then joins

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace pitlink::platform
