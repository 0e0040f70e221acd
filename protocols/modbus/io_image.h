#pragma once
// What pitlink writes to and reads from the module in one poll cycle, as Modbus sees it: the
// output image (every lamp coil, every owned holding register) and the contiguous runs that
// write it in as few requests as possible; the read plan of the inputs and their decoding.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "protocols/modbus/point_map.h"

namespace pitlink::modbus {

inline constexpr std::uint16_t kMaxReadBits = 2000;       // Modbus function 02 limit
inline constexpr std::uint16_t kMaxReadRegisters = 125;   // Modbus function 04 limit
inline constexpr std::uint16_t kMaxWriteBits = 1968;      // function 0F
inline constexpr std::uint16_t kMaxWriteRegisters = 123;  // function 10

struct OutputImage {
    std::map<std::uint16_t, bool> coils;
    std::map<std::uint16_t, std::uint16_t> registers;  // holding registers with lamp bits
    bool operator==(const OutputImage&) const = default;
};

// `lit[i]` is whether map.outputs[i] is on now.
[[nodiscard]] OutputImage outputImageOf(const PointMap& map, const std::vector<bool>& lit);

// The part of `next` that differs from `written` (everything when nothing was written).
[[nodiscard]] OutputImage changedPart(const OutputImage& next, const OutputImage* written);

template <typename T>
struct Run {
    std::uint16_t start = 0;
    std::vector<T> values;
    bool operator==(const Run&) const = default;
};
using CoilRun = Run<bool>;
using RegisterRun = Run<std::uint16_t>;

// Consecutive addresses grouped into one write each (up to the request's limit).
[[nodiscard]] std::vector<CoilRun> coilRuns(const std::map<std::uint16_t, bool>& coils);
[[nodiscard]] std::vector<RegisterRun> registerRuns(const std::map<std::uint16_t, std::uint16_t>& registers);

// One read of the discrete inputs and one of the input registers, spanning every input (and
// every input's counter register).
struct ReadPlan {
    std::uint16_t discreteStart = 0;
    std::uint16_t discreteCount = 0;  // 0: no discrete inputs
    std::uint16_t registerStart = 0;
    std::uint16_t registerCount = 0;
    bool operator==(const ReadPlan&) const = default;
};
[[nodiscard]] ReadPlan readPlanOf(const PointMap& map);

// What the reads returned, as `pressed` per map.inputs (active-low inputs inverted).
[[nodiscard]] std::vector<bool> decodeInputs(const PointMap& map, const ReadPlan& plan,
                                             const std::vector<bool>& discrete,
                                             const std::vector<std::uint16_t>& registers);

}  // namespace pitlink::modbus

namespace pitlink::modbus {

// Each input's counter register as read (nullopt: the input has none).
[[nodiscard]] std::vector<std::optional<std::uint16_t>> decodeCounters(const PointMap& map, const ReadPlan& plan,
                                                                       const std::vector<std::uint16_t>& registers);

// The presses a counter shows since `before` (a 16-bit counter that wraps).
[[nodiscard]] constexpr std::uint16_t countedSince(std::uint16_t before, std::uint16_t now) {
    return static_cast<std::uint16_t>(now - before);
}

}  // namespace pitlink::modbus
