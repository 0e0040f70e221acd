#include "tests/sim/sim_accounting_host.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <span>

#include "tests/sim/sim_sas_line.h"

namespace pitlink::sim {

namespace {

constexpr std::uint8_t kGeneralPoll = 0x80;

// "0123..." (an even number of digits) as packed BCD.
std::vector<std::uint8_t> digitsToBcd(const std::string& digits) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < digits.size(); i += 2) {
        out.push_back(static_cast<std::uint8_t>((digits[i] - '0') << 4U | (digits[i + 1] - '0')));
    }
    return out;
}

std::vector<std::uint8_t> concat(std::vector<std::uint8_t> a, const std::vector<std::uint8_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// SAS dates are the casino's local calendar time: MMDDYYYY (4 BCD), HHMMSS (3 BCD).
std::vector<std::uint8_t> sasDateTime(std::int64_t utcMs) {
    const auto seconds = static_cast<std::time_t>(utcMs / 1000);
    std::tm tm{};
    ::localtime_r(&seconds, &tm);
    // MMDDYYYY and HHMMSS, each well inside 32 bits.
    const std::int64_t mmddyyyy =
        std::int64_t{tm.tm_mon + 1} * 1'000'000 + std::int64_t{tm.tm_mday} * 10'000 + tm.tm_year + 1900;
    const std::int64_t hhmmss = std::int64_t{tm.tm_hour} * 10'000 + std::int64_t{tm.tm_min} * 100 + tm.tm_sec;
    const auto date = static_cast<std::uint64_t>(mmddyyyy);
    const auto time = static_cast<std::uint64_t>(hhmmss);
    return concat(toBcd(date, 4), toBcd(time, 3));
}

std::int64_t utcSecondsOf(std::span<const std::uint8_t> dateTime) {
    const std::int64_t date = fromBcd(dateTime.subspan(0, 4));
    const std::int64_t time = fromBcd(dateTime.subspan(4, 3));
    std::tm tm{};
    tm.tm_mon = static_cast<int>(date / 1'000'000) - 1;
    tm.tm_mday = static_cast<int>(date / 10'000 % 100);
    tm.tm_year = static_cast<int>(date % 10'000) - 1900;
    tm.tm_hour = static_cast<int>(time / 10'000);
    tm.tm_min = static_cast<int>(time / 100 % 100);
    tm.tm_sec = static_cast<int>(time % 100);
    tm.tm_isdst = -1;
    return static_cast<std::int64_t>(::mktime(&tm));
}

// LP 2F: the cents meters (ticket in and out, the AFT amounts) are 5 BCD bytes, the others 4.
std::size_t meterWidth(std::uint8_t code) {
    static const std::set<std::uint8_t> kCents{0x0D, 0x0E, 0xA0, 0xA2, 0xA4, 0xAE, 0xB0, 0xB8, 0xBA, 0xBC};
    return kCents.contains(code) ? 5 : 4;
}

std::string hex(const std::vector<std::uint8_t>& bytes) {
    std::string out;
    for (const std::uint8_t b : bytes) {
        char two[4];
        std::snprintf(two, sizeof two, " %02X", b);
        out += two;
    }
    return out;
}

}  // namespace

SimAccountingHost::SimAccountingHost(std::vector<std::int64_t> stations, std::mt19937_64& random, Wire wire, Fail fail)
    : stations_(std::move(stations)), random_(random), wire_(std::move(wire)), fail_(std::move(fail)) {
    for (const std::int64_t s : stations_) {
        links_[s];
    }
}

bool SimAccountingHost::linked(std::int64_t station) const {
    return links_.contains(station);
}

void SimAccountingHost::restarted() {
    for (auto& [station, link] : links_) {
        link = Link{};
    }
}

// Every poll goes out here. A link answers only once it has seen a poll to another address
// (after its start or a link down), and the same head twice in a row is an implied NACK: so a
// poll to another address goes first when the link needs it or when this poll's head repeats
// the last one (a host on a multi-drop loop polls the others in between).
std::vector<std::uint8_t> SimAccountingHost::send(std::int64_t station, const std::vector<std::uint8_t>& frame) {
    Link& link = links_.at(station);
    const auto address = static_cast<std::uint8_t>(station);
    const bool general = frame.size() == 1;
    const std::vector<std::uint8_t> head = general ? frame : std::vector<std::uint8_t>{frame[0], frame[1]};
    if (!link.synced || head == link.lastHead) {
        wire_(station, {static_cast<std::uint8_t>(kGeneralPoll | (address % 100U + 1U))});
        link.synced = true;
    }
    (general ? stats_.generalPolls : stats_.longPolls) += 1;
    if (frame.size() > 4 && percent() < 1) {
        // Garbled on the line (its CRC no longer holds): the station must keep quiet.
        std::vector<std::uint8_t> broken = frame;
        broken.back() ^= 0x5A;
        ++stats_.badCrcs;
        if (!wire_(station, broken).empty()) {
            fail_("station " + std::to_string(station) + " answered a poll whose CRC is wrong");
            return {};
        }
    }
    link.lastHead = head;
    const std::vector<std::uint8_t> answer = wire_(station, frame);
    if (answer.empty()) {
        link.synced = false;  // the link went down (or never came up): resynchronise next time
        return answer;
    }
    if ((general || frame[1] < 0x72 || frame[1] > 0x74) && percent() < 3) {
        // The answer was lost on the line: the same poll again, which the station must take as a
        // NACK and answer with the very same bytes (nothing decided twice). Not the AFT polls,
        // answered afresh (protocols/sas/README.md "Link rules": SimAftHost repeats them itself).
        ++stats_.resends;
        const std::vector<std::uint8_t> again = wire_(station, frame);
        if (again != answer) {
            fail_("station " + std::to_string(station) + ": a repeated poll " + std::to_string(frame[general ? 0 : 1]) +
                  " got other bytes than the first (" + std::to_string(again.size()) + " vs " +
                  std::to_string(answer.size()) + ")");
        }
    }
    return answer;
}

bool SimAccountingHost::wellFormed(std::int64_t station, std::uint8_t command, const std::vector<std::uint8_t>& answer,
                                   std::size_t size) {
    const bool ok = answer.size() == size && answer[0] == static_cast<std::uint8_t>(station) && answer[1] == command &&
                    crcHolds(answer);
    if (!ok) {
        char what[96];
        std::snprintf(what, sizeof what, "station %lld: LP %02X answered %zu bytes (expected %zu, address, CRC):",
                      static_cast<long long>(station), command, answer.size(), size);
        fail_(what + hex(answer));
    }
    return ok;
}

void SimAccountingHost::pollNext() {
    if (stations_.empty()) {
        return;
    }
    pollStation(stations_[next_++ % stations_.size()]);
}

bool SimAccountingHost::pollStation(std::int64_t station) {
    const auto answer = send(station, {static_cast<std::uint8_t>(kGeneralPoll | static_cast<std::uint8_t>(station))});
    if (answer.size() != 1 || answer[0] == 0x00) {
        return false;
    }
    ++stats_.exceptions;
    onException(station, answer[0]);
    return true;
}

bool SimAccountingHost::drain() {
    bool any = false;
    for (const std::int64_t station : stations_) {
        for (int i = 0; i < 1000 && pollStation(station); ++i) {
            any = true;
        }
    }
    return any;
}

void SimAccountingHost::onException(std::int64_t station, std::uint8_t code) {
    switch (code) {
        case 0x57:
            validateCashout(station);
            return;
        case 0x3D:
            readPrintedTicket(station);
            return;
        case 0x67:
            redeemInserted(station);
            return;
        case 0x68:
            finalStatus(station);
            return;
        case 0x51:
            readHandpay(station);
            return;
        case 0x8C:
            readSelectedGame(station);
            return;
        default:
            if (other_) {
                other_(station, code);
            }
            return;  // noted; the next poll acknowledges it
    }
}

// 57 -> LP 57 (type, amount) -> LP 58 (system ID, 16 digits), a denial, or nothing (time-out).
void SimAccountingHost::validateCashout(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto pending = send(station, {address, 0x57});
    if (!wellFormed(station, 0x57, pending, 10)) {
        return;
    }
    if (pending[2] != 0x00) {
        return;  // no cash-out waits any more (it timed out before the host came round)
    }
    const std::int64_t amount = fromBcd(std::span(pending.data() + 3, 5));
    const int roll = percent();
    if (roll < 8) {
        return;  // the host is busy: the station's time-out makes it a hand-pay
    }
    std::string number;
    std::uint8_t systemId = 0x00;
    if (roll < 16) {
        number = std::string(16, '0');  // system ID 00: validation denied
        ++stats_.cashoutsDenied;
    } else {
        char digits[24];
        std::snprintf(digits, sizeof digits, "%06u%010lld",
                      static_cast<unsigned>(std::uniform_int_distribution<unsigned>(0, 999'999)(random_)),
                      static_cast<long long>(nextNumber_++));
        number = digits;
        systemId = 0x01;
    }
    const auto receipt = send(station, withCrc(concat({address, 0x58, systemId}, digitsToBcd(number))));
    if (!wellFormed(station, 0x58, receipt, 5)) {
        return;
    }
    if (receipt[2] == 0x00 && systemId != 0x00) {
        // Taken: a ticket with this number and amount may now be printed at this station.
        validated_["01" + number] = {station, amount};
        ++stats_.cashoutsValidated;
    }
}

// 3D -> LP 4D 00: the oldest record the host has not read; a ticket it already knows is not
// added again (after a restart the station may hand the same record out twice).
void SimAccountingHost::readPrintedTicket(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto record = send(station, withCrc({address, 0x4D, 0x00}));
    if (!wellFormed(station, 0x4D, record, 35)) {
        return;
    }
    // type, index, date (4), time (3), validation (8), amount (5), ticket number (2), system ID (1), ...
    const std::string number = bcdDigits(std::span(record.data() + 11, 8));
    const std::int64_t amount = fromBcd(std::span(record.data() + 19, 5));
    const std::string systemId = bcdDigits(std::span(record.data() + 26, 1));
    if (amount == 0) {
        return;  // no record unread
    }
    const std::string validation = systemId + number;
    const auto it = validated_.find(validation);
    if (it == validated_.end() || it->second.first != station || it->second.second != amount) {
        fail_("station " + std::to_string(station) + " printed ticket " + validation + " for " +
              std::to_string(amount) + ", which the host never validated for it");
        return;
    }
    if (outstanding_.contains(validation) || pending_.contains(validation) || redeemed_.contains(validation)) {
        return;
    }
    outstanding_[validation] = amount;
    ++stats_.ticketsPrinted;
}

// 67 -> LP 70 (the ticket in escrow) -> LP 71: accepted with the host's amount, or rejected.
void SimAccountingHost::redeemInserted(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    if (percent() < 5) {
        return;  // the host does not come round in time: the station returns the ticket
    }
    const auto escrow = send(station, {address, 0x70});
    if (escrow.size() < 4 || !crcHolds(escrow) || escrow[0] != address || escrow[1] != 0x70) {
        wellFormed(station, 0x70, escrow, 0);
        return;
    }
    if (escrow[3] != 0x00) {
        return;  // nothing in escrow (any more)
    }
    if (!wellFormed(station, 0x70, escrow, 2 + 1 + 1 + 5 + 1 + 9 + 2)) {
        return;
    }
    const std::string validation = bcdDigits(std::span(escrow.data() + 10, 9));
    if (percent() < 3) {
        return;  // read, never answered: the station's redemption time-out
    }
    std::uint8_t code = 0x00;
    std::int64_t amount = 0;
    if (const auto it = outstanding_.find(validation); it != outstanding_.end()) {
        amount = it->second;
        pending_[validation] = {station, amount};
        outstanding_.erase(it);
    } else {
        code = pending_.contains(validation) ? 0x83 : redeemed_.contains(validation) ? 0x84 : 0x82;
    }
    std::vector<std::uint8_t> body = concat({code}, toBcd(static_cast<std::uint64_t>(amount), 5));
    body.push_back(0x00);  // parsing code 00
    body = concat(body, digitsToBcd(validation));
    std::vector<std::uint8_t> frame{address, 0x71, static_cast<std::uint8_t>(body.size())};
    const auto answer = send(station, withCrc(concat(frame, body)));
    const auto status = redemptionAnswer(station, answer);
    if (code != 0x00) {
        ++stats_.ticketsRejected;
        return;
    }
    accepted_[validation] = amount;
    ++stats_.ticketsAccepted;
    if (!status || (status->first >= 0x80 && status->first != 0xFF)) {
        // The station refused what the host accepted (its limit, or not a whole number of
        // credits): the ticket is the player's again.
        pending_.erase(validation);
        outstanding_[validation] = amount;
    }
}

// 68 -> LP 71 FF: the final status of the last redemption.
void SimAccountingHost::finalStatus(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto answer = send(station, withCrc({address, 0x71, 0x01, 0xFF}));
    const auto status = redemptionAnswer(station, answer);
    if (!status) {
        return;
    }
    const auto& [code, validation] = *status;
    const auto it = pending_.find(validation);
    if (it == pending_.end() || it->second.first != station) {
        return;  // a rejection the host already knows of (the ticket may be pending elsewhere)
    }
    if (code == 0x00) {
        redeemed_.insert(validation);
        pending_.erase(it);
        ++stats_.ticketsRedeemed;
    } else if (code > 0x80 && code != 0xFF) {
        outstanding_[validation] = it->second.second;  // the station could not take what the host accepted
        pending_.erase(it);
    }
    // 80 is the host's own rejection: of this ticket inserted again while its redemption was
    // pending (the status reports the last transaction only). 20 / 40 / FF: not known yet. The
    // ticket stays pending: never handed out twice.
}

std::optional<std::pair<std::uint8_t, std::string>> SimAccountingHost::redemptionAnswer(
    std::int64_t station, const std::vector<std::uint8_t>& answer) {
    // addr 71 len status amount(5) parsing validation(9) CRC; status FF (no validation information) alone.
    if (answer.size() == 6 && wellFormed(station, 0x71, answer, 6) && answer[2] == 0x01 && answer[3] == 0xFF) {
        return std::make_pair(std::uint8_t{0xFF}, std::string());
    }
    if (!wellFormed(station, 0x71, answer, 2 + 1 + 1 + 5 + 1 + 9 + 2)) {
        return std::nullopt;
    }
    return std::make_pair(answer[3], bcdDigits(std::span(answer.data() + 10, 9)));
}

// 51 -> LP 1B: progressive group, level, amount (5 BCD), partial pay (2), reset ID, 10 zeros.
void SimAccountingHost::readHandpay(std::int64_t station) {
    const auto answer = send(station, {static_cast<std::uint8_t>(station), 0x1B});
    if (wellFormed(station, 0x1B, answer, 24)) {
        ++stats_.handpaysRead;
    }
}

std::string SimAccountingHost::ticketToInsert(std::int64_t& amount) {
    const int roll = percent();
    auto pick = [this](const auto& from) {
        auto it = from.begin();
        std::advance(it, std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(random_));
        return it;
    };
    if (roll < 10 && !pending_.empty()) {
        const auto it = pick(pending_);  // the same ticket at two stations at once
        amount = it->second.second;
        return it->first;
    }
    if (roll < 20 && !redeemed_.empty()) {
        amount = 1000;
        return *pick(redeemed_);  // a ticket already paid
    }
    if (roll < 28) {
        char digits[24];
        std::snprintf(digits, sizeof digits, "55%016llu",
                      static_cast<unsigned long long>(random_() % 10'000'000'000'000'000ULL));
        amount = 1000;
        return digits;  // not the host's
    }
    if (outstanding_.size() < 4) {
        // Bought at the cage.
        char digits[24];
        std::snprintf(digits, sizeof digits, "77%016lld", static_cast<long long>(nextNumber_++));
        outstanding_[digits] = std::uniform_int_distribution<std::int64_t>(1, 50)(random_) * 400;
    }
    const auto it = pick(outstanding_);
    amount = it->second;
    return it->first;
}

std::optional<std::uint8_t> SimAccountingHost::remoteHandpayReset(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto answer = send(station, withCrc({address, 0x94}));
    if (!wellFormed(station, 0x94, answer, 5)) {
        return std::nullopt;
    }
    if (answer[2] > 0x02) {
        fail_("station " + std::to_string(station) + ": LP 94 answered code " + std::to_string(answer[2]));
        return std::nullopt;
    }
    return answer[2];
}

bool SimAccountingHost::delayGame(std::int64_t station, int tenths) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto bcd = [](int two) { return static_cast<std::uint8_t>((two / 10) << 4 | two % 10); };
    const auto ack = send(station, withCrc({address, 0x2E, bcd(tenths / 100 % 100), bcd(tenths % 100)}));
    if (ack.size() != 1 || ack[0] != address) {
        fail_("station " + std::to_string(station) + ": LP 2E not acknowledged");
        return false;
    }
    return true;
}

std::optional<bool> SimAccountingHost::legacyBonus(std::int64_t station, std::int64_t credits, std::uint8_t taxStatus) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto answer = send(
        station, withCrc(concat(concat({address, 0x8A}, toBcd(static_cast<std::uint64_t>(credits), 4)), {taxStatus})));
    if (answer == std::vector<std::uint8_t>{address}) {
        return true;
    }
    if (answer == std::vector<std::uint8_t>{address, 0x00}) {
        return false;
    }
    fail_("station " + std::to_string(station) + ": LP 8A answered" + hex(answer));
    return std::nullopt;
}

std::optional<std::int64_t> SimAccountingHost::legacyBonusMeters(std::int64_t station) {
    const auto answer = send(station, withCrc({static_cast<std::uint8_t>(station), 0x9A, 0x00, 0x00}));
    if (!wellFormed(station, 0x9A, answer, 18)) {
        return std::nullopt;
    }
    return fromBcd(std::span(answer.data() + 4, 4)) + fromBcd(std::span(answer.data() + 8, 4)) +
           fromBcd(std::span(answer.data() + 12, 4));
}

std::optional<std::int64_t> SimAccountingHost::currentCredits(std::int64_t station) {
    const auto answer = send(station, {static_cast<std::uint8_t>(station), 0x1A});
    if (!wellFormed(station, 0x1A, answer, 8)) {
        return std::nullopt;
    }
    return fromBcd(std::span(answer.data() + 2, 4));
}

// 8C: the station's game changed; without real-time events the host reads which with LP 55 (2 BCD),
// a game between 1 and LP 51's count.
void SimAccountingHost::readSelectedGame(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto count = send(station, {address, 0x51});
    const auto game = send(station, {address, 0x55});
    if (!wellFormed(station, 0x51, count, 6) || !wellFormed(station, 0x55, game, 6)) {
        return;
    }
    const std::int64_t games = fromBcd(std::span(count.data() + 2, 2));
    const std::int64_t selected = fromBcd(std::span(game.data() + 2, 2));
    if (selected < 1 || selected > games) {
        fail_("station " + std::to_string(station) + ": 8C, and LP 55 names game " + std::to_string(selected) + " of " +
              std::to_string(games));
        return;
    }
    ++stats_.gamesSelected;
    selected_[station] = static_cast<int>(selected);
}

int SimAccountingHost::selectedGame(std::int64_t station) const {
    const auto it = selected_.find(station);
    return it == selected_.end() ? 1 : it->second;
}

std::optional<std::array<std::int64_t, 4>> SimAccountingHost::gameMeters(std::int64_t station, int game) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto bcd = [](int two) { return static_cast<std::uint8_t>((two / 10) << 4 | two % 10); };
    // addr 52 game(2 BCD) CRC -> addr 52 game coin-in coin-out jackpot games-played (4 BCD each) CRC
    const auto answer = send(station, withCrc({address, 0x52, bcd(game / 100 % 100), bcd(game % 100)}));
    if (!wellFormed(station, 0x52, answer, 22)) {
        return std::nullopt;
    }
    if (fromBcd(std::span(answer.data() + 2, 2)) != game) {
        fail_("station " + std::to_string(station) + ": LP 52 answered for another game");
        return std::nullopt;
    }
    ++stats_.gameReads;
    std::array<std::int64_t, 4> out{};
    for (std::size_t i = 0; i < 4; ++i) {
        out[i] = fromBcd(std::span(answer.data() + 4 + 4 * i, 4));
    }
    return out;
}

std::optional<std::array<std::int64_t, 4>> SimAccountingHost::denominationMeters(std::int64_t station,
                                                                                 std::uint8_t code) {
    const auto address = static_cast<std::uint8_t>(station);
    // addr B0 len denom 2F len game(2) codes CRC -> addr B0 len denom 2F len game (code value)... CRC
    const auto answer = send(station, withCrc({address, 0xB0, 9, code, 0x2F, 6, 0x00, 0x00, 0x00, 0x01, 0x02, 0x05}));
    const std::size_t size = 3 + 1 + 1 + 1 + 2 + 4 * 5 + 2;
    if (!wellFormed(station, 0xB0, answer, size) || answer[2] != size - 5 || answer[3] != code || answer[4] != 0x2F ||
        answer[5] != 2 + 4 * 5) {
        return std::nullopt;
    }
    ++stats_.gameReads;
    std::array<std::int64_t, 4> out{};
    const std::uint8_t codes[] = {0x00, 0x01, 0x02, 0x05};
    for (std::size_t i = 0; i < 4; ++i) {
        const std::size_t at = 8 + 5 * i;
        if (answer[at] != codes[i]) {
            fail_("station " + std::to_string(station) + ": LP B0 2F answered another meter");
            return std::nullopt;
        }
        out[i] = fromBcd(std::span(answer.data() + at + 1, 4));
    }
    return out;
}

std::optional<std::map<std::uint8_t, std::int64_t>> SimAccountingHost::meters(std::int64_t station,
                                                                              const std::vector<std::uint8_t>& codes) {
    const auto address = static_cast<std::uint8_t>(station);
    std::vector<std::uint8_t> frame{address, 0x2F, static_cast<std::uint8_t>(2 + codes.size()), 0x00, 0x00};
    frame = withCrc(concat(frame, codes));
    const auto answer = send(station, frame);
    // addr 2F len game(2) (code value)... CRC; the cents meters are 5 bytes, the others 4.
    std::size_t size = 2 + 1 + 2 + 2;
    for (const std::uint8_t c : codes) {
        size += 1 + meterWidth(c);
    }
    if (!wellFormed(station, 0x2F, answer, size) || answer[2] != size - 5) {
        if (answer.size() == size) {
            fail_("station " + std::to_string(station) + ": LP 2F length byte " + std::to_string(answer[2]));
        }
        return std::nullopt;
    }
    std::map<std::uint8_t, std::int64_t> values;
    std::size_t at = 5;
    for (const std::uint8_t c : codes) {
        const std::size_t width = meterWidth(c);
        if (answer[at] != c) {
            fail_("station " + std::to_string(station) + ": LP 2F answered meter " + std::to_string(answer[at]) +
                  " where " + std::to_string(c) + " was asked");
            return std::nullopt;
        }
        values[c] = fromBcd(std::span(answer.data() + at + 1, width));
        at += 1 + width;
    }
    return values;
}

void SimAccountingHost::setClock(std::int64_t station, std::int64_t hostUtcMs, std::int64_t stationUtcMs,
                                 std::int64_t toleranceS) {
    const auto address = static_cast<std::uint8_t>(station);
    // Whole seconds: what the host sends is what the station is to read back.
    const std::int64_t hostSeconds = hostUtcMs / 1000;
    const bool within = std::abs(hostSeconds - stationUtcMs / 1000) + 1 < toleranceS;
    const bool beyond = std::abs(hostSeconds - stationUtcMs / 1000) > toleranceS + 1;
    const auto ack = send(station, withCrc(concat({address, 0x7F}, sasDateTime(hostSeconds * 1000))));
    if (ack.size() != 1 || ack[0] != address) {
        fail_("station " + std::to_string(station) + ": LP 7F not acknowledged");
        return;
    }
    const auto now = send(station, {address, 0x7E});
    if (!wellFormed(station, 0x7E, now, 11)) {
        return;
    }
    const std::int64_t read = utcSecondsOf(std::span(now.data() + 2, 7));
    const bool took = std::abs(read - hostSeconds) <= 2;
    if (within && !took) {
        fail_("station " + std::to_string(station) + ": LP 7F within the tolerance, but LP 7E reads " +
              std::to_string(read - hostSeconds) + " s away from it");
    } else if (beyond && took) {
        fail_("station " + std::to_string(station) + ": LP 7F " + std::to_string(hostSeconds - stationUtcMs / 1000) +
              " s away was taken, beyond the tolerance");
    }
    (took ? stats_.clockSets : stats_.clockRefusals) += 1;
}

}  // namespace pitlink::sim
