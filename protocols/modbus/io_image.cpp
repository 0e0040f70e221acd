#include "protocols/modbus/io_image.h"

#include <algorithm>

namespace pitlink::modbus {

OutputImage outputImageOf(const PointMap& map, const std::vector<bool>& lit) {
    OutputImage image;
    for (std::size_t i = 0; i < map.outputs.size(); ++i) {
        const OutputPoint& o = map.outputs[i];
        const bool on = i < lit.size() && lit[i];
        if (o.kind == OutputKind::Coil) {
            image.coils[o.address] = on;
        } else {
            // pitlink owns the whole register: bits without a lamp are written 0.
            std::uint16_t& value = image.registers[o.address];
            const auto mask = static_cast<std::uint16_t>(1U << o.bit);
            value = static_cast<std::uint16_t>(on ? value | mask : value & ~mask);
        }
    }
    return image;
}

OutputImage changedPart(const OutputImage& next, const OutputImage* written) {
    if (written == nullptr) {
        return next;
    }
    OutputImage changed;
    for (const auto& [address, on] : next.coils) {
        const auto it = written->coils.find(address);
        if (it == written->coils.end() || it->second != on) {
            changed.coils[address] = on;
        }
    }
    for (const auto& [address, value] : next.registers) {
        const auto it = written->registers.find(address);
        if (it == written->registers.end() || it->second != value) {
            changed.registers[address] = value;
        }
    }
    return changed;
}

namespace {

template <typename T>
std::vector<Run<T>> runsOf(const std::map<std::uint16_t, T>& values, std::size_t limit) {
    std::vector<Run<T>> runs;
    for (const auto& [address, value] : values) {
        if (runs.empty() || runs.back().values.size() >= limit ||
            runs.back().start + runs.back().values.size() != address) {
            runs.push_back(Run<T>{address, {}});
        }
        runs.back().values.push_back(value);
    }
    return runs;
}

}  // namespace

std::vector<CoilRun> coilRuns(const std::map<std::uint16_t, bool>& coils) {
    return runsOf(coils, kMaxWriteBits);
}

std::vector<RegisterRun> registerRuns(const std::map<std::uint16_t, std::uint16_t>& registers) {
    return runsOf(registers, kMaxWriteRegisters);
}

ReadPlan readPlanOf(const PointMap& map) {
    ReadPlan plan;
    std::uint32_t dLow = 0xFFFF;
    std::uint32_t dHigh = 0;
    std::uint32_t rLow = 0xFFFF;
    std::uint32_t rHigh = 0;
    bool anyD = false;
    bool anyR = false;
    for (const auto& i : map.inputs) {
        if (i.kind == InputKind::DiscreteInput) {
            anyD = true;
            dLow = std::min<std::uint32_t>(dLow, i.address);
            dHigh = std::max<std::uint32_t>(dHigh, i.address);
        } else {
            anyR = true;
            rLow = std::min<std::uint32_t>(rLow, i.address);
            rHigh = std::max<std::uint32_t>(rHigh, i.address);
        }
        if (i.counter) {
            anyR = true;
            rLow = std::min<std::uint32_t>(rLow, *i.counter);
            rHigh = std::max<std::uint32_t>(rHigh, *i.counter);
        }
    }
    if (anyD) {
        plan.discreteStart = static_cast<std::uint16_t>(dLow);
        plan.discreteCount = static_cast<std::uint16_t>(std::min<std::uint32_t>(dHigh - dLow + 1, 0xFFFF));
    }
    if (anyR) {
        plan.registerStart = static_cast<std::uint16_t>(rLow);
        plan.registerCount = static_cast<std::uint16_t>(std::min<std::uint32_t>(rHigh - rLow + 1, 0xFFFF));
    }
    return plan;
}

std::vector<bool> decodeInputs(const PointMap& map, const ReadPlan& plan, const std::vector<bool>& discrete,
                               const std::vector<std::uint16_t>& registers) {
    std::vector<bool> pressed;
    pressed.reserve(map.inputs.size());
    for (const auto& i : map.inputs) {
        bool level = false;
        if (i.kind == InputKind::DiscreteInput) {
            const std::size_t at = static_cast<std::size_t>(i.address - plan.discreteStart);
            level = at < discrete.size() && discrete[at];
        } else {
            const std::size_t at = static_cast<std::size_t>(i.address - plan.registerStart);
            level = at < registers.size() && ((registers[at] >> i.bit) & 1U) != 0;
        }
        pressed.push_back(level != i.activeLow);
    }
    return pressed;
}

std::vector<std::optional<std::uint16_t>> decodeCounters(const PointMap& map, const ReadPlan& plan,
                                                         const std::vector<std::uint16_t>& registers) {
    std::vector<std::optional<std::uint16_t>> counts;
    counts.reserve(map.inputs.size());
    for (const auto& i : map.inputs) {
        std::optional<std::uint16_t> count;
        if (i.counter && *i.counter >= plan.registerStart) {
            const std::size_t at = static_cast<std::size_t>(*i.counter - plan.registerStart);
            if (at < registers.size()) {
                count = registers[at];
            }
        }
        counts.push_back(count);
    }
    return counts;
}

}  // namespace pitlink::modbus
