#include "protocols/modbus/point_map.h"

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

std::vector<std::string> pointMapProblems(const PointMap& map) {
    std::vector<std::string> problems;
    std::set<std::string> names;
    std::set<std::pair<int, std::uint32_t>> used;  // (kind, address << 4 | bit)
    for (const auto& o : map.outputs) {
        if (!names.insert(o.name).second) {
            problems.push_back("the name '" + o.name + "' is used twice");
        }
        if (o.bit > 15) {
            problems.push_back(o.name + ": bit " + std::to_string(o.bit) + " (a register has bits 0-15)");
        }
        const std::uint8_t bit = o.kind == OutputKind::Coil ? 0 : o.bit;
        if (!used.insert({static_cast<int>(o.kind), (std::uint32_t{o.address} << 4U) | bit}).second) {
            problems.push_back(o.name + ": " + where(o.kind, o.address, bit) + " drives another lamp too");
        }
    }
    for (const auto& i : map.inputs) {
        if (!names.insert(i.name).second) {
            problems.push_back("the name '" + i.name + "' is used twice");
        }
        if (i.bit > 15) {
            problems.push_back(i.name + ": bit " + std::to_string(i.bit) + " (a register has bits 0-15)");
        }
    }
    // Inputs are read in one request per kind: their addresses must fit in it.
    const ReadPlan plan = readPlanOf(map);
    if (plan.discreteCount > kMaxReadBits) {
        problems.push_back("discrete inputs span " + std::to_string(plan.discreteCount) + " addresses (at most " +
                           std::to_string(kMaxReadBits) + " in one read)");
    }
    if (plan.registerCount > kMaxReadRegisters) {
        problems.push_back("input registers span " + std::to_string(plan.registerCount) + " addresses (at most " +
                           std::to_string(kMaxReadRegisters) + " in one read)");
    }
    return problems;
}

}  // namespace pitlink::modbus
