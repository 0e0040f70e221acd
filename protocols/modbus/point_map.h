#pragma once
// The table's Modbus I/O module as pitlink.yaml describes it: named lamp outputs (coils, or bits
// of holding registers that pitlink owns whole) and named button inputs (discrete inputs, or bits
// of input registers). Parsing is the configuration's; this checks that the points fit together.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pitlink::modbus {

enum class OutputKind : std::uint8_t { Coil, HoldingRegisterBit };
enum class InputKind : std::uint8_t { DiscreteInput, InputRegisterBit };

struct OutputPoint {
    std::string name;
    OutputKind kind = OutputKind::Coil;
    std::uint16_t address = 0;
    std::uint8_t bit = 0;  // 0..15, register bits only
    bool operator==(const OutputPoint&) const = default;
};

struct InputPoint {
    std::string name;
    InputKind kind = InputKind::DiscreteInput;
    std::uint16_t address = 0;
    std::uint8_t bit = 0;    // 0..15, register bits only
    bool activeLow = false;  // pressed reads 0 (normally-closed contacts)
    // An input register where the module counts this input's rising edges (a counter or latch
    // function): a tap shorter than a poll period is still counted.
    std::optional<std::uint16_t> counter;
    bool operator==(const InputPoint&) const = default;
};

struct PointMap {
    std::vector<OutputPoint> outputs;
    std::vector<InputPoint> inputs;
    bool operator==(const PointMap&) const = default;
};

// One thing that does not fit, and where: an output (a lamp), an input, or the map as a whole.
struct PointProblem {
    enum class Where : std::uint8_t { Output, Input, Map } where = Where::Map;
    std::size_t index = 0;  // into outputs or inputs
    std::string message;
};

// What does not fit: a name used twice, two outputs on the same coil or register bit, two inputs
// on the same discrete input or register bit, a bit above 15, a span of addresses too long for
// one Modbus request. Empty when the map is sound.
[[nodiscard]] std::vector<PointProblem> pointMapProblems(const PointMap& map);

}  // namespace pitlink::modbus
