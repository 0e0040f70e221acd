#pragma once
// What a SAS station's polls reach on the table side (StationHost, MeterSource), as plain fields
// for tests and fuzzers: what the polls changed is read back from them.
#include <cstdint>
#include <map>
#include <optional>

#include "protocols/sas/long_poll_machine.h"
#include "protocols/sas/sas_station.h"

namespace pitlink::test {

struct StationHostDouble : sas::StationHost, sas::MeterSource {
    void setPlayEnabled(bool on) override { enabled = on; }
    bool setClock(const sas::SasDateTime& t) override {
        clockSet = t;
        return t.year >= earliestYear && t.month >= 1 && t.month <= 12;
    }
    [[nodiscard]] sas::SasDateTime clock() const override { return sas::SasDateTime{2026, 11, 22, 9, 30, 5}; }
    [[nodiscard]] std::optional<sas::HandpayInfo> pendingHandpay() const override { return handpay; }
    sas::HandpayResetResult remoteHandpayReset() override {
        if (!handpay) {
            return sas::HandpayResetResult::NotInHandpay;
        }
        handpay.reset();
        return sas::HandpayResetResult::Reset;
    }
    std::optional<std::uint16_t> romSignature(std::uint16_t seed) override {
        return signature ? std::optional<std::uint16_t>((*signature)(seed)) : std::nullopt;
    }
    void delayGame(std::chrono::milliseconds delay) override { delayed = delay; }
    [[nodiscard]] std::optional<std::uint64_t> meter(std::uint16_t code) const override {
        const auto it = meters.find(code);
        return it == meters.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
    }

    std::map<std::uint16_t, std::uint64_t> meters;  // a code not here is not kept (no answer for it)
    std::optional<sas::HandpayInfo> handpay;
    std::optional<bool> enabled;
    std::optional<sas::SasDateTime> clockSet;                  // the last LP 7F, accepted or not
    std::optional<std::chrono::milliseconds> delayed;          // the last LP 2E
    int earliestYear = 2026;                                   // an LP 7F before it is refused
    std::uint16_t (*signature)(std::uint16_t seed) = nullptr;  // LP 21; null: still computing
};

}  // namespace pitlink::test
