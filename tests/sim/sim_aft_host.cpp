#include "tests/sim/sim_aft_host.h"

#include <algorithm>
#include <cstdio>
#include <span>

#include "tests/sim/sim_sas_line.h"

namespace pitlink::sim {

namespace {

// docs/sas.md "AFT": transfer codes, types, statuses, lock codes and bits.
constexpr std::uint8_t kFull = 0x00;
constexpr std::uint8_t kPartial = 0x01;
constexpr std::uint8_t kInHouseIn = 0x00;
constexpr std::uint8_t kBonusCoinOut = 0x10;
constexpr std::uint8_t kBonusJackpot = 0x11;
constexpr std::uint8_t kToHost = 0x80;
constexpr std::uint8_t kPending = 0x40;
constexpr std::uint8_t kUnexpectedError = 0x9F;
constexpr std::uint8_t kOnlyIfLocked = 0x40;  // transfer flag
constexpr std::uint8_t kLocked = 0x00;
constexpr std::uint8_t kLockPending = 0x40;
constexpr std::uint8_t kNotLocked = 0xFF;
constexpr std::uint8_t kBonusCondition = 0x08;  // a lock request's bonus bit...
constexpr std::uint8_t kBonusAvailable = 0x10;  // ...and the answer's (08 there: a win pending to the host)
constexpr std::uint8_t kWinPendingToHost = 0x08;
constexpr std::size_t kLockAnswerSize = 2 + 1 + 0x23 + 2;
constexpr std::size_t kRegistrationAnswerSize = 2 + 1 + 0x1D + 2;
// The host's registration key and POS ID.
constexpr std::array<std::uint8_t, 20> kKey{0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA,
                                            0xBB, 0xCC, 0xDD, 0xEE, 0xF0, 0x0F, 0x1E, 0x2D, 0x3C, 0x4B};
constexpr std::uint32_t kPosId = 0x00C0FFEE;

bool succeeded(std::uint8_t status) {
    return status == 0x00 || status == 0x01;
}

void putLittle(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) {
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    }
}

std::uint32_t little32(std::span<const std::uint8_t> bytes) {
    std::uint32_t v = 0;
    for (std::size_t i = 4; i-- > 0;) {
        v = v << 8U | bytes[i];
    }
    return v;
}

std::string partsText(const AftParts& p) {
    return std::to_string(p[0]) + "/" + std::to_string(p[1]) + "/" + std::to_string(p[2]);
}

std::int64_t total(const AftParts& p) {
    return p[0] + p[1] + p[2];
}

}  // namespace

SimAftHost::SimAftHost(std::vector<std::int64_t> stations, std::int64_t transferLimit, std::int64_t jackpotLimit,
                       std::mt19937_64& random, Poll poll, Fail fail)
    : order_(std::move(stations)),
      transferLimit_(transferLimit),
      jackpotLimit_(jackpotLimit),
      random_(random),
      poll_(std::move(poll)),
      fail_(std::move(fail)) {
    for (const std::int64_t s : order_) {
        stations_[s];
    }
}

bool SimAftHost::open() const {
    return std::any_of(stations_.begin(), stations_.end(),
                       [](const auto& s) { return s.second.open.has_value() || s.second.registering.has_value(); });
}

std::string SimAftHost::openIds() const {
    std::string ids;
    for (const auto& [station, s] : stations_) {
        if (s.open) {
            ids += " " + s.open->id;
        }
        if (s.registering) {
            ids += " LP 73 at station " + std::to_string(station);
        }
    }
    return ids;
}

void SimAftHost::restarted() {
    for (auto& [station, s] : stations_) {
        s.lock = Lock::None;  // released at every start
        s.lockDisturbed = false;
        s.takeOfferAtMs.reset();  // the offer went with the process (the cash-out is answered)
        if (s.open) {
            s.open->underLock = false;  // nothing is expected of a transfer whose lock went
        }
    }
}

void SimAftHost::tilted() {
    for (auto& [station, s] : stations_) {
        s.lockDisturbed = s.lock != Lock::None;
        if (s.open) {
            s.open->underLock = false;  // the tilt may have released its lock
        }
    }
}

LockView SimAftHost::lockView(std::int64_t station, std::int64_t nowMs) const {
    const auto it = stations_.find(station);
    if (it == stations_.end()) {
        return LockView::Free;  // no link: never locked
    }
    const Station& s = it->second;
    if (s.lock == Lock::None || nowMs >= s.lockUntilMs + 50) {
        return LockView::Free;
    }
    if (s.lock == Lock::Locked && !s.lockDisturbed && nowMs < s.lockUntilMs - 5) {
        return LockView::Locked;
    }
    return LockView::Unsure;
}

