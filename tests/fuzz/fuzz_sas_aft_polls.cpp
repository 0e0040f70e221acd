// libFuzzer: any bytes as the body of an AFT long poll (first byte: 72, 73 or 74 by its value
// mod 3), framed with its length byte and a good CRC, through the LP 72/73/74 parsers, the
// rules (protocols/sas/aft_rules.h) with a station state taken from the same bytes, and the
// answers built from what was parsed. Checked: what a parser accepts fits SAS's fields, the
// amounts moved never exceed what was asked, what the station holds or its limit, and every
// answer is framed (length byte, CRC).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "protocols/sas/aft_polls.h"
#include "protocols/sas/aft_rules.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/poll_framer.h"

namespace {

using namespace pitlink::sas;

void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

void checkFramed(const std::vector<std::uint8_t>& answer) {
    check(answer.size() >= 5 && answer[2] == answer.size() - 5 && crcMatches(answer));
}

std::uint64_t number(const std::uint8_t* data, std::size_t size, std::size_t at, std::uint64_t mod) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        n = n << 8U | (at + i < size ? data[at + i] : 0U);
    }
    return n % mod;
}

std::optional<Poll> framed(std::uint8_t command, const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> frame{0x01, command};
    if (command != 0x74) {
        frame.push_back(static_cast<std::uint8_t>(size));
    }
    frame.insert(frame.end(), data, data + size);
    appendCrc(frame);
    PollFramer framer;
    std::optional<Poll> poll;
    bool first = true;
    for (const std::uint8_t b : frame) {
        if (auto p = framer.push(WireByte{b, first})) {
            poll = std::move(p);
        }
        first = false;
    }
    return poll;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > 256) {
        return 0;
    }
    const std::uint8_t which = data[0] % 3;
    const std::uint8_t* body = data + 1;
    const std::size_t n = size - 1;
    const std::uint8_t command = which == 0 ? 0x72 : which == 1 ? 0x73 : 0x74;
    if (command == 0x74 && n != 4) {
        return 0;  // fixed length: the framer would not see it whole
    }
    const auto poll = framed(command, body, n);
    if (!poll || poll->kind != PollKind::Long) {
        return 0;
    }
    aft::TransferContext context;
    context.asset = static_cast<std::uint32_t>(number(data, size, 1, 3));
    context.available = {number(data, size, 5, 100'000), number(data, size, 9, 100'000), number(data, size, 13, 1000)};
    context.transferLimitCents = number(data, size, 17, 1'000'000);
    context.denominationCents = 1 + number(data, size, 21, 100);
    context.transferInAllowed = (data[0] & 0x10U) != 0;
    context.transferOutAllowed = (data[0] & 0x20U) != 0;
    context.bonusAllowed = (data[0] & 0x40U) != 0;
    context.locked = (data[0] & 0x80U) != 0;
    if (command == 0x72) {
        const auto parsed = aft::parseTransfer(*poll);
        check(parsed.has_value() == (n > 0));
        if (!parsed) {
            return 0;
        }
        if (const auto* r = std::get_if<aft::TransferRequest>(&*parsed)) {
            check(!r->transactionId.empty() && r->transactionId.size() <= 20);
            for (const char c : r->transactionId) {
                check(c >= 0x20 && c <= 0x7E);
            }
            check(r->amounts.cashable < 10'000'000'000ULL && r->amounts.restricted < 10'000'000'000ULL);
            check(r->lockTimeout <= 9999);
            const auto refusal = aft::refusalOf(*r, context);
            if (!refusal) {
                check(r->asset == context.asset && r->amounts.total() > 0);
                if (const auto moved = aft::amountsMoved(*r, context); moved.done()) {
                    const aft::Amounts& m = moved.moved;
                    check(m.cashable <= r->amounts.cashable && m.restricted <= r->amounts.restricted &&
                          m.nonrestricted <= r->amounts.nonrestricted && m.total() > 0);
                    check(m.total() <= context.transferLimitCents);
                    if (!aft::toStation(r->type)) {
                        check(m.cashable <= context.available.cashable &&
                              m.restricted <= context.available.restricted &&
                              m.nonrestricted <= context.available.nonrestricted);
                    }
                    check((moved.status == aft::status::kFullTransfer) == (m == r->amounts));
                }
            }
            aft::TransferAnswer answer;
            answer.status = refusal.value_or(aft::status::kPending);
            answer.type = r->type;
            answer.amounts = r->amounts;
            answer.asset = r->asset;
            answer.transactionId = r->transactionId;
            answer.expiration = r->expiration;
            answer.poolId = r->poolId;
            checkFramed(aft::transferAnswer(0x01, answer));
        } else if (const auto* q = std::get_if<aft::TransferQuery>(&*parsed)) {
            aft::TransferHistory history;
            for (std::uint8_t i = 0; i < body[0] % 8; ++i) {
                history.add(aft::TransferAnswer{});
            }
            const std::uint8_t position = history.positionOf(q->index);
            check(q->index == 0 || (position >= 1 && position <= aft::kMaxHistoryIndex));
            checkFramed(aft::transferNoInformation(0x01, q->index));
        } else {
            checkFramed(aft::transferShortAnswer(0x01, 0, std::get<aft::TransferRefusal>(*parsed).status));
        }
    } else if (command == 0x73) {
        if (const auto r = aft::parseRegistration(*poll)) {
            check(n == 1 || n == 29);
            check(r->asset.has_value() == (n == 29));
            const auto step = aft::registrationStep(aft::Registration{}, *r, context.asset);
            check(step.exception == 0 || step.exception == 0x6D || step.exception == 0x6E);
            checkFramed(aft::registrationAnswer(
                0x01, aft::RegistrationAnswer{step.after.status, step.after.asset, step.after.key, step.after.posId}));
        }
    } else if (const auto r = aft::parseLock(*poll)) {
        check(r->timeout <= 9999 && (r->conditions & 0xF0U) == 0);
        aft::LockAnswer answer;
        answer.current = context.available;
        answer.transferLimit = context.transferLimitCents;
        const auto lockAnswer = aft::lockAnswer(0x01, answer);
        checkFramed(lockAnswer);
        check(lockAnswer.size() == 0x23 + 5);
    }
    return 0;
}
