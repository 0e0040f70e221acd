#pragma once
// Where shuffles get their randomness. Live tables use the operating system's CSPRNG
// (daemon/platform/os_random_source.h); SeededRandom is for tests and simulation only.

#include <array>
#include <cstdint>

namespace pitlink::game {

class RandomSource {
public:
    virtual ~RandomSource() = default;
    virtual std::uint64_t next64() = 0;  // 64 uniformly random bits
};

// Uniform integer in [0, bound), bound > 0, without modulo bias: Lemire's multiply-shift with
// rejection of the short interval ("Fast Random Integer Generation in an Interval", 2019).
std::uint64_t uniformBelow(RandomSource& source, std::uint64_t bound);

// xoshiro256** seeded through splitmix64: fast and reproducible. Not for live play.
class SeededRandom final : public RandomSource {
public:
    explicit SeededRandom(std::uint64_t seed);
    std::uint64_t next64() override;

private:
    std::array<std::uint64_t, 4> state_{};
};

}  // namespace pitlink::game
