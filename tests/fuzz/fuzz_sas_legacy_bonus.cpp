// libFuzzer: SAS legacy bonusing (protocols/sas/legacy_bonus_polls.h). Part one: the input's
// first bytes as the data of an LP 8A (5 bytes) and of an LP 9A (2 bytes), each framed with a good
// CRC, and as 7C's event data (10 bytes), through the parsers. Part two: the rest as a host's polls
// to a whole station (framer, link, SasStation) with a LegacyBonusHost double: each byte b picks a
// poll (b % 8: an 8A with the next 5 bytes, an 8A with a valid amount from them, LP 90, an LP 9A
// with the next 2 bytes, a general poll, a poll to another address, a broadcast, or a bonus the
// table pays: LP 90 reports it from then on).
// Checked: an award parsed is 1..99,999,999 credits with a tax status 00-02 and builds back into
// the bytes it came from; a meters game is 0..games; 7C's data read back writes the same bytes
// (its multiplier and multiplied win 0); every long-poll answer is an ACK, busy, or a frame of the right
// length with a good CRC; the station hands the host only well-formed awards, one per 8A poll that
// is not the link's repeat of the one before; LP 90's implied ACK reaches the host only after an
// answer that reported a bonus, once, and only when the host's next poll has another head.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/legacy_bonus_polls.h"
#include "protocols/sas/station_stack.h"
#include "tests/support/no_tickets_host.h"
#include "tests/support/recording_link_output.h"

