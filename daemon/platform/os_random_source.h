#pragma once
// The operating system's CSPRNG (getrandom(2)) as a RandomSource: what live shoes are shuffled with.

#include <array>
#include <cstddef>
#include <cstdint>

#include "daemon/game/random_source.h"

namespace pitlink::platform {

class OsRandomSource final : public game::RandomSource {
public:
    std::uint64_t next64() override;

private:
    void refill();

    // Bytes are fetched in blocks: one system call per 512 draws instead of one per draw.
    std::array<std::uint64_t, 512> buffer_{};
    std::size_t next_ = buffer_.size();
};

}  // namespace pitlink::platform
