// SAS CRC, BCD and secure enhanced validation against the reference vectors
// (tests/fixtures/sas, copied from the project's shared vectors with their sources).
#include <gtest/gtest.h>

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/secure_enhanced_validation.h"
#include "tests/support/fixture_csv.h"
#include "tests/support/hex.h"

namespace pitlink::sas {
namespace {

using test::bytes;
using test::hex;

std::vector<std::vector<std::string>> csvRows(const std::string& name) {
    return test::fixtureCsv("sas/" + name);
}

TEST(SasCrc, CheckValueAndByteOrder) {
    const std::string check = "123456789";
    EXPECT_EQ(crc16Kermit(std::span(reinterpret_cast<const std::uint8_t*>(check.data()), check.size())), 0x2189);
    std::vector<std::uint8_t> frame = bytes("01 01");
    appendCrc(frame);
    EXPECT_EQ(hex(frame), "01 01 51 08");  // LP 01 to address 1 (frames_misc.csv): low byte first
    EXPECT_TRUE(crcMatches(frame));
    frame[1] = 0x02;
    EXPECT_FALSE(crcMatches(frame));
}

TEST(SasCrc, EveryCapturedFrameWithACrcPasses) {
    int checked = 0;
    for (const auto& row : csvRows("capture_ncompass_aristocrat_addr1.csv")) {
        const std::vector<std::uint8_t> frame = bytes(row.at(3));
        if (frame.size() < 4) {
            continue;  // ACKs, type R polls, general polls: no CRC
        }
        EXPECT_TRUE(crcMatches(frame)) << row.at(0) << ": " << row.at(3);
        ++checked;
    }
    EXPECT_GE(checked, 30);
    for (const auto& row : csvRows("frames_misc.csv")) {
        if (row.at(0) != "none") {
            EXPECT_TRUE(crcMatches(bytes(row.at(1)))) << row.at(1);
        }
    }
}

TEST(SasBcd, MetersAndRollOver) {
    EXPECT_EQ(hex(toBcd(452040, 4)), "00 45 20 40");  // coin in of the capture's LP 19 answer
    EXPECT_EQ(hex(toBcd(16660, 4)), "00 01 66 60");
    EXPECT_EQ(hex(toBcd(123456789, 4)), "23 45 67 89");  // a 4-byte meter keeps its low 8 digits
    EXPECT_EQ(fromBcd(bytes("00 45 20 40")), 452040U);
    EXPECT_EQ(fromBcd(bytes("11 27 20 25")), 11272025U);
    EXPECT_FALSE(fromBcd(bytes("00 4A")).has_value());
    EXPECT_FALSE(fromBcd(bytes("99 99 99 99 99 99 99 99 99 99")).has_value());  // 20 digits
    EXPECT_EQ(fromBcd(bytes("00 00 00 00 00 00 00 00 00 01")), 1U);             // leading zeros are fine
}

TEST(SasSecureEnhancedValidation, TheWorkedExampleOfTheSpecification) {
    for (const auto& row : csvRows("secure_enhanced_validation.csv")) {
        const auto id = static_cast<std::uint32_t>(std::stoul(row.at(0), nullptr, 16));
        const auto sequence = static_cast<std::uint32_t>(std::stoul(row.at(1), nullptr, 16));
        EXPECT_EQ(secureEnhancedValidationNumber(id, sequence), row.at(2));
    }
    EXPECT_EQ(hex(secureEnhancedValidation(0x654321, 1)), "00 64 29 18 81 85 44 61 04");
    // The next sequence gives another number of the same shape.
    const std::string next = secureEnhancedValidationNumber(0x654321, 2);
    EXPECT_EQ(next.size(), 18U);
    EXPECT_NE(next, "006429188185446104");
}

}  // namespace
}  // namespace pitlink::sas
