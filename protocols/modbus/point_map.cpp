#include "protocols/modbus/point_map.h"

#include <map>
#include <set>
#include <utility>

#include "protocols/modbus/io_image.h"

namespace pitlink::modbus {

namespace {

std::string where(OutputKind kind, std::uint16_t address, std::uint8_t bit) {
    return kind == OutputKind::Coil ? "coil " + std::to_string(address)
                                    : "holding register " + std::to_string(address) + " bit " + std::to_string(bit);
}

}  // namespace

std::vector<PointProblem> pointMapProblems(const PointMap& map) {
    using Where = PointProblem::Where;
    std::vector<PointProblem> problems;
    std::set<std::string> names;
    std::map<std::pair<int, std::uint32_t>, std::string> used;  // (kind, address << 4 | bit) -> point
    for (std::size_t n = 0; n < map.outputs.size(); ++n) {
        const OutputPoint& o = map.outputs[n];
        if (!names.insert(o.name).second) {
            problems.push_back({Where::Output, n, "the name '" + o.name + "' is used twice"});
        }
        if (o.bit > 15) {
            problems.push_back(
                {Where::Output, n, o.name + ": bit " + std::to_string(o.bit) + " (a register has bits 0-15)"});
        }
        const std::uint8_t bit = o.kind == OutputKind::Coil ? 0 : o.bit;
        const auto [it, fresh] =
            used.emplace(std::pair{static_cast<int>(o.kind), (std::uint32_t{o.address} << 4U) | bit}, o.name);
        if (!fresh) {
            problems.push_back(
                {Where::Output, n,
                 o.name + ": " + where(o.kind, o.address, bit) + " drives another lamp too (" + it->second + ")"});
        }
    }
    constexpr int kInputKinds = 2;  // apart from the output kinds in `used`
    for (std::size_t n = 0; n < map.inputs.size(); ++n) {
        const InputPoint& i = map.inputs[n];
        if (!names.insert(i.name).second) {
            problems.push_back({Where::Input, n, "the name '" + i.name + "' is used twice"});
        }
        if (i.bit > 15) {
            problems.push_back(
                {Where::Input, n, i.name + ": bit " + std::to_string(i.bit) + " (a register has bits 0-15)"});
        }
        const std::uint8_t bit = i.kind == InputKind::DiscreteInput ? 0 : i.bit;
        const auto [it, fresh] = used.emplace(
            std::pair{kInputKinds + static_cast<int>(i.kind), (std::uint32_t{i.address} << 4U) | bit}, i.name);
        if (!fresh) {
            problems.push_back(
                {Where::Input, n,
                 i.name + ": " +
                     (i.kind == InputKind::DiscreteInput
                          ? "discrete input " + std::to_string(i.address)
                          : "input register " + std::to_string(i.address) + " bit " + std::to_string(bit)) +
                     " is read by another input too (" + it->second + ")"});
        }
    }
    // A counter register is a whole input register of its own: not another input's counter, not
    // an input register whose bits are inputs.
    constexpr int kCounterKind = 4;
    for (std::size_t n = 0; n < map.inputs.size(); ++n) {
        const InputPoint& i = map.inputs[n];
        if (!i.counter) {
            continue;
        }
        const auto [it, fresh] = used.emplace(std::pair{kCounterKind, std::uint32_t{*i.counter}}, i.name);
        if (!fresh) {
            problems.push_back({Where::Input, n,
                                i.name + ": counter register " + std::to_string(*i.counter) +
                                    " is another input's counter too (" + it->second + ")"});
            continue;
        }
        for (const InputPoint& other : map.inputs) {
            if (other.kind == InputKind::InputRegisterBit && other.address == *i.counter) {
                problems.push_back({Where::Input, n,
                                    i.name + ": counter register " + std::to_string(*i.counter) +
                                        " holds the input bits of " + other.name});
                break;
            }
        }
    }
    // Inputs are read in one request per kind: their addresses must fit in it.
    const ReadPlan plan = readPlanOf(map);
    if (plan.discreteCount > kMaxReadBits) {
        problems.push_back({Where::Map, 0,
                            "discrete inputs span " + std::to_string(plan.discreteCount) + " addresses (at most " +
                                std::to_string(kMaxReadBits) + " in one read)"});
    }
    if (plan.registerCount > kMaxReadRegisters) {
        problems.push_back({Where::Map, 0,
                            "input registers (with counters) span " + std::to_string(plan.registerCount) +
                                " addresses (at most " + std::to_string(kMaxReadRegisters) + " in one read)"});
    }
    return problems;
}

}  // namespace pitlink::modbus