// addr 72 len code index type cashable restricted non-restricted (5 BCD) flags asset(4) key(20)
// id-len id expiration(4 BCD) pool(2) receipt-len lock-timeout(2 BCD) CRC.
std::vector<std::uint8_t> SimAftHost::request(std::int64_t station, std::uint8_t code, std::uint8_t type,
                                              const AftParts& amounts, std::uint8_t flags, std::uint16_t pool,
                                              const std::string& id) {
    const Station& s = stations_.at(station);
    std::vector<std::uint8_t> body{code, 0x00, type};
    for (const std::int64_t a : amounts) {
        const auto bcd = toBcd(static_cast<std::uint64_t>(a), 5);
        body.insert(body.end(), bcd.begin(), bcd.end());
    }
    body.push_back(flags);
    putLittle(body, s.asset.value_or(0), 4);
    if (s.registered.value_or(false)) {
        body.insert(body.end(), kKey.begin(), kKey.end());
    } else {
        body.insert(body.end(), 20, 0x00);  // no registration needed
    }
    body.push_back(static_cast<std::uint8_t>(id.size()));
    body.insert(body.end(), id.begin(), id.end());
    body.insert(body.end(), 4, 0x00);  // expiration: the station's default
    putLittle(body, pool, 2);
    body.push_back(0x00);  // no receipt data
    body.insert(body.end(), 2, 0x00);
    std::vector<std::uint8_t> frame{static_cast<std::uint8_t>(station), 0x72, static_cast<std::uint8_t>(body.size())};
    frame.insert(frame.end(), body.begin(), body.end());
    return withCrc(frame);
}

std::optional<SimAftHost::Answer> SimAftHost::parse(std::int64_t station, const std::vector<std::uint8_t>& f,
                                                    bool& shortForm) {
    shortForm = false;
    const auto bad = [&](const char* what) {
        fail_("station " + std::to_string(station) + ": LP 72 answer " + what + " (" + std::to_string(f.size()) +
              " bytes)");
        return std::nullopt;
    };
    if (f.size() < 7 || !crcHolds(f) || f[0] != static_cast<std::uint8_t>(station) || f[1] != 0x72 ||
        f[2] + 5U != f.size()) {
        return bad("malformed");
    }
    Answer a;
    a.position = f[3];
    a.status = f[4];
    if (f[2] == 2) {
        shortForm = true;
        return a;
    }
    if (f[2] == 3) {
        if (f[4] != 0xFF) {
            return bad("of length 3 without status FF");
        }
        return a;
    }
    const std::size_t idAt = 28;
    if (f.size() < idAt + 2 || f.size() < idAt + f[27] + 13 + 2) {
        return bad("too short for its ID");
    }
    a.type = f[6];
    for (std::size_t i = 0; i < 3; ++i) {
        a.amounts[i] = fromBcd(std::span(f.data() + 7 + 5 * i, 5));
    }
    a.id.assign(f.begin() + idAt, f.begin() + static_cast<std::ptrdiff_t>(idAt + f[27]));
    // The asset number the transfer was asked under (a history entry keeps it after an LP B7
    // changed the station's), else the station's.
    const Station& st = stations_.at(station);
    const auto asked = st.assetOf.find(a.id);
    if (little32(std::span(f.data() + 23, 4)) != (asked != st.assetOf.end() ? asked->second : st.asset.value_or(0))) {
        return bad("with another asset number");
    }
    std::size_t at = idAt + f[27] + 13;  // date, time, expiration, pool
    while (at + 2 < f.size()) {
        const std::size_t size = f[at];
        if (at + 1 + size + 2 > f.size()) {
            return bad("with a cumulative meter past its end");
        }
        if (size > 0) {
            a.cumulative.push_back({});
            a.cumulative.back()[0] = fromBcd(std::span(f.data() + at + 1, size));
        }
        at += 1 + size;
    }
    if (!a.cumulative.empty()) {
        if (a.cumulative.size() != 3) {
            return bad("with other than three cumulative meters");
        }
        a.cumulative = {{a.cumulative[0][0], a.cumulative[1][0], a.cumulative[2][0]}};
    }
    return a;
}

std::optional<SimAftHost::Answer> SimAftHost::interrogate(std::int64_t station, std::uint8_t index, bool& nothing) {
    nothing = false;
    const auto answer = poll_(station, withCrc({static_cast<std::uint8_t>(station), 0x72, 0x02, 0xFF, index}));
    if (answer.empty()) {
        return std::nullopt;  // the line lost it: asked again next time
    }
    bool shortForm = false;
    auto a = parse(station, answer, shortForm);
    if (a && shortForm) {
        fail_("station " + std::to_string(station) + ": 72 FF answered the short form");
        return std::nullopt;
    }
    nothing = a && a->status == 0xFF && a->id.empty();
    return a;
}

