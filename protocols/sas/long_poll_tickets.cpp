#include "protocols/sas/long_poll_tickets.h"

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"

namespace pitlink::sas {

namespace {

constexpr std::size_t kValidationBytes = 9;  // 18 digits

std::vector<std::uint8_t> start(const Poll& poll) {
    std::vector<std::uint8_t> out;
    out.reserve(48);
    out.push_back(poll.address);
    out.push_back(poll.command);
    return out;
}

std::vector<std::uint8_t> finish(std::vector<std::uint8_t> out) {
    appendCrc(out);
    return out;
}

// addr cmd len body CRC
std::vector<std::uint8_t> withLength(const Poll& poll, const std::vector<std::uint8_t>& body) {
    std::vector<std::uint8_t> out = start(poll);
    out.push_back(static_cast<std::uint8_t>(body.size()));
    out.insert(out.end(), body.begin(), body.end());
    return finish(std::move(out));
}

std::uint32_t binary24(const std::vector<std::uint8_t>& b, std::size_t at) {
    return static_cast<std::uint32_t>(b[at]) | static_cast<std::uint32_t>(b[at + 1]) << 8U |
           static_cast<std::uint32_t>(b[at + 2]) << 16U;
}

void appendBinary(std::vector<std::uint8_t>& out, std::uint32_t value, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) {
        out.push_back(static_cast<std::uint8_t>(value >> (8U * i)));
    }
}

std::vector<std::uint8_t> redemptionAnswer(const Poll& poll, const RedemptionStatus& s) {
    std::vector<std::uint8_t> body{s.status};
    if (s.status != redemption::kNoValidationInfo) {
        appendBcd(body, s.amountCents, 5);
        body.push_back(s.parsingCode);
        appendBcdDigits(body, s.validation, kValidationBytes);
    }
    return withLength(poll, body);
}

// LP 71: len code amount(5) parsing(1) validation(9) [expiration(4) pool(2) [target...]], or 01 FF.
std::optional<std::vector<std::uint8_t>> redeem(const Poll& poll, TicketHost& host) {
    const std::vector<std::uint8_t> d = poll.data();
    if (d.size() == 1 && d[0] == 0xFF) {
        return redemptionAnswer(poll, host.redemptionStatus());
    }
    if (d.size() < 1 + 5 + 1 + kValidationBytes) {
        return std::nullopt;
    }
    const auto amount = fromBcd(std::span(d).subspan(1, 5));
    const auto validation = bcdDigits(d, 7, kValidationBytes);
    if (!amount || !validation) {
        return std::nullopt;
    }
    return redemptionAnswer(poll, host.redeem(RedeemRequest{d[0], *amount, d[6], *validation}));
}

std::vector<std::uint8_t> validationRecord(const Poll& poll, const std::optional<ValidationRecord>& r) {
    std::vector<std::uint8_t> out = start(poll);
    if (!r) {
        out.resize(out.size() + 31, 0x00);  // no record: all 31 bytes of fields zero
        return finish(std::move(out));
    }
    out.push_back(r->type);
    out.push_back(r->index);
    appendDateTime(out, r->time);
    appendBcdDigits(out, r->number, 8);
    appendBcd(out, r->amountCents, 5);
    appendBinary(out, r->ticketNumber, 2);  // binary, LSB first (range 0000-270F)
    appendBcd(out, r->systemId, 1);
    appendBcd(out, 0, 4);     // expiration: none
    appendBinary(out, 0, 2);  // pool ID: not a restricted ticket
    return finish(std::move(out));
}

// LP 7C: len (code len data)...: 00 location, 01 address 1, 02 address 2.
bool extendedTicketData(const std::vector<std::uint8_t>& d, TicketSetup& setup) {
    for (std::size_t i = 0; i < d.size();) {
        if (i + 2 > d.size() || i + 2 + d[i + 1] > d.size() || d[i + 1] > 40) {
            return false;
        }
        std::string text(d.begin() + static_cast<std::ptrdiff_t>(i + 2),
                         d.begin() + static_cast<std::ptrdiff_t>(i + 2 + d[i + 1]));
        switch (d[i]) {
            case 0x00:
                setup.location = std::move(text);
                break;
            case 0x01:
                setup.address1 = std::move(text);
                break;
            case 0x02:
                setup.address2 = std::move(text);
                break;
            default:
                break;  // titles of restricted and debit tickets: this table prints neither
        }
        i += 2 + d[i + 1];
    }
    return true;
}

// LP 7D: len hostId(2) expiration(1) then three (len text); a length 0 leaves that line as it is.
bool ticketData(const std::vector<std::uint8_t>& d, TicketSetup& setup) {
    if (d.empty()) {
        return true;  // only asks whether ticket data is set
    }
    if (d.size() < 3) {
        return false;
    }
    setup.hostId = static_cast<std::uint16_t>(d[0] | d[1] << 8U);
    setup.cashableExpirationDays = d[2];
    std::string* lines[] = {&setup.location, &setup.address1, &setup.address2};
    std::size_t i = 3;
    for (std::string* line : lines) {
        if (i == d.size()) {
            break;
        }
        const std::size_t n = d[i];
        if (n > 40 || i + 1 + n > d.size()) {
            return false;
        }
        if (n > 0) {
            line->assign(d.begin() + static_cast<std::ptrdiff_t>(i + 1),
                         d.begin() + static_cast<std::ptrdiff_t>(i + 1 + n));
        }
        i += 1 + n;
    }
    return i == d.size();
}

}  // namespace

