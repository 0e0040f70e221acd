#include "protocols/sas/aft_polls.h"

#include <algorithm>
#include <span>

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"

namespace pitlink::sas::aft {

namespace {

using Bytes = std::vector<std::uint8_t>;

// Binary, least significant byte first (asset numbers, POS IDs, pool IDs).
std::uint32_t littleEndian(const Bytes& data, std::size_t at, std::size_t count) {
    std::uint32_t value = 0;
    for (std::size_t i = count; i-- > 0;) {
        value = (value << 8U) | data[at + i];
    }
    return value;
}

void appendLittleEndian(Bytes& out, std::uint32_t value, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(static_cast<std::uint8_t>(value >> (8U * i)));
    }
}

std::optional<std::uint64_t> bcdAt(const Bytes& data, std::size_t at, std::size_t count) {
    return fromBcd(std::span<const std::uint8_t>(data).subspan(at, count));
}

Bytes finish(std::uint8_t address, std::uint8_t command, const Bytes& body) {
    Bytes out;
    out.reserve(body.size() + 5);
    out.push_back(address);
    out.push_back(command);
    out.push_back(static_cast<std::uint8_t>(body.size()));
    out.insert(out.end(), body.begin(), body.end());
    appendCrc(out);
    return out;
}

// LP 72's transfer request after its code and index (SAS 6.02 Table 8.3a).
TransferPoll parseTransferRequest(const Bytes& data) {
    constexpr std::size_t kIdLengthAt = 43;
    if (data.size() < kIdLengthAt + 1) {
        return TransferRefusal{status::kNotValidFunction};
    }
    TransferRequest r;
    r.code = data[0];
    if (data[1] != 0) {  // a transfer is always the current one
        return TransferRefusal{status::kNotValidFunction};
    }
    r.type = data[2];
    const auto cashable = bcdAt(data, 3, 5);
    const auto restricted = bcdAt(data, 8, 5);
    const auto nonrestricted = bcdAt(data, 13, 5);
    r.flags = data[18];
    r.asset = littleEndian(data, 19, 4);
    std::copy_n(data.begin() + 23, kKeyBytes, r.key.begin());
    const std::size_t idLength = data[kIdLengthAt];
    const std::size_t afterId = kIdLengthAt + 1 + idLength;
    // expiration(4) pool(2) receipt length(1), receipt data, lock timeout(2)
    if (data.size() < afterId + 7) {
        return TransferRefusal{status::kNotValidFunction};
    }
    const std::size_t receiptLength = data[afterId + 6];
    if (data.size() != afterId + 7 + receiptLength + 2) {
        return TransferRefusal{status::kNotValidFunction};
    }
    if (!cashable || !restricted || !nonrestricted) {
        return TransferRefusal{status::kNotValidAmount};
    }
    r.amounts = {*cashable, *restricted, *nonrestricted};
    if (idLength == 0 || idLength > 20) {
        return TransferRefusal{status::kBadTransactionId};
    }
    for (std::size_t i = 0; i < idLength; ++i) {
        const std::uint8_t c = data[kIdLengthAt + 1 + i];
        if (c < 0x20 || c > 0x7E) {
            return TransferRefusal{status::kBadTransactionId};
        }
        r.transactionId.push_back(static_cast<char>(c));
    }
    const auto expiration = bcdAt(data, afterId, 4);
    if (!expiration) {
        return TransferRefusal{status::kNotValidAmount};
    }
    r.expiration = static_cast<std::uint32_t>(*expiration);
    r.poolId = static_cast<std::uint16_t>(littleEndian(data, afterId + 4, 2));
    r.receiptData.assign(data.begin() + static_cast<std::ptrdiff_t>(afterId + 7),
                         data.begin() + static_cast<std::ptrdiff_t>(afterId + 7 + receiptLength));
    const auto timeout = bcdAt(data, afterId + 7 + receiptLength, 2);
    if (!timeout) {
        return TransferRefusal{status::kNotValidFunction};
    }
    r.lockTimeout = static_cast<std::uint16_t>(*timeout);
    return r;
}

}  // namespace

std::optional<TransferPoll> parseTransfer(const Poll& poll) {
    const Bytes data = poll.data();
    if (data.empty()) {
        return std::nullopt;
    }
    const std::uint8_t code = data[0];
    switch (code) {
        case kTransferFull:
        case kTransferPartial:
            return parseTransferRequest(data);
        case kCancel:
        case kInterrogateStatusOnly:
        case kInterrogate:
            // 72 02 FF index; a cancel may come with its code alone.
            if (data.size() > 2 || (data.size() < 2 && code != kCancel)) {
                return TransferRefusal{status::kNotValidFunction};
            }
            return TransferQuery{code, data.size() == 2 ? data[1] : std::uint8_t{0}};
        default:
            return TransferRefusal{status::kUnsupportedCode};
    }
}