void SimAftHost::start(std::int64_t station, std::uint8_t code, std::uint8_t type, const AftParts& amounts,
                       std::uint8_t flags, std::uint16_t pool, bool underLock) {
    Station& s = stations_.at(station);
    if (s.registering) {
        return;  // one thing at a time: the registration's answer first
    }
    char id[24];
    std::snprintf(id, sizeof id, "SIM%lld-%06lld", static_cast<long long>(station), static_cast<long long>(s.nextId++));
    Open o;
    o.outcome = AftOutcome{station, type, code, amounts, {}, kPending, true};
    o.id = id;
    o.frame = request(station, code, type, amounts, flags, pool, id);
    s.assetOf[id] = s.asset.value_or(0);
    o.underLock = underLock;
    s.open = std::move(o);
    if (s.lock != Lock::None) {
        s.lockDisturbed = true;  // the transfer's end releases the lock
    }
    ++stats_.requests;
    step(station);
}

void SimAftHost::advance(std::int64_t nowMs) {
    for (const std::int64_t station : order_) {
        Station& s = stations_.at(station);
        if (s.open) {
            step(station);
        } else if (s.registering) {
            stepRegistration(station);
        } else if (s.takeOfferAtMs && nowMs >= *s.takeOfferAtMs) {
            s.takeOfferAtMs.reset();
            takeOffer(station, nowMs);
        }
    }
}

// One poll of the station's open transaction.
void SimAftHost::step(std::int64_t station) {
    Station& s = stations_.at(station);
    Open& o = *s.open;
    const std::string id = o.id;
    if (o.phase == Phase::Requesting) {
        const auto answer = poll_(station, o.frame);
        if (answer.empty()) {
            ++stats_.unanswered;  // not durable yet, or lost: the same request again next time
            return;
        }
        bool shortForm = false;
        const auto a = parse(station, answer, shortForm);
        if (!a) {
            return;
        }
        stats_.repeatsAnswered += o.answered ? 1 : 0;
        o.answered = true;
        if (shortForm) {
            if (a->status != 0xC0 && a->status != 0xC1) {
                fail_("station " + std::to_string(station) + ": transfer " + id + " answered short with status " +
                      std::to_string(a->status));
                return;
            }
            o.outcome.status = a->status;
            o.outcome.journaled = false;
            ++stats_.notCompatible;
            log_[id] = o.outcome;
            s.open.reset();
            return;
        }
        if (a->id != id || a->type != o.outcome.type) {
            fail_("station " + std::to_string(station) + ": transfer " + id + " answered for '" + a->id + "'");
            return;
        }
        if (a->status == kPending) {
            ++stats_.pendingSeen;
            o.phase = Phase::Interrogating;
            return;
        }
        ended(station, *a);
        if (s.open && percent() < 15) {
            // As if this answer was lost: the same request must get the same status.
            const auto again = poll_(station, o.frame);
            const auto b = again.empty() ? std::nullopt : parse(station, again, shortForm);
            if (!b || b->id != id || b->status != a->status || b->amounts != a->amounts) {
                fail_("station " + std::to_string(station) + ": transfer " + id +
                      " repeated got another answer than its status " + std::to_string(a->status));
                return;
            }
            ++stats_.repeatsAnswered;
        }
        if (s.open) {
            s.open->phase = Phase::Acknowledging;
        }
        return;
    }
    bool nothing = false;
    const auto a = interrogate(station, 0x00, nothing);
    if (!a) {
        return;
    }
    if (nothing || a->id != id) {
        fail_("station " + std::to_string(station) + ": transfer " + id + ", answered " +
              (o.phase == Phase::Interrogating ? "pending" : "final") + ", is no longer the current one (72 FF: '" +
              a->id + "')");
        return;
    }
    if (o.phase == Phase::Interrogating) {
        if (a->status != kPending) {
            ended(station, *a);
            s.open.reset();  // answered by 72 FF: the next poll acknowledges it
        }
        return;
    }
    if (a->status != o.outcome.status || a->amounts != o.outcome.moved) {
        fail_("station " + std::to_string(station) + ": transfer " + id + " ended " + std::to_string(o.outcome.status) +
              " moving " + partsText(o.outcome.moved) + ", 72 FF now says " + std::to_string(a->status) + " moving " +
              partsText(a->amounts));
        return;
    }
    s.open.reset();  // interrogated: the next poll acknowledges it
}