namespace {

using namespace pitlink::sas;

constexpr std::uint8_t kAddress = 5;
constexpr std::uint16_t kGames = 3;

void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

std::optional<Poll> framed(std::vector<std::uint8_t> frame) {
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

std::uint8_t at(const std::uint8_t* data, std::size_t size, std::size_t i) {
    return i < size ? data[i] : 0;
}

void parsers(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> award{kAddress, 0x8A};
    for (std::size_t i = 0; i < 5; ++i) {
        award.push_back(at(data, size, i));
    }
    const auto awardPoll = framed(award);
    check(awardPoll.has_value() && awardPoll->kind == PollKind::Long);
    if (const auto a = legacy::parseAward(*awardPoll)) {
        check(a->credits >= 1 && a->credits <= legacy::kMostCredits);
        check(static_cast<std::uint8_t>(a->taxStatus) <= 0x02);
        std::vector<std::uint8_t> again{kAddress, 0x8A};
        appendBcd(again, a->credits, 4);
        again.push_back(static_cast<std::uint8_t>(a->taxStatus));
        check(std::equal(again.begin(), again.end(), award.begin(), award.end()));
    }
    const auto metersPoll = framed({kAddress, 0x9A, at(data, size, 5), at(data, size, 6)});
    check(metersPoll.has_value());
    if (const auto game = legacy::parseMetersGame(*metersPoll, kGames)) {
        check(*game <= kGames);
        const auto answer = legacy::bonusMetersAnswer(kAddress, *game, legacy::BonusMeters{});
        check(answer.size() == 18 && crcMatches(answer));
    }
    std::vector<std::uint8_t> event;
    for (std::size_t i = 7; i < 17; ++i) {
        event.push_back(at(data, size, i));
    }
    if (const auto win = legacy::bonusWinOf(event)) {
        check(win->credits <= legacy::kMostCredits);
        const std::vector<std::uint8_t> written = legacy::bonusWinData(*win);
        check(written.size() == legacy::kBonusWinBytes);
        check(std::equal(written.begin() + 5, written.end(), event.begin() + 5));
        check(legacy::bonusWinOf(written) == win);
        const auto answer = legacy::bonusWinAnswer(kAddress, *win);
        check(answer.size() == 14 && crcMatches(answer) && answer[1] == 0x90);
    }
}

// A station without ticketing: every ticket poll finds nothing to report.
using Table = pitlink::test::NoTicketsHost;

// The table's legacy bonusing: busy every other award; LP 90 reports what the table last paid
// until an answer that reported it is acknowledged.
struct Bonus final : legacy::LegacyBonusHost {
    legacy::AwardAnswer award(const legacy::Award& a) override {
        check(a.credits >= 1 && a.credits <= legacy::kMostCredits && static_cast<std::uint8_t>(a.taxStatus) <= 0x02);
        ++awards;
        return awards % 2 == 0 ? legacy::AwardAnswer::Busy : legacy::AwardAnswer::Taken;
    }
    legacy::BonusWin lastBonus() override {
        reported = unread;
        return unread.value_or(legacy::BonusWin{});
    }
    void lastBonusAcknowledged() override {
        check(reported.has_value() && reported->credits != 0);  // only an answer with a bonus
        ++acknowledgements;
        if (unread == reported) {
            unread.reset();
        }
        reported.reset();
    }
    [[nodiscard]] legacy::BonusMeters meters(std::uint16_t game) const override {
        check(game <= kGames);
        return {awards, game, 99'999'999'999ULL};
    }
    std::optional<legacy::BonusWin> unread;
    std::optional<legacy::BonusWin> reported;
    std::uint64_t awards = 0;
    int acknowledgements = 0;
};

MachineInfo threeGames() {
    MachineInfo info;
    info.games.resize(kGames);
    return info;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) {
        return 0;
    }
    parsers(data, size);

    Table table;
    Bonus bonus;
    pitlink::test::RecordingLinkOutput wire;
    wire.keepHex = false;
    std::int64_t now = 0;
    StationStack stack(kAddress, threeGames(), table, table, table, wire, now);
    stack.station().setLegacyBonusHost(&bonus);
    std::vector<std::uint8_t> lastHead;
    bool lastAnswered = false;
    const auto poll = [&](std::vector<std::uint8_t> frame, bool withCrc) {
        if (withCrc) {
            appendCrc(frame);
        }
        now += 40;
        const int sendsBefore = wire.sends;
        const std::uint64_t awardsBefore = bonus.awards;
        const int acksBefore = bonus.acknowledgements;
        bool first = true;
        for (const std::uint8_t b : frame) {
            stack.receive(WireByte{b, first}, false, now);
            first = false;
        }
        const std::vector<std::uint8_t> head(frame.begin(),
                                             frame.begin() + std::min<std::ptrdiff_t>(std::ssize(frame), 2));
        const bool repeat = lastAnswered && frame[0] == kAddress && frame.size() > 1 && head == lastHead;
        if (frame.size() > 1 && frame[1] == 0x8A && repeat) {
            check(bonus.awards == awardsBefore);  // the link's implied NACK: never a second award
        }
        check(bonus.awards <= awardsBefore + 1);
        if (bonus.acknowledgements != acksBefore) {
            check(!repeat);  // the same head again is a NACK, not an ACK
        }
        if (wire.sends != sendsBefore && frame.size() == 1) {
            check(wire.last.size() == 1);  // a general poll's exception byte (none is raised here)
        } else if (wire.sends != sendsBefore) {
            const std::vector<std::uint8_t>& out = wire.last;
            check(!out.empty() && out[0] == kAddress);
            const bool ackOrBusy = out.size() == 1 || (out.size() == 2 && out[1] == 0x00);
            check(ackOrBusy || (out.size() >= 4 && crcMatches(out)));
            if (frame[0] == kAddress && frame.size() > 1) {
                if (frame[1] == 0x90) {
                    check(out.size() == 14);
                } else if (frame[1] == 0x9A) {
                    check(out.size() == 18);
                } else if (frame[1] == 0x8A) {
                    check(ackOrBusy);
                }
            }
        }
        if (frame[0] == kAddress) {
            lastHead = head;
            lastAnswered = wire.sends != sendsBefore || (lastAnswered && repeat);
        } else {
            lastAnswered = false;  // another address or a broadcast: the answer is acknowledged
        }
    };
    poll({0x80 | (kAddress + 1)}, false);  // another address: the link synchronises
    std::size_t i = 17;
    while (i < size) {
        const std::uint8_t op = data[i++];
        switch (op % 8) {
            case 0:
            case 1: {
                std::vector<std::uint8_t> frame{kAddress, 0x8A};
                for (int k = 0; k < 5; ++k) {
                    frame.push_back(at(data, size, i++));
                }
                if (op % 8 == 1) {  // an amount in BCD and a tax status 00-02
                    const std::uint64_t credits = 1 + (static_cast<std::uint64_t>(frame[2]) << 8U | frame[3]) % 99'999;
                    frame.resize(2);
                    appendBcd(frame, credits, 4);
                    frame.push_back(static_cast<std::uint8_t>(op / 8 % 3));
                }
                poll(frame, true);
                break;
            }
            case 2:
                poll({kAddress, 0x90}, false);
                break;
            case 3:
                poll({kAddress, 0x9A, at(data, size, i), at(data, size, i + 1)}, true);
                i += 2;
                break;
            case 4:
                poll({static_cast<std::uint8_t>(0x80 | kAddress)}, false);
                break;
            case 5:
                poll({static_cast<std::uint8_t>(0x80 | (kAddress + 1))}, false);
                break;
            case 6:
                poll({0x80}, false);
                break;
            default:
                bonus.unread = legacy::BonusWin{static_cast<legacy::TaxStatus>(op / 8 % 3), 1U + op};
                break;
        }
    }
    return 0;
}
