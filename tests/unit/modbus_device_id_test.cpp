// Modbus 43/14 Read Device Identification answers and the frames the adapter builds for it, from
// bytes written out here by hand (the specification's layout), and the CRC-16/MODBUS against the
// frame every Modbus RTU guide quotes (01 03 00 00 00 0A -> C5 CD).
#include <gtest/gtest.h>

#include <cstdint>
#include <variant>
#include <vector>

#include "protocols/modbus/device_identification.h"
#include "protocols/modbus/io_image.h"

namespace pitlink::modbus {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(DeviceIdentification, TheBasicObjectsAreRead) {
    const Bytes pdu{0x2B, 0x0E, 0x01, 0x81, 0x00, 0x00, 0x03, 0x00, 0x04, 'W',  'A',  'G', 'O',
                    0x01, 0x07, '7',  '5',  '0',  '-',  '3',  '5',  '2',  0x02, 0x02, '1', '9'};
    const auto parsed = parseDeviceIdAnswer(pdu);
    ASSERT_TRUE(std::holds_alternative<DeviceIdChunk>(parsed)) << std::get<DeviceIdError>(parsed).message;
    const auto& chunk = std::get<DeviceIdChunk>(parsed);
    EXPECT_EQ(chunk.objects.at(0), "WAGO");
    EXPECT_EQ(chunk.objects.at(1), "750-352");
    EXPECT_EQ(chunk.objects.at(2), "19");
    EXPECT_EQ(chunk.conformity, 0x81);
    EXPECT_FALSE(chunk.moreFollows);
    EXPECT_EQ(deviceIdObjectName(1), "product_code");
    EXPECT_EQ(deviceIdObjectName(9), "object 9");
}

TEST(DeviceIdentification, MoreFollowsNamesTheNextObject) {
    const Bytes pdu{0x2B, 0x0E, 0x01, 0x01, 0xFF, 0x02, 0x02, 0x00, 0x01, 'A', 0x01, 0x01, 'B'};
    const auto parsed = parseDeviceIdAnswer(pdu);
    ASSERT_TRUE(std::holds_alternative<DeviceIdChunk>(parsed));
    const auto& chunk = std::get<DeviceIdChunk>(parsed);
    EXPECT_TRUE(chunk.moreFollows);
    EXPECT_EQ(chunk.nextObjectId, 2);
}

TEST(DeviceIdentification, WhatDoesNotAddUpIsRefusedWithoutReadingPastTheEnd) {
    const auto error = [](const Bytes& pdu) {
        const auto parsed = parseDeviceIdAnswer(pdu);
        return std::holds_alternative<DeviceIdError>(parsed) ? std::get<DeviceIdError>(parsed).message : "";
    };
    EXPECT_EQ(error({0xAB, 0x01}), "exception 1 (function 43/14 not offered)");
    EXPECT_EQ(error({0x2B, 0x0E, 0x01}), "answer of 3 bytes (at least 7)");
    EXPECT_EQ(error({0x03, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x00}), "not a 43/14 answer");
    EXPECT_EQ(error({0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x02, 0x00, 0x01, 'A'}), "object 1 of 2 is missing");
    EXPECT_EQ(error({0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x09, 'A'}), "object 0 is cut short");
    EXPECT_EQ(error({0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 'A', 'Z'}), "1 bytes after the last object");
    EXPECT_EQ(error({0x2B, 0x0E, 0x01, 0x01, 0x07, 0x00, 0x00}), "more-follows byte 7 (00 or FF)");
    EXPECT_EQ(error({0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x02, 0x00, 0x01, 'A', 0x00, 0x01, 'B'}),
              "object 0 given twice");
}

TEST(ModbusFrames, CrcOfTheTextbookFrame) {
    const Bytes frame{0x01, 0x03, 0x00, 0x00, 0x00, 0x0A};
    EXPECT_EQ(modbusCrc(frame), 0xCDC5);
    const Bytes pdu{0x03, 0x00, 0x00, 0x00, 0x0A};
    EXPECT_EQ(rtuFrame(1, pdu), (Bytes{0x01, 0x03, 0x00, 0x00, 0x00, 0x0A, 0xC5, 0xCD}));
}

TEST(ModbusFrames, RtuAnswersAreCheckedForUnitAndCrc) {
    const Bytes pdu{0x2B, 0x0E, 0x01, 0x01, 0x00, 0x00, 0x00};
    Bytes frame = rtuFrame(7, pdu);
    EXPECT_EQ(rtuPdu(frame, 7), pdu);
    EXPECT_FALSE(rtuPdu(frame, 8).has_value());
    frame[3] ^= 0x40U;
    EXPECT_FALSE(rtuPdu(frame, 7).has_value());
    EXPECT_FALSE(rtuPdu(Bytes{0x07, 0x2B}, 7).has_value());
}

TEST(ModbusFrames, TcpFramesCarryTransactionLengthAndUnit) {
    const Bytes pdu{0x2B, 0x0E, 0x01, 0x00};
    const Bytes frame = tcpFrame(0x8001, 5, pdu);
    EXPECT_EQ(frame, (Bytes{0x80, 0x01, 0x00, 0x00, 0x00, 0x05, 0x05, 0x2B, 0x0E, 0x01, 0x00}));
    EXPECT_EQ(tcpPdu(frame, 0x8001, 5), pdu);
    EXPECT_FALSE(tcpPdu(frame, 0x8002, 5).has_value());  // another request's answer
    EXPECT_FALSE(tcpPdu(frame, 0x8001, 4).has_value());
    Bytes shortened(frame.begin(), frame.end() - 1);
    EXPECT_FALSE(tcpPdu(shortened, 0x8001, 5).has_value());
}

TEST(EdgeCounters, PressesSinceTheLastReadingAcrossTheWrap) {
    EXPECT_EQ(countedSince(10, 13), 3);
    EXPECT_EQ(countedSince(65'534, 1), 3);
    EXPECT_EQ(countedSince(7, 7), 0);
    PointMap m;
    m.inputs = {{"deal", InputKind::DiscreteInput, 0, 0, false, std::uint16_t{30}},
                {"key", InputKind::InputRegisterBit, 20, 1, false, std::nullopt}};
    const ReadPlan plan = readPlanOf(m);
    EXPECT_EQ(plan.registerStart, 20);
    EXPECT_EQ(plan.registerCount, 11);
    std::vector<std::uint16_t> registers(11, 0);
    registers[10] = 42;
    const auto counts = decodeCounters(m, plan, registers);
    EXPECT_EQ(counts, (std::vector<std::optional<std::uint16_t>>{42, std::nullopt}));
}

}  // namespace
}  // namespace pitlink::modbus