// A final status: checked against what was asked, booked, and checked against the station's
// cumulative meters of its direction.
void SimAftHost::ended(std::int64_t station, const Answer& a) {
    Station& s = stations_.at(station);
    Open& o = *s.open;
    AftOutcome& out = o.outcome;
    const std::string id = o.id;
    const std::string name = "station " + std::to_string(station) + ": transfer " + id + " (type " +
                             std::to_string(out.type) + ", asked " + partsText(out.asked) + ")";
    out.status = a.status;
    if (succeeded(a.status)) {
        out.moved = a.amounts;
        const bool bonus = out.type == kBonusCoinOut || out.type == kBonusJackpot;
        // A bonus jackpot from the jackpot limit on is hand-paid: the transfer limit does not bound it.
        const bool handpaid = out.type == kBonusJackpot && total(out.moved) >= jackpotLimit_;
        bool fits = true;
        for (std::size_t i = 0; i < 3; ++i) {
            fits = fits && out.moved[i] >= 0 && out.moved[i] <= out.asked[i];
        }
        if (!fits || (a.status == 0x00 && out.moved != out.asked) ||
            (a.status == 0x01 && (out.code != kPartial || total(out.moved) >= total(out.asked))) ||
            (bonus && out.moved[1] != 0) || (total(out.moved) > transferLimit_ && !handpaid)) {
            fail_(name + " ended " + std::to_string(a.status) + " moving " + partsText(out.moved));
            return;
        }
        AftSums& sums = s.sums;
        AftParts cumulative{};
        if (out.type == kInHouseIn) {
            for (std::size_t i = 0; i < 3; ++i) {
                sums.in[i] += out.moved[i];
                sums.inCount[i] += out.moved[i] > 0 ? 1 : 0;
            }
            cumulative = sums.in;
        } else if (bonus) {
            stats_.bonusJackpotsHandpaid += handpaid ? 1 : 0;
            sums.bonus[0] += out.moved[0];
            sums.bonus[1] += out.moved[2];
            sums.bonusCount[0] += out.moved[0] > 0 ? 1 : 0;
            sums.bonusCount[1] += out.moved[2] > 0 ? 1 : 0;
            cumulative = {sums.bonus[0], 0, sums.bonus[1]};
        } else {
            for (std::size_t i = 0; i < 3; ++i) {
                sums.out[i] += out.moved[i];
                sums.outCount[i] += out.moved[i] > 0 ? 1 : 0;
            }
            cumulative = sums.out;
        }
        if (a.cumulative.size() != 1 || a.cumulative[0] != cumulative) {
            fail_(name + ": its cumulative meters read " +
                  (a.cumulative.empty() ? std::string("none") : partsText(a.cumulative[0])) + ", the host's sums " +
                  partsText(cumulative));
            return;
        }
        (a.status == 0x00 ? stats_.full : stats_.partial) += 1;
        s.lock = Lock::None;  // a transfer's end releases the lock
    } else {
        (a.status == kUnexpectedError ? stats_.unexpected : stats_.refused) += 1;
        s.lockDisturbed = s.lock != Lock::None;
        if ((a.status == 0x88 || a.status == 0x89) && s.registered.value_or(false)) {
            fail_(name + " ended " + std::to_string(a.status) +
                  ": the station lost a registration it answered to the host (LP 73)");
            return;
        }
        if (a.status == 0x88 || a.status == 0x89) {
            readRegistration(station);
        }
    }
    const std::uint8_t expected = out.code == kPartial ? 0x01 : 0x00;
    if (o.underLock && (a.status != expected || (expected == 0x01 && total(out.moved) != transferLimit_))) {
        fail_(name + ": a cash-out to the host of LP 74's balances under its lock ended " + std::to_string(a.status) +
              " moving " + partsText(out.moved));
        return;
    }
    stats_.lockedCashouts += o.underLock && a.status == expected ? 1 : 0;
    stats_.hostCashoutsTaken += o.hostCashout && succeeded(a.status) ? 1 : 0;
    if (const auto it = log_.find(id); it != log_.end() && it->second.status != a.status) {
        fail_(name + " ended twice: " + std::to_string(it->second.status) + ", then " + std::to_string(a.status));
        return;
    }
    log_[id] = out;
}

