#include "daemon/platform/os_random_source.h"

#include <sys/random.h>

#include <cerrno>
#include <system_error>

namespace pitlink::platform {

std::uint64_t OsRandomSource::next64() {
    if (next_ == buffer_.size()) {
        refill();
    }
    return buffer_[next_++];
}

void OsRandomSource::refill() {
    auto* bytes = reinterpret_cast<unsigned char*>(buffer_.data());
    std::size_t filled = 0;
    const std::size_t want = sizeof(buffer_);
    while (filled < want) {
        // Blocks only until the kernel pool is initialised at boot; never returns short data silently.
        const ssize_t n = getrandom(bytes + filled, want - filled, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        filled += static_cast<std::size_t>(n);
    }
    next_ = 0;
}

}  // namespace pitlink::platform
