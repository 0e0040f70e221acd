#include "protocols/sas/long_poll_table.h"

#include <array>
#include <utility>

namespace pitlink::sas {

namespace {

// (command, shape). Generated once from tests/fixtures/sas/lp_request_lengths.csv and the capture.
constexpr std::pair<std::uint8_t, RequestShape> kShapes[] = {
    {0x01, {4, false}}, {0x02, {4, false}},  {0x03, {4, false}},  {0x04, {4, false}},  {0x05, {4, false}},
    {0x06, {4, false}}, {0x07, {4, false}},  {0x08, {9, false}},  {0x09, {7, false}},  {0x0A, {4, false}},
    {0x0B, {4, false}}, {0x0E, {5, false}},  {0x0F, {2, false}},  {0x10, {2, false}},  {0x11, {2, false}},
    {0x12, {2, false}}, {0x13, {2, false}},  {0x14, {2, false}},  {0x15, {2, false}},  {0x16, {2, false}},
    {0x17, {2, false}}, {0x18, {2, false}},  {0x19, {2, false}},  {0x1A, {2, false}},  {0x1B, {2, false}},
    {0x1C, {2, false}}, {0x1E, {2, false}},  {0x1F, {2, false}},  {0x20, {2, false}},  {0x21, {6, false}},
    {0x2A, {2, false}}, {0x2B, {2, false}},  {0x2C, {2, false}},  {0x2D, {6, false}},  {0x2E, {6, false}},
    {0x2F, {5, true}},  {0x31, {2, false}},  {0x32, {2, false}},  {0x33, {2, false}},  {0x34, {2, false}},
    {0x35, {2, false}}, {0x36, {2, false}},  {0x37, {2, false}},  {0x38, {2, false}},  {0x39, {2, false}},
    {0x3A, {2, false}}, {0x3B, {2, false}},  {0x3C, {2, false}},  {0x3D, {2, false}},  {0x3E, {2, false}},
    {0x3F, {2, false}}, {0x40, {2, false}},  {0x41, {2, false}},  {0x42, {2, false}},  {0x43, {2, false}},
    {0x44, {2, false}}, {0x45, {2, false}},  {0x47, {2, false}},  {0x48, {2, false}},  {0x49, {2, false}},
    {0x4A, {2, false}}, {0x4C, {10, false}}, {0x4D, {5, false}},  {0x4F, {2, false}},  {0x50, {5, false}},
    {0x51, {2, false}}, {0x52, {6, false}},  {0x53, {6, false}},  {0x54, {2, false}},  {0x55, {2, false}},
    {0x56, {2, false}}, {0x57, {2, false}},  {0x58, {13, false}}, {0x5D, {2, false}},  {0x6E, {5, true}},
    {0x6F, {5, true}},  {0x70, {2, false}},  {0x71, {5, true}},   {0x72, {5, true}},   {0x73, {5, true}},
    {0x74, {8, false}}, {0x75, {5, true}},   {0x7A, {5, true}},   {0x7B, {5, true}},   {0x7C, {5, true}},
    {0x7D, {5, true}},  {0x7E, {2, false}},  {0x7F, {11, false}}, {0x80, {11, false}}, {0x83, {6, false}},
    {0x84, {2, false}}, {0x85, {2, false}},  {0x86, {5, true}},   {0x87, {2, false}},  {0x8A, {9, false}},
    {0x8E, {2, false}}, {0x8F, {2, false}},  {0x90, {2, false}},  {0x94, {4, false}},  {0x9A, {6, false}},
    {0xA0, {6, false}}, {0xA4, {6, false}},  {0xA8, {5, false}},  {0xAA, {5, false}},  {0xAF, {5, true}},
    {0xB0, {5, true}},  {0xB1, {2, false}},  {0xB2, {2, false}},  {0xB3, {2, false}},  {0xB4, {8, false}},
    {0xB5, {6, false}}, {0xB6, {6, false}},  {0xB7, {5, true}},
};

constexpr std::array<std::optional<RequestShape>, 256> kTable = [] {
    std::array<std::optional<RequestShape>, 256> table{};
    for (const auto& [command, shape] : kShapes) {
        table[command] = shape;
    }
    return table;
}();

}  // namespace

std::optional<RequestShape> requestShape(std::uint8_t command) {
    return kTable[command];
}

}  // namespace pitlink::sas