bool SimAftHost::readRegistration(std::int64_t station) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto f = poll_(station, withCrc({address, 0x73, 0x01, 0xFF}));
    if (f.size() != kRegistrationAnswerSize || !crcHolds(f) || f[0] != address || f[1] != 0x73 || f[2] != 0x1D) {
        fail_("station " + std::to_string(station) + ": LP 73 FF answered " + std::to_string(f.size()) + " bytes");
        return false;
    }
    Station& s = stations_.at(station);
    s.asset = little32(std::span(f.data() + 4, 4));
    // An LP B7 the host is still sending is in force at the station once it is taken, before
    // its record is durable and it is answered: LP 73 FF may read it (afed130's host took that
    // for an asset number lost: soak seeds 68219 and 68344, after a restart).
    const bool setting = s.registering && s.registering->frames.front()[1] == 0xB7 &&
                         little32(std::span(s.registering->frames.front().data() + 3, 4)) == *s.asset;
    if (s.assetTold && *s.asset != *s.assetTold && !setting) {
        // Set by the host alone, and answered once durable: a power cut cannot undo it.
        fail_("station " + std::to_string(station) + ": LP 73 FF reads asset number " + std::to_string(*s.asset) +
              ", the station answered LP B7 with " + std::to_string(*s.assetTold));
        return false;
    }
    const bool registered = f[3] == 0x01;
    if (!s.registering && s.registered && *s.registered != registered) {
        // Only the host changes it, and the station answers a change once it is durable.
        fail_("station " + std::to_string(station) + ": LP 73 FF reads status " + std::to_string(f[3]) +
              ", the host was told " + (*s.registered ? "registered" : "not registered"));
        return false;
    }
    if (!s.registering) {
        s.registered = registered;
    }
    return true;
}

// 00 initialise then 01 register with the host's key and POS ID; or 80 unregister. Each request
// is sent again, as it is, until answered (stepRegistration).
void SimAftHost::registerStation(std::int64_t station, bool on) {
    Station& s = stations_.at(station);
    const auto address = static_cast<std::uint8_t>(station);
    ++stats_.registrations;
    Registering r;
    if (!on) {
        r.frames.push_back(withCrc({address, 0x73, 0x01, 0x80}));
    } else {
        std::uint32_t asset = s.asset.value_or(0);
        if (percent() < 30) {
            // A new asset number first (LP B7, the floor location unchanged): the registration
            // that follows names it, so a B7 a power cut undid would be refused.
            asset = static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint32_t>(1, 0x7FFFFFFF)(random_));
            std::vector<std::uint8_t> frame{address, 0xB7, 0x05};
            putLittle(frame, asset, 4);
            frame.push_back(0x00);
            r.frames.push_back(withCrc(frame));
        }
        for (const std::uint8_t code : {std::uint8_t{0x00}, std::uint8_t{0x01}}) {
            std::vector<std::uint8_t> frame{address, 0x73, 0x1D, code};
            putLittle(frame, asset, 4);
            frame.insert(frame.end(), kKey.begin(), kKey.end());
            putLittle(frame, kPosId, 4);
            r.frames.push_back(withCrc(frame));
        }
    }
    s.registering = std::move(r);
    stepRegistration(station);
}

void SimAftHost::stepRegistration(std::int64_t station) {
    Station& s = stations_.at(station);
    Registering& r = *s.registering;
    const std::vector<std::uint8_t>& frame = r.frames.front();
    const std::uint8_t code = frame[3];
    const auto f = poll_(station, frame);
    if (f.empty()) {
        ++stats_.registrationsUnanswered;  // not durable yet, or lost: the same request again
        return;
    }
    if (frame[1] == 0xB7) {
        // addr B7 len control asset(4) location-len location CRC: the asset number asked, in force.
        const std::uint32_t asked = little32(std::span(frame.data() + 3, 4));
        if (f.size() < 2 + 1 + 6 + 2 || !crcHolds(f) || f[0] != frame[0] || f[1] != 0xB7 || f[2] != f.size() - 5 ||
            little32(std::span(f.data() + 4, 4)) != asked) {
            fail_("station " + std::to_string(station) + ": LP B7 setting asset number " + std::to_string(asked) +
                  " answered " + std::to_string(f.size()) + " bytes or another number");
            s.registering.reset();
            return;
        }
        ++stats_.registrationsAnswered;
        ++stats_.assetsSet;
        s.asset = asked;
        s.assetTold = asked;
        r.frames.erase(r.frames.begin());
        return;
    }
    const std::string name = "station " + std::to_string(station) + ": LP 73 " + std::to_string(code);
    if (f.size() != kRegistrationAnswerSize || !crcHolds(f) || f[0] != frame[0] || f[1] != 0x73 || f[2] != 0x1D) {
        fail_(name + " answered " + std::to_string(f.size()) + " bytes");
        s.registering.reset();
        return;
    }
    ++stats_.registrationsAnswered;
    if (code != 0x80 && little32(std::span(f.data() + 4, 4)) != little32(std::span(frame.data() + 4, 4))) {
        // The station registers under its asset number: one the host set with LP B7 and was
        // answered must still be it, whatever restarts came between.
        fail_(name + " answered asset number " + std::to_string(little32(std::span(f.data() + 4, 4))) +
              ", the host asked under " + std::to_string(little32(std::span(frame.data() + 4, 4))));
        s.registering.reset();
        return;
    }
    const std::uint8_t want = code == 0x80 ? 0x80 : code == 0x00 ? 0x00 : 0x01;
    const bool asAsked = f[3] == want && (code == 0x80 || (std::equal(kKey.begin(), kKey.end(), f.begin() + 8) &&
                                                           little32(std::span(f.data() + 28, 4)) == kPosId));
    if (!asAsked) {
        // Even after a restart: a repeat that meets the change it made before the power went (its
        // record durable, its answer lost) changes nothing.
        fail_(name + " answered status " + std::to_string(f[3]) + " or another key or POS ID");
        s.registered = f[3] == 0x01;
        s.registering.reset();
        return;
    }
    r.frames.erase(r.frames.begin());
    if (r.frames.empty()) {
        s.registered = code != 0x80;
        s.registering.reset();
    }
}