std::optional<std::string> bcdDigits(const std::vector<std::uint8_t>& bytes, std::size_t from, std::size_t count) {
    if (from + count > bytes.size()) {
        return std::nullopt;
    }
    std::string digits;
    for (std::size_t i = from; i < from + count; ++i) {
        for (const unsigned nibble : {static_cast<unsigned>(bytes[i] >> 4U), static_cast<unsigned>(bytes[i] & 0x0FU)}) {
            if (nibble > 9) {
                return std::nullopt;
            }
            digits.push_back(static_cast<char>('0' + nibble));
        }
    }
    return digits;
}

void appendBcdDigits(std::vector<std::uint8_t>& out, const std::string& digits, std::size_t bytes) {
    // Right-aligned, zero-filled on the left; anything but a digit reads as 0.
    std::string padded = digits.size() >= 2 * bytes ? digits.substr(digits.size() - 2 * bytes)
                                                    : std::string(2 * bytes - digits.size(), '0') + digits;
    for (std::size_t i = 0; i < bytes; ++i) {
        const auto digit = [&](char c) { return static_cast<std::uint8_t>(c >= '0' && c <= '9' ? c - '0' : 0); };
        out.push_back(static_cast<std::uint8_t>(digit(padded[2 * i]) << 4U | digit(padded[2 * i + 1])));
    }
}

bool isTicketPoll(std::uint8_t command) {
    switch (command) {
        case 0x4C:
        case 0x4D:
        case 0x57:
        case 0x58:
        case 0x70:
        case 0x71:
        case 0x7B:
        case 0x7C:
        case 0x7D:
            return true;
        default:
            return false;
    }
}