std::vector<std::uint8_t> transferAnswer(std::uint8_t address, const TransferAnswer& a) {
    Bytes body{a.position, a.status, a.receiptStatus, a.type};
    appendBcd(body, a.amounts.cashable, 5);
    appendBcd(body, a.amounts.restricted, 5);
    appendBcd(body, a.amounts.nonrestricted, 5);
    body.push_back(a.flags);
    appendLittleEndian(body, a.asset, 4);
    const std::string id = a.transactionId.substr(0, 20);
    body.push_back(static_cast<std::uint8_t>(id.size()));
    body.insert(body.end(), id.begin(), id.end());
    if (a.at) {
        appendDateTime(body, *a.at);
    } else {
        body.insert(body.end(), 7, 0);
    }
    appendBcd(body, a.expiration, 4);
    appendLittleEndian(body, a.poolId, 2);
    for (const std::uint64_t meter :
         {a.cumulative ? a.cumulative->cashable : 0, a.cumulative ? a.cumulative->restricted : 0,
          a.cumulative ? a.cumulative->nonrestricted : 0}) {
        if (a.cumulative) {
            body.push_back(8);
            appendBcd(body, meter, 8);
        } else {
            body.push_back(0);
        }
    }
    return finish(address, 0x72, body);
}

std::vector<std::uint8_t> transferShortAnswer(std::uint8_t address, std::uint8_t position,
                                              std::uint8_t transferStatus) {
    return finish(address, 0x72, {position, transferStatus});
}

std::vector<std::uint8_t> transferNoInformation(std::uint8_t address, std::uint8_t position) {
    return finish(address, 0x72, {position, status::kNoInformation, kReceiptNone});
}

std::optional<std::vector<std::uint8_t>> transferReplyBytes(std::uint8_t address, const TransferReply& reply) {
    if (const auto* shortAnswer = std::get_if<ShortTransferAnswer>(&reply)) {
        return transferShortAnswer(address, shortAnswer->position, shortAnswer->status);
    }
    if (const auto* none = std::get_if<NoTransferInformation>(&reply)) {
        return transferNoInformation(address, none->position);
    }
    if (const auto* answer = std::get_if<TransferAnswer>(&reply)) {
        return transferAnswer(address, *answer);
    }
    return std::nullopt;
}

std::optional<RegistrationRequest> parseRegistration(const Poll& poll) {
    const Bytes data = poll.data();
    RegistrationRequest r;
    if (data.size() == 1) {
        r.code = data[0];
        if (r.code != registration::kRead && r.code != registration::kUnregister) {
            return std::nullopt;
        }
        return r;
    }
    if (data.size() != 1 + 4 + kKeyBytes + 4) {
        return std::nullopt;
    }
    r.code = data[0];
    if (r.code != registration::kInitialize && r.code != registration::kRegister &&
        r.code != registration::kAcknowledge && r.code != registration::kUnregister && r.code != registration::kRead) {
        return std::nullopt;
    }
    r.asset = littleEndian(data, 1, 4);
    std::copy_n(data.begin() + 5, kKeyBytes, r.key.begin());
    r.posId = littleEndian(data, 5 + kKeyBytes, 4);
    return r;
}

std::vector<std::uint8_t> registrationAnswer(std::uint8_t address, const RegistrationAnswer& a) {
    Bytes body{a.status};
    appendLittleEndian(body, a.asset, 4);
    body.insert(body.end(), a.key.begin(), a.key.end());
    appendLittleEndian(body, a.posId, 4);
    return finish(address, 0x73, body);
}

std::optional<LockRequest> parseLock(const Poll& poll) {
    const Bytes data = poll.data();
    if (data.size() != 4) {
        return std::nullopt;
    }
    LockRequest r;
    r.code = data[0];
    r.conditions = data[1] & 0x0FU;
    const auto timeout = bcdAt(data, 2, 2);
    if (!timeout) {
        return std::nullopt;
    }
    r.timeout = static_cast<std::uint16_t>(*timeout);
    return r;
}

std::vector<std::uint8_t> lockAnswer(std::uint8_t address, const LockAnswer& a) {
    Bytes body;
    appendLittleEndian(body, a.asset, 4);
    body.insert(body.end(), {a.lockStatus, a.available, a.hostCashout, a.aftStatus, a.maxIndex});
    appendBcd(body, a.current.cashable, 5);
    appendBcd(body, a.current.restricted, 5);
    appendBcd(body, a.current.nonrestricted, 5);
    appendBcd(body, a.transferLimit, 5);
    appendBcd(body, a.restrictedExpiration, 4);
    appendLittleEndian(body, a.restrictedPool, 2);
    return finish(address, 0x74, body);
}

}  // namespace pitlink::sas::aft