void SimAftHost::noteLockAnswer(Station& s, std::uint8_t status) {
    if (s.lock == Lock::None && status != kNotLocked) {
        fail_("a station answered LP 74 lock status " + std::to_string(status) +
              " with no lock asked since the last "
              "release");
        return;
    }
    s.lock = status == kLocked ? Lock::Locked : status == kLockPending ? Lock::Pending : Lock::None;
    s.lockDisturbed = s.lockDisturbed && s.lock != Lock::None;
}

std::optional<AftParts> SimAftHost::balances(std::int64_t station, std::int64_t nowMs) {
    const auto address = static_cast<std::uint8_t>(station);
    const auto f = poll_(station, withCrc({address, 0x74, 0xFF, 0x00, 0x00, 0x00}));
    if (f.size() != kLockAnswerSize || !crcHolds(f) || f[0] != address || f[1] != 0x74 || f[2] != 0x23 ||
        f[11] != 0x7F || (f[8] & kWinPendingToHost) != 0) {
        fail_("station " + std::to_string(station) + ": LP 74 FF answered " + std::to_string(f.size()) +
              " bytes, or another maximum index, or a win pending to the host");
        return std::nullopt;
    }
    Station& s = stations_.at(station);
    s.hostCashout = f[9];
    if ((f[9] & 0x01U) == 0 || (f[9] & ~0x07U) != 0) {
        fail_("station " + std::to_string(station) + ": LP 74 host cash-out status " + std::to_string(f[9]));
        return std::nullopt;
    }
    // A transfer taken under the lock holds it until it ends (protocols/sas/README.md, "Lock").
    if (s.lock != Lock::None && !s.open && nowMs >= s.lockUntilMs + 50 && f[7] != kNotLocked) {
        fail_("station " + std::to_string(station) + ": LP 74 lock status " + std::to_string(f[7]) +
              " past the lock's time-out");
        return std::nullopt;
    }
    noteLockAnswer(s, f[7]);
    stats_.locked += f[7] == kLocked ? 1 : 0;
    return AftParts{fromBcd(std::span(f.data() + 12, 5)), fromBcd(std::span(f.data() + 17, 5)),
                    fromBcd(std::span(f.data() + 22, 5))};
}