std::optional<std::vector<std::uint8_t>> answerTicketPoll(const Poll& poll, TicketHost& host) {
    const std::vector<std::uint8_t>& b = poll.bytes;
    switch (poll.command) {
        case 0x57: {
            const auto pending = host.pendingCashout();
            std::vector<std::uint8_t> out = start(poll);
            out.push_back(pending ? pending->type : 0x80);  // 80: not waiting for system validation
            appendBcd(out, pending ? pending->amountCents : 0, 5);
            return finish(std::move(out));
        }
        case 0x58: {  // addr 58 system-ID(1 BCD) validation(8 BCD) CRC
            const auto systemId = fromBcd(std::span(b).subspan(2, 1));
            const auto number = bcdDigits(b, 3, 8);
            if (!systemId || !number) {
                std::vector<std::uint8_t> out = start(poll);
                out.push_back(static_cast<std::uint8_t>(ValidationReceipt::OutOfRange));
                return finish(std::move(out));
            }
            std::vector<std::uint8_t> out = start(poll);
            out.push_back(
                static_cast<std::uint8_t>(host.receiveValidation(static_cast<std::uint8_t>(*systemId), *number)));
            return finish(std::move(out));
        }
        case 0x4C: {  // addr 4C id(3) sequence(3) CRC, binary LSB first
            const auto answered = host.setValidationId(binary24(b, 2), binary24(b, 5));
            if (!answered) {
                return std::nullopt;  // answered once durable: the host sends it again
            }
            const auto [id, sequence] = *answered;
            std::vector<std::uint8_t> out = start(poll);
            appendBinary(out, id, 3);
            appendBinary(out, sequence, 3);
            return finish(std::move(out));
        }
        case 0x4D: {
            const std::uint8_t code = b[2];
            if (code > 0x1F && code != 0xFF) {
                return std::nullopt;
            }
            return validationRecord(poll, host.validationRecord(code));
        }
        case 0x70: {
            const auto ticket = host.escrowedTicket();
            std::vector<std::uint8_t> body;
            if (!ticket) {
                // No ticket in escrow: the status alone ("data follows" only with 00), as a
                // production EGM answers it (tejvirc/Platform's LP 70 parser: `addr 70 01 FF`).
                body.push_back(0xFF);
            } else {
                body.push_back(0x00);  // in escrow
                appendBcd(body, ticket->amountCents, 5);
                body.push_back(0x00);  // parsing code 00: 18 digits
                appendBcdDigits(body, ticket->validation, kValidationBytes);
            }
            return withLength(poll, body);
        }
        case 0x71:
            return redeem(poll, host);
        case 0x7B: {  // len control-mask(2) status-bits(2) cashable-exp(2 BCD) restricted-exp(2 BCD)
            const std::vector<std::uint8_t> d = poll.data();
            if (d.size() != 8) {
                return std::nullopt;
            }
            const auto cashable = fromBcd(std::span(d).subspan(4, 2));
            const auto restricted = fromBcd(std::span(d).subspan(6, 2));
            if (!cashable || !restricted) {
                return std::nullopt;
            }
            TicketSetup setup = host.ticketSetup();
            const auto mask = static_cast<std::uint16_t>(d[0] | d[1] << 8U);
            const auto bits = static_cast<std::uint16_t>(d[2] | d[3] << 8U);
            setup.statusBits = static_cast<std::uint16_t>((setup.statusBits & ~mask) | (bits & mask));
            if (*cashable != 0) {
                setup.cashableExpirationDays = static_cast<std::uint16_t>(*cashable);
            }
            if (*restricted != 0) {
                setup.restrictedExpirationDays = static_cast<std::uint16_t>(*restricted);
            }
            if (!host.setTicketSetup(setup)) {
                return std::nullopt;  // answered once durable: the host sends it again
            }
            std::vector<std::uint8_t> body;
            appendBinary(body, host.assetNumber(), 4);
            appendBinary(body, setup.statusBits, 2);
            appendBcd(body, setup.cashableExpirationDays, 2);
            appendBcd(body, setup.restrictedExpirationDays, 2);
            return withLength(poll, body);
        }
        case 0x7C:
        case 0x7D: {
            TicketSetup setup = host.ticketSetup();
            const bool valid =
                poll.command == 0x7C ? extendedTicketData(poll.data(), setup) : ticketData(poll.data(), setup);
            if (valid && !host.setTicketSetup(setup)) {
                return std::nullopt;  // answered once durable: the host sends it again
            }
            std::vector<std::uint8_t> out = start(poll);
            out.push_back(valid ? 0x01 : 0x00);  // ticket data flag
            return finish(std::move(out));
        }
        default:
            return std::nullopt;
    }
}

}  // namespace pitlink::sas
