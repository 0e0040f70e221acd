#pragma once
// A SAS station's table side without ticketing, for tests and fuzzers of other polls (AFT,
// legacy bonusing): StationHostDouble's plain fields, and a TicketHost whose every ticket poll
// finds nothing to report.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "protocols/sas/ticket_host.h"
#include "tests/support/station_host_double.h"

namespace pitlink::test {

struct NoTicketsHost : StationHostDouble, sas::TicketHost {
    [[nodiscard]] std::optional<sas::PendingCashout> pendingCashout() const override { return std::nullopt; }
    sas::ValidationReceipt receiveValidation(std::uint8_t /*systemId*/, const std::string& /*number16*/) override {
        return sas::ValidationReceipt::NotInCashout;
    }
    std::optional<std::pair<std::uint32_t, std::uint32_t>> setValidationId(std::uint32_t /*machineId*/,
                                                                           std::uint32_t /*sequence*/) override {
        return std::pair<std::uint32_t, std::uint32_t>{0, 0};
    }
    std::optional<sas::ValidationRecord> validationRecord(std::uint8_t /*functionCode*/) override {
        return std::nullopt;
    }
    void recordAcknowledged() override {}
    std::optional<sas::EscrowedTicket> escrowedTicket() override { return std::nullopt; }
    sas::RedemptionStatus redeem(const sas::RedeemRequest& /*request*/) override { return {}; }
    sas::RedemptionStatus redemptionStatus() override { return {}; }
    [[nodiscard]] std::uint32_t assetNumber() const override { return asset; }
    [[nodiscard]] const sas::TicketSetup& ticketSetup() const override { return setup; }
    bool setTicketSetup(const sas::TicketSetup& s) override {
        setup = s;
        return true;
    }
    std::uint32_t asset = 1;
    sas::TicketSetup setup;
};

}  // namespace pitlink::test