// LP 74 00 with some conditions and a time-out of 0.5-6 s; now and then a time-out of 0 or a
// cancel (80), which unlock.
void SimAftHost::askLock(std::int64_t station, std::int64_t nowMs) {
    const auto address = static_cast<std::uint8_t>(station);
    const int roll = percent();
    const std::uint8_t code = roll < 10 ? 0x80 : 0x00;
    const int timeout = roll < 20 && code == 0x00 ? 0 : std::uniform_int_distribution<int>(50, 600)(random_);
    std::uint8_t conditions = 0;
    while (conditions == 0) {
        conditions = static_cast<std::uint8_t>(random_() % 16) & 0x0BU;  // to, from, bonus (08)
    }
    const auto bcd = [](int two) { return static_cast<std::uint8_t>((two / 10) << 4 | two % 10); };
    const auto f =
        poll_(station, withCrc({address, 0x74, code, conditions, bcd(timeout / 100 % 100), bcd(timeout % 100)}));
    Station& s = stations_.at(station);
    ++stats_.locksAsked;
    if (f.empty()) {
        // No answer: the station may have taken it.
        s.lock = code == 0x00 && timeout > 0 ? Lock::Pending : s.lock;
        s.lockUntilMs = std::max(s.lockUntilMs, nowMs + std::int64_t{timeout} * 10);
        s.lockDisturbed = true;
        return;
    }
    if (f.size() != kLockAnswerSize || !crcHolds(f) || f[0] != address || f[1] != 0x74 || f[11] != 0x7F ||
        (f[8] & kWinPendingToHost) != 0) {
        fail_("station " + std::to_string(station) + ": LP 74 00 answered " + std::to_string(f.size()) + " bytes");
        return;
    }
    const std::uint8_t status = f[7];
    if ((code == 0x80 || timeout == 0) && status != kNotLocked) {
        fail_("station " + std::to_string(station) + ": LP 74 cancel or time-out 0 answered lock status " +
              std::to_string(status));
        return;
    }
    // Granted when every condition asked is available (the request's bonus bit 08 is the
    // answer's 10). One not granted leaves a lock the station already had as it was.
    const auto wanted =
        static_cast<std::uint8_t>((conditions & 0x07U) | ((conditions & kBonusCondition) != 0 ? kBonusAvailable : 0U));
    const bool granted = code == 0x00 && timeout > 0 && status != kNotLocked && (f[8] & wanted) == wanted;
    if (granted) {
        s.lock = Lock::Pending;  // its state is the answer's
        s.lockUntilMs = nowMs + std::int64_t{timeout} * 10;
        s.lockDisturbed = false;
        s.cashOutWhenLocked = (conditions & 0x02U) != 0 && percent() < 70;
    } else if (code == 0x00 && timeout > 0 && status != kNotLocked) {
        if (s.lock == Lock::None) {
            fail_("station " + std::to_string(station) + ": a lock not granted (available " + std::to_string(f[8]) +
                  " for conditions " + std::to_string(conditions) + ") answered lock status " + std::to_string(status));
            return;
        }
        s.lockDisturbed = true;  // an earlier lock goes on, on its own time-out
    }
    noteLockAnswer(s, status);
    stats_.locked += status == kLocked ? 1 : 0;
    if (status == kLocked && s.cashOutWhenLocked) {
        cashOutUnderLock(station, nowMs);
    }
}

// A station the host holds locked cashes out to the host: exactly LP 74's balances, full, and
// only if still locked (flag 40). Nothing can change them under the lock.
void SimAftHost::cashOutUnderLock(std::int64_t station, std::int64_t nowMs) {
    const auto held = balances(station, nowMs);
    if (!held || lockView(station, nowMs) != LockView::Locked || total(*held) == 0) {
        return;
    }
    stations_.at(station).cashOutWhenLocked = false;
    // More than the limit: a partial transfer, which takes up to it.
    start(station, total(*held) > transferLimit_ ? kPartial : kFull, kToHost, *held, kOnlyIfLocked, 0, true);
}

void SimAftHost::readHistory(std::int64_t station) {
    const int roll = percent();
    const auto index = static_cast<std::uint8_t>(roll < 40   ? 0xFF
                                                 : roll < 70 ? 0x80 + random_() % 128
                                                             : 1 + random_() % 0x7F);
    bool nothing = false;
    const auto a = interrogate(station, index, nothing);
    if (!a || nothing) {
        return;
    }
    const auto it = log_.find(a->id);
    if (!succeeded(a->status) || it == log_.end() || it->second.status != a->status || it->second.moved != a->amounts ||
        it->second.station != station || total(a->amounts) == 0) {
        fail_("station " + std::to_string(station) + ": history position " + std::to_string(index) + " holds '" +
              a->id + "' status " + std::to_string(a->status) + " moving " + partsText(a->amounts) +
              ", not a successful transfer of the host's");
        return;
    }
    ++stats_.historyReads;
}

void SimAftHost::act(std::int64_t station, std::int64_t nowMs) {
    Station& s = stations_.at(station);
    if (s.open) {
        return;
    }
    if (s.registering) {
        return;  // its requests are sent again by advance() until answered
    }
    if (!s.asset || !s.registered) {
        if (readRegistration(station) && !*s.registered && percent() < 50) {
            registerStation(station, true);
        }
        return;
    }
    const int roll = percent();
    const std::uint8_t code = percent() < 25 ? kPartial : kFull;
    const std::int64_t most = transferLimit_ * 6 / 10;
    if (roll < 25) {
        // In house to the station: each type now and then, restricted mostly from pool 1.
        AftParts amounts{percent() < 60 ? cents(most) : 0, percent() < 30 ? cents(most / 2) : 0,
                         percent() < 30 ? cents(most / 2) : 0};
        if (total(amounts) == 0) {
            amounts[0] = 100;
        }
        const auto pool = static_cast<std::uint16_t>(percent() < 90 ? 1 : 2);
        // Now and then the host asks for the station's cash-outs (flags 01 + 02, 04 hard) or stops.
        const int mode = percent();
        const std::uint8_t cashout = mode < 10 ? 0x03 : mode < 24 ? 0x07 : mode < 30 ? 0x01 : 0x00;
        start(station, code, kInHouseIn, amounts,
              static_cast<std::uint8_t>((percent() < 10 ? kOnlyIfLocked : 0) | cashout), pool, false);
    } else if (roll < 35) {
        // A bonus: cashable or non-restricted (now and then restricted or partial: refused).
        AftParts amounts{percent() < 60 ? cents(most / 4) : 0, percent() < 5 ? 500 : 0,
                         percent() < 50 ? cents(most / 4) : 0};
        if (total(amounts) == 0) {
            amounts[2] = 250;
        }
        // One in three a bonus jackpot (11), half of those from the jackpot limit on: hand-paid,
        // the station locked until the operator or the host (LP 94) resets it.
        const int kind = percent();
        if (kind < 15) {
            amounts = {jackpotLimit_ + cents(most), 0, percent() < 50 ? cents(most / 4) : 0};
        }
        start(station, percent() < 5 ? kPartial : kFull, kind < 33 ? kBonusJackpot : kBonusCoinOut, amounts, 0, 0,
              false);
    } else if (roll < 55) {
        // To the host without a lock: what LP 74 said, racing the station's bets.
        const auto held = balances(station, nowMs);
        if (!held) {
            return;
        }
        AftParts amounts = *held;
        const int how = percent();
        for (std::int64_t& a : amounts) {
            a = how < 50 ? a : how < 80 ? 2 * a + 100 : a + 1;  // all, or more (partial takes what is held)
        }
        start(station, how < 50 ? kFull : how < 80 ? kPartial : kFull, kToHost, amounts, 0, 0, false);
    } else if (roll < 72) {
        askLock(station, nowMs);
    } else if (roll < 80) {
        if (lockView(station, nowMs) == LockView::Locked) {
            cashOutUnderLock(station, nowMs);
        } else {
            askLock(station, nowMs);
        }
    } else if (roll < 85) {
        registerStation(station, !*s.registered);
    } else if (roll < 96) {
        readHistory(station);
    } else {
        balances(station, nowMs);
    }
}

void SimAftHost::onException(std::int64_t station, std::uint8_t code, std::int64_t nowMs) {
    if (!stations_.contains(station)) {
        return;
    }
    Station& s = stations_.at(station);
    if (code == 0x69) {
        if (s.open) {
            step(station);
            return;
        }
        // A transfer ended that the host has no open request for (one it resolved before a
        // restart, raised again): its status must be the one the host already has.
        bool nothing = false;
        const auto a = interrogate(station, 0x00, nothing);
        if (a && !nothing) {
            const auto it = log_.find(a->id);
            if (it != log_.end() && it->second.journaled && a->status != kPending &&
                (it->second.status != a->status ||
                 it->second.moved != (succeeded(a->status) ? a->amounts : AftParts{}))) {
                fail_("station " + std::to_string(station) + ": 69 for transfer '" + a->id + "' now " +
                      std::to_string(a->status) + ", the host had it " + std::to_string(it->second.status));
            }
        }
    } else if (code == 0x6F) {
        // Locked: LP 74 says so, and a lock asked for a cash-out to the host goes on with it.
        if (balances(station, nowMs) && s.cashOutWhenLocked && !s.open &&
            lockView(station, nowMs) == LockView::Locked) {
            cashOutUnderLock(station, nowMs);
        }
    } else if (code == 0x6D || code == 0x6E) {
        readRegistration(station);
    } else if (code == 0x6A && !s.open) {
        // A hard offer raced (a re-settlement of the station's last rounds, a bet), then taken
        // a moment later: what LP 74 says then may be nothing, and the station must end the
        // offer itself (86f2833; soak seed 47554 waited for ever).
        if (raceHardOffer_ && !s.takeOfferAtMs && balances(station, nowMs) && (s.hostCashout & 0x04U) != 0 &&
            raceHardOffer_(station)) {
            ++stats_.hardOffersRaced;
            s.takeOfferAtMs = nowMs + 300;
            return;
        }
        takeOffer(station, nowMs);
    }
}

// A player's cash-out offered to the host: taken with a transfer of LP 74's balances (in soft
// mode now and then not, to let the station's wait run out; hard mode waits for it).
void SimAftHost::takeOffer(std::int64_t station, std::int64_t nowMs) {
    Station& s = stations_.at(station);
    const auto held = balances(station, nowMs);
    if (held && total(*held) == 0) {
        stats_.hardOffersEmpty += (s.hostCashout & 0x04U) != 0 ? 1 : 0;
    }
    if (!held || total(*held) == 0 || ((s.hostCashout & 0x04U) == 0 && percent() < 30)) {
        return;
    }
    start(station, total(*held) > transferLimit_ ? kPartial : kFull, kToHost, *held, 0, 0, false);
    if (s.open) {
        s.open->hostCashout = true;
    }
}

}  // namespace pitlink::sim
