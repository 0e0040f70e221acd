#include "daemon/sas/station_aft.h"

#include <cstdio>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/sas/exception_events.h"
#include "protocols/sas/exception_queue.h"

namespace pitlink::sas {

namespace {

constexpr std::chrono::milliseconds kCompleteRepeat{15'000};    // 69 (docs/sas.md "AFT")
constexpr std::chrono::milliseconds kLockedRepeat{5'000};       // 6F
constexpr std::chrono::milliseconds kHostCashoutRepeat{800};    // 6A (Monaco's HostCashOutProvider)
constexpr std::uint8_t kHostCashoutControl = 0x01;              // LP 72 flags: apply 02 and 04
constexpr std::uint8_t kHostCashoutModeBits = 0x06;             // 02 enabled, 04 hard
constexpr std::chrono::milliseconds kExpiryCheckEvery{60'000};  // restricted credits' expiry

journal::AftAmounts amountsOf(const aft::Amounts& a) {
    return {static_cast<std::int64_t>(a.cashable), static_cast<std::int64_t>(a.restricted),
            static_cast<std::int64_t>(a.nonrestricted)};
}

aft::Amounts centsOf(const journal::AftAmounts& a) {
    return {static_cast<std::uint64_t>(a.cashable), static_cast<std::uint64_t>(a.restricted),
            static_cast<std::uint64_t>(a.nonrestricted)};
}

bool succeeded(std::uint8_t status) {
    return status == aft::status::kFullTransfer || status == aft::status::kPartialTransfer;
}

// "YYYY-MM-DD hh:mm:ss" and back.
std::optional<SasDateTime> dateTimeOf(const std::optional<std::string>& text) {
    SasDateTime t;
    if (!text || std::sscanf(text->c_str(), "%4d-%2d-%2d %2d:%2d:%2d", &t.year, &t.month, &t.day, &t.hour, &t.minute,
                             &t.second) != 6) {
        return std::nullopt;
    }
    return t;
}

// A local date as the records write it, "YYYY-MM-DD", and back.
std::string textOf(const aft::Date& d) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", d.year, d.month, d.day);
    return text;
}

std::optional<aft::Date> dateOf(const std::optional<std::string>& text) {
    aft::Date d;
    if (!text || std::sscanf(text->c_str(), "%4d-%2d-%2d", &d.year, &d.month, &d.day) != 3 || !aft::validDate(d)) {
        return std::nullopt;
    }
    return d;
}

}  // namespace

journal::AftTransferRecord transferRecordOf(const aft::TransferRequest& r) {
    journal::AftTransferRecord record;
    record.id = r.transactionId;
    record.code = r.code;
    record.type = r.type;
    record.asked = amountsOf(r.amounts);
    record.flags = r.flags;
    record.asset = r.asset;
    record.expiration = r.expiration;
    record.pool = r.poolId;
    record.status = aft::status::kPending;
    return record;
}

aft::TransferRequest requestOf(const journal::AftTransferRecord& record) {
    aft::TransferRequest r;
    r.transactionId = record.id;
    r.code = record.code;
    r.type = record.type;
    r.amounts = centsOf(record.asked);
    r.flags = record.flags;
    r.asset = record.asset;
    r.expiration = record.expiration;
    r.poolId = record.pool;
    return r;
}

StationAft::StationAft(std::int64_t station, const AftSettings& settings, table::Table& table,
                       const journal::Journal& journal, platform::Executor& timers, const TableClock& clock,
                       Raise raise, JournalRecord journalRecord, AssetNumber asset, RestrictedDays restrictedDays)
    : station_(station),
      settings_(settings),
      table_(table),
      journal_(journal),
      timers_(timers),
      clock_(clock),
      raise_(std::move(raise)),
      journalRecord_(std::move(journalRecord)),
      asset_(std::move(asset)),
      restrictedDays_(std::move(restrictedDays)),
      checkedOffset_(clock.offsetMs()),
      lockStatus_(aft::lock::kNotLocked) {}

StationAft::~StationAft() {
    for (const auto timer :
         {completeRepeat_, lockTimeout_, lockedRepeat_, hostCashoutRepeat_, hostCashoutWait_, expiryCheck_}) {
        if (timer != 0) {
            timers_.cancel(timer);
        }
    }
}

void StationAft::restore(const AftResume& resume) {
    hostCashout_ = resume.hostCashout;
    if (resume.registration) {
        const auto& r = *resume.registration;
        registration_ = aft::Registration{r.status, r.asset, r.key, r.posId};
    }
    // The pool and expiry of the restricted credits held: the journal's, after the last transfer in
    // that brought some (kept apart from the history, which forgets after 127 transfers), while the
    // station still holds restricted credits.
    restricted_.reset();
    if (resume.restricted && restrictedHeld() > 0) {
        restricted_ = Restricted{resume.restricted->pool, dateOf(resume.restricted->expires)};
    }
    for (const journal::AftTransferRecord& entry : resume.history) {
        history_.add(answerOf(entry, 0));
        lastHistoryId_ = entry.id;
    }
    // At every start the station is unlocked (LP 74).
    table_.setAftLocked(station_, false);
    if (resume.current) {
        current_ = Current{*resume.current, true, resume.acknowledged, 0};
        if (current_->acknowledged && !resume.history.empty() && resume.history.back().id == current_->record.id) {
            current_->position = history_.positionOf(0xFF);
        }
    }
}

void StationAft::start() {
    checkExpiry();  // the restricted credits held may have expired while pitlinkd was down
    scheduleExpiryCheck();
    if (!current_) {
        return;
    }
    if (current_->record.status == aft::status::kPending) {
        // The power went while it was pending: it ends, moving nothing (its credits never moved:
        // they move in the transaction that ends it). Until that is durable the host is told what
        // is: pending (40), never "no information" of a transfer it saw taken.
        journal::AftTransferRecord final = current_->record;
        final.status = aft::status::kUnexpectedError;
        final.at = nowText();
        journalRecord_(final, [this, final](bool committed) {
            if (committed && current_ && current_->record.id == final.id) {
                current_->record = final;
                raise_(code::kAftTransferComplete);
                repeatComplete();
            }
        });
        return;
    }
    if (!current_->acknowledged) {
        raise_(code::kAftTransferComplete);  // again at start while unacknowledged
        repeatComplete();
    }
}

aft::Amounts StationAft::available() const {
    const journal::StationAccount acc = journal_.projected().station(station_);
    const auto cents = [](game::Money m) { return static_cast<std::uint64_t>(std::max<game::Money>(m, 0)); };
    return {cents(acc.cashable()), cents(acc.promo.held.restricted), cents(acc.promo.held.nonrestricted)};
}

aft::TransferContext StationAft::context() const {
    aft::TransferContext c;
    c.asset = asset_();
    c.registration = registration_;
    c.locked = lockStatus_ == aft::lock::kLocked;
    c.available = available();
    c.transferLimitCents = static_cast<std::uint64_t>(settings_.transferLimitCents);
    c.denominationCents = static_cast<std::uint64_t>(table_.denomination());
    c.jackpotLimitCents = static_cast<std::uint64_t>(std::max<game::Money>(table_.jackpotLimit(), 0));
    c.idle = table_.stationIdle(station_);
    const table::StationWallet& w = table_.wallet(station_);
    const bool busy = table_.tilted() || w.handpay.has_value() || w.cashingOut || w.redeeming;
    c.transferInAllowed = !busy;
    c.transferOutAllowed = !busy;
    c.bonusAllowed = settings_.bonus && !table_.tilted() && !w.handpay;
    c.restrictedPool = restricted_ ? restricted_->pool : 0;
    c.lastHistoryId = lastHistoryId_;
    if (current_ && current_->record.status == aft::status::kPending) {
        c.expirationValid = expiryOf(current_->record.expiration).valid;  // checked again when it moves
    }
    return c;
}

aft::Date StationAft::today() const {
    const SasDateTime t = clock_.localTime();
    return aft::Date{t.year, t.month, t.day};
}

aft::Expiry StationAft::expiryOf(std::uint32_t expiration) const {
    return aft::expiryOf(expiration, today(), restrictedDays_ ? restrictedDays_() : 0);
}

game::Money StationAft::restrictedHeld() const {
    const journal::StationAccount acc = journal_.projected().station(station_);
    return acc.promo.held.restricted + acc.promo.staked().restricted;
}

bool StationAft::transferInFlight() const {
    return current_ && (!current_->durable || current_->record.status == aft::status::kPending);
}

std::optional<std::string> StationAft::expiresAfter(const aft::TransferRequest& request) const {
    const aft::Expiry incoming = expiryOf(request.expiration);
    std::optional<aft::Date> expires = incoming.expires;
    if (restricted_ && restrictedHeld() > 0) {
        expires = aft::laterExpiry(restricted_->expires, incoming.expires);  // never shortened
    }
    return expires ? std::optional<std::string>(textOf(*expires)) : std::nullopt;
}

void StationAft::scheduleExpiryCheck() {
    expiryCheck_ = timers_.after(kExpiryCheckEvery, [this] {
        expiryCheck_ = 0;
        checkExpiry();
        scheduleExpiryCheck();
    });
}

void StationAft::checkExpiry() {
    checkedOffset_ = clock_.offsetMs();
    if (journal_.failed()) {
        return;
    }
    const journal::StationAccount acc = journal_.projected().station(station_);
    if (acc.promo.held.restricted + acc.promo.staked().restricted <= 0) {
        restricted_.reset();  // none left: the pool and the date go with them
        return;
    }
    const game::Money unstaked = acc.promo.held.restricted;
    if (!restricted_ || !restricted_->expires || unstaked <= 0 || !aft::expiredOn(*restricted_->expires, today())) {
        return;
    }
    const table::StationWallet& w = table_.wallet(station_);
    if (transferInFlight() || w.handpay || w.cashingOut || w.hostCashingOut || hostCashoutDone_) {
        return;  // the next check
    }
    // A restricted stake in play stays restricted: if it comes back, the next check takes it.
    const std::string ref = "pool " + std::to_string(restricted_->pool) + " expired " + textOf(*restricted_->expires);
    table_.expireRestricted(station_, unstaked, ref, [this](bool committed) {
        if (committed && restrictedHeld() <= 0) {
            restricted_.reset();
        }
    });
}

std::string StationAft::nowText() const {
    const SasDateTime t = clock_.localTime();
    char text[32];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d", t.year, t.month, t.day, t.hour, t.minute,
                  t.second);
    return text;
}

aft::TransferAnswer StationAft::answerOf(const journal::AftTransferRecord& record, std::uint8_t position) const {
    aft::TransferAnswer a;
    a.position = position;
    a.status = record.status;
    a.type = record.type;
    a.amounts = record.status == aft::status::kPending ? centsOf(record.asked) : centsOf(record.moved);
    a.flags = record.flags;
    a.asset = record.asset;
    a.transactionId = record.id;
    if (record.status != aft::status::kPending) {
        a.at = dateTimeOf(record.at);
    }
    const bool restricted = record.type == aft::type::kInHouseToMachine && record.moved.restricted > 0;
    a.expiration = restricted ? record.expiration : 0;
    a.poolId = restricted ? record.pool : 0;
    if (succeeded(record.status)) {
        // The cumulative meters of its direction (cents), as they stand.
        const journal::MeterSet& m = journal_.committed().station(station_).meters;
        const auto cents = [&m](journal::Meter meter) { return static_cast<std::uint64_t>(m[meter]); };
        using journal::Meter;
        if (aft::isBonus(record.type)) {
            a.cumulative = aft::Amounts{cents(Meter::BonusCashable), 0, cents(Meter::BonusNonrestricted)};
        } else if (aft::toStation(record.type)) {
            a.cumulative = aft::Amounts{cents(Meter::TransferInCashable), cents(Meter::TransferInRestricted),
                                        cents(Meter::TransferInNonrestricted)};
        } else {
            a.cumulative = aft::Amounts{cents(Meter::TransferOutCashable), cents(Meter::TransferOutRestricted),
                                        cents(Meter::TransferOutNonrestricted)};
        }
    }
    return a;
}

aft::TransferReply StationAft::transfer(const aft::TransferRequest& request) {
    // The same transaction again (its answer was lost, or not given yet): its status, never a
    // second transfer. Once a successful one is acknowledged its ID is the history's newest, and
    // the same ID is a new request, refused (81).
    if (current_ && current_->record.id == request.transactionId &&
        (!current_->durable || !current_->acknowledged || !succeeded(current_->record.status))) {
        if (!current_->durable) {
            return aft::NoAnswerYet{};
        }
        return answerOf(current_->record, current_->position);
    }
    if (current_ && !current_->acknowledged) {
        return aft::ShortTransferAnswer{0, aft::status::kNotCompatible};
    }
    begin(request);
    return aft::NoAnswerYet{};
}

void StationAft::begin(const aft::TransferRequest& request) {
    journal::AftTransferRecord record = transferRecordOf(request);
    aft::TransferContext c = context();
    c.expirationValid = expiryOf(request.expiration).valid;
    const auto refused = aft::refusalOf(request, c);
    if (refused) {
        // A refusal found at once: journaled, answered once durable, acknowledged already (no 69).
        record.status = *refused;
        record.at = nowText();
    }
    const bool holdsLock = !refused && lockStatus_ == aft::lock::kLocked && lockTimeout_ != 0;
    if (holdsLock) {
        // A transfer taken under the lock holds it until the transfer ends (execute() releases
        // it): the host asked within the lock's time-out, and the record's commit must not let
        // the time-out run out under it (the lock-required flag 40 would then refuse it, and bets
        // could move the balances the host read).
        timers_.cancel(lockTimeout_);
        lockTimeout_ = 0;
    }
    current_ = Current{record, false, refused.has_value(), 0};
    journalRecord_(record, [this, id = record.id, refusal = refused.has_value(), flags = request.flags,
                            holdsLock](bool committed) {
        if (!committed && holdsLock) {
            releaseLock();  // no time-out runs for it any more: the station is not left locked
        }
        if (!committed || !current_ || current_->record.id != id) {
            return;  // the journal failed: the request is never answered
        }
        current_->durable = true;
        if (!refusal) {
            if ((flags & kHostCashoutControl) != 0) {
                hostCashout_ = flags & kHostCashoutModeBits;  // a request taken sets the mode
            }
            execute();
        }
    });
}

void StationAft::execute() {
    const journal::AftTransferRecord pending = current_->record;
    const aft::TransferRequest request = requestOf(pending);
    aft::TransferContext c = context();
    c.lastHistoryId.reset();  // its ID was checked when it was taken
    journal::AftTransferRecord final = pending;
    final.at = nowText();
    // Checked again now: the station may have changed since it was taken.
    const auto refused = aft::refusalOf(request, c);
    const aft::TransferAmounts amounts = refused ? aft::TransferAmounts{{}, *refused} : aft::amountsMoved(request, c);
    final.status = amounts.status;
    game::Money amount = 0;
    journal::PromoParts parts;
    std::string_view reason = journal::reason::kTransferIn;
    if (amounts.done()) {
        final.moved = amountsOf(amounts.moved);
        if (request.type == aft::type::kInHouseToMachine && amounts.moved.restricted > 0) {
            // Its end says when the restricted credits held expire after it (its local date).
            final.expires = expiresAfter(request);
        }
        const auto total = static_cast<game::Money>(amounts.moved.total());
        parts = {static_cast<game::Money>(amounts.moved.restricted),
                 static_cast<game::Money>(amounts.moved.nonrestricted)};
        if (aft::toStation(request.type)) {
            amount = total;
            reason = aft::isBonus(request.type) ? journal::reason::kBonus : journal::reason::kTransferIn;
        } else {
            amount = -total;
            parts = parts.negated();
            reason = journal::reason::kTransferOut;
        }
    }
    releaseLock();  // a transfer's end releases the lock
    table_.aftTransfer(
        station_, final, amount, parts, reason,
        [this, final](bool committed) {
            if (committed) {
                ended(final);
            }
        },
        amounts.handpay);
}

void StationAft::ended(const journal::AftTransferRecord& final) {
    if (!current_ || current_->record.id != final.id) {
        return;
    }
    current_->record = final;
    current_->durable = true;
    if (succeeded(final.status) && final.type == aft::type::kInHouseToMachine && final.moved.restricted > 0) {
        restricted_ = Restricted{final.pool, dateOf(final.expires)};
    }
    repeatComplete();  // 69 was raised by the transaction itself (exception_events.cpp)
    if (hostCashoutDone_ && succeeded(final.status) && !aft::toStation(final.type) && final.moved.total() > 0) {
        endHostCashout(final.moved.total());  // the host took the cash-out
    }
}

bool StationAft::offerHostCashout(game::Money amount, std::function<void(std::optional<game::Money>)> done) {
    if ((hostCashout_ & aft::lock::kCashoutEnabled) == 0 || hostCashoutDone_ || amount <= 0) {
        return false;
    }
    hostCashoutDone_ = std::move(done);
    raise_(code::kAftHostCashout);
    repeatHostCashout();
    if ((hostCashout_ & aft::lock::kCashoutHard) == 0) {
        hostCashoutWait_ = timers_.after(settings_.hostCashoutWait, [this] {
            hostCashoutWait_ = 0;
            endHostCashout(std::nullopt);  // soft: the ticket (or hand-pay) pays it
        });
    }
    return true;
}

void StationAft::repeatHostCashout() {
    hostCashoutRepeat_ = timers_.after(kHostCashoutRepeat, [this] {
        hostCashoutRepeat_ = 0;
        if (hostCashoutDone_) {
            raise_(code::kAftHostCashout);
            repeatHostCashout();
        }
    });
}

void StationAft::endHostCashout(std::optional<game::Money> taken) {
    for (platform::Executor::TimerId* timer : {&hostCashoutRepeat_, &hostCashoutWait_}) {
        if (*timer != 0) {
            timers_.cancel(*timer);
            *timer = 0;
        }
    }
    auto done = std::move(hostCashoutDone_);
    hostCashoutDone_ = nullptr;
    if (done) {
        done(taken);
    }
}

void StationAft::repeatComplete() {
    if (completeRepeat_ != 0) {
        timers_.cancel(completeRepeat_);
    }
    completeRepeat_ = timers_.after(kCompleteRepeat, [this] {
        completeRepeat_ = 0;
        if (current_ && !current_->acknowledged) {
            raise_(code::kAftTransferComplete);
            repeatComplete();
        }
    });
}

aft::TransferReply StationAft::interrogate(const aft::TransferQuery& query) {
    if (query.index == 0) {
        if (!current_ || !current_->durable) {
            return aft::NoTransferInformation{0};
        }
        return answerOf(current_->record, current_->position);
    }
    if (const aft::TransferAnswer* entry = history_.at(query.index)) {
        aft::TransferAnswer answer = *entry;
        answer.cumulative.reset();  // the meters are those of the current transfer only
        return answer;
    }
    return aft::NoTransferInformation{query.index};
}

void StationAft::interrogationAcknowledged() {
    if (!current_ || !current_->durable || current_->acknowledged || current_->record.status == aft::status::kPending) {
        return;
    }
    current_->acknowledged = true;
    if (completeRepeat_ != 0) {
        timers_.cancel(completeRepeat_);
        completeRepeat_ = 0;
    }
    if (succeeded(current_->record.status) && current_->record.moved.total() > 0) {
        current_->position = history_.add(answerOf(current_->record, 0));
        lastHistoryId_ = current_->record.id;
    }
    journalRecord_(journal::AftAcknowledgedRecord{current_->record.id}, [](bool) {});
}

std::optional<aft::RegistrationAnswer> StationAft::registration(const aft::RegistrationRequest& request) {
    if (request.code == aft::registration::kRead) {
        return registrationAnswer();
    }
    if (registering_) {
        return std::nullopt;  // another change is not durable yet: this one waits for the repeat
    }
    if (registered_ == request) {
        return registrationAnswer();  // a repeat of the change just made durable
    }
    registered_.reset();
    const aft::RegistrationStep step = aft::registrationStep(registration_, request, asset_());
    if (step.after == registration_) {
        if (step.exception != 0) {
            raise_(step.exception);
        }
        return registrationAnswer();
    }
    // A change: answered (and its exception raised) once its record is durable, so that a power
    // cut never loses a registration the host was told of.
    registering_ = request;
    const aft::Registration& after = step.after;
    journalRecord_(journal::AftRegistrationRecord{after.status, after.asset, after.key, after.posId},
                   [this, step, request](bool committed) {
                       registering_.reset();
                       if (!committed) {
                           return;  // not made: its repeat is taken afresh
                       }
                       registration_ = step.after;
                       registered_ = request;
                       if (step.exception != 0) {
                           raise_(step.exception);
                       }
                   });
    return std::nullopt;
}

aft::RegistrationAnswer StationAft::registrationAnswer() const {
    return {registration_.status, asset_(), registration_.key, registration_.posId};
}

std::uint8_t StationAft::availableTransfers() const {
    if (current_ && !current_->acknowledged) {
        return 0;  // a transfer in progress: none until it is acknowledged
    }
    const aft::TransferContext c = context();
    std::uint8_t bits = 0;
    if (c.transferInAllowed) {
        bits |= aft::lock::kAvailableToMachine;
    }
    if (c.transferOutAllowed) {
        bits |= aft::lock::kAvailableFromMachine;
    }
    if (c.bonusAllowed) {
        bits |= aft::lock::kAvailableBonusToMachine;
    }
    return bits;
}

std::uint8_t StationAft::aftStatus() const {
    std::uint8_t bits =
        aft::lock::kStatusPartialToHost | aft::lock::kStatusInHouseEnabled | aft::lock::kStatusAnyEnabled;
    if (settings_.bonus) {
        bits |= aft::lock::kStatusBonusEnabled;
    }
    if (registration_.registered()) {
        bits |= aft::lock::kStatusRegistered;
    }
    return bits;
}

aft::LockAnswer StationAft::lock(const aft::LockRequest& request) {
    if (request.code == aft::lock::kCancel || (request.code == aft::lock::kRequest && request.timeout == 0)) {
        releaseLock();
    } else if (request.code == aft::lock::kRequest) {
        // The request's bonus condition is 08; the available transfers' bonus bit is 10.
        std::uint8_t wanted = request.conditions & 0x07U;
        if ((request.conditions & aft::lock::kConditionBonusToMachine) != 0) {
            wanted |= aft::lock::kAvailableBonusToMachine;
        }
        if ((availableTransfers() & wanted) == wanted) {
            if (lockStatus_ == aft::lock::kNotLocked) {
                lockStatus_ = aft::lock::kPending;
            }
            if (lockTimeout_ != 0) {
                timers_.cancel(lockTimeout_);
            }
            lockTimeout_ = timers_.after(std::chrono::milliseconds(10 * request.timeout), [this] {
                lockTimeout_ = 0;
                releaseLock();
            });
            tryLock();
        }
    }
    aft::LockAnswer a;
    a.asset = asset_();
    a.lockStatus = lockStatus_;
    a.available = availableTransfers();
    a.aftStatus = aftStatus();
    a.current = available();
    a.transferLimit = static_cast<std::uint64_t>(settings_.transferLimitCents);
    // The host controls cash-outs to the host (LP 72 flags 01-04): 01 controllable, and the mode.
    a.hostCashout = aft::lock::kCashoutControllable | hostCashout_;
    // The restricted credits' expiry date (MMDDYYYY; 0 when they never expire) and pool.
    const bool restricted = a.current.restricted > 0 && restricted_;
    a.restrictedExpiration = restricted && restricted_->expires ? aft::mmddyyyyOf(*restricted_->expires) : 0;
    a.restrictedPool = restricted ? restricted_->pool : 0;
    return a;
}

void StationAft::tryLock() {
    if (lockStatus_ != aft::lock::kPending || !table_.stationIdle(station_) || table_.tilted()) {
        return;
    }
    lockStatus_ = aft::lock::kLocked;
    table_.setAftLocked(station_, true);
    raise_(code::kAftGameLocked);
    repeatLocked();
}

void StationAft::repeatLocked() {
    lockedRepeat_ = timers_.after(kLockedRepeat, [this] {
        lockedRepeat_ = 0;
        if (lockStatus_ == aft::lock::kLocked) {
            raise_(code::kAftGameLocked);
            repeatLocked();
        }
    });
}

void StationAft::releaseLock() {
    for (platform::Executor::TimerId* timer : {&lockTimeout_, &lockedRepeat_}) {
        if (*timer != 0) {
            timers_.cancel(*timer);
            *timer = 0;
        }
    }
    if (lockStatus_ == aft::lock::kLocked) {
        table_.setAftLocked(station_, false);
    }
    lockStatus_ = aft::lock::kNotLocked;
}

nlohmann::json StationAft::statusJson() const {
    nlohmann::json current = nullptr;
    if (current_) {
        current = {
            {"id", current_->record.id}, {"status", current_->record.status}, {"acknowledged", current_->acknowledged}};
    }
    return {{"registration", registration_.status},
            {"lock", lockStatus_},
            {"host_cashout", {{"mode", hostCashout_}, {"pending", static_cast<bool>(hostCashoutDone_)}}},
            {"current", std::move(current)},
            {"history", history_.size()}};
}

void StationAft::tick() {
    if (lockStatus_ == aft::lock::kLocked && table_.tilted()) {
        releaseLock();  // a tilt releases the lock
    }
    tryLock();
    if (clock_.offsetMs() != checkedOffset_) {
        checkExpiry();  // the host moved the clock (LP 7F): perhaps past the expiry date
    }
    if (hostCashoutDone_ && !transferInFlight()) {
        // A re-settlement may take back every credit offered to the host (soak seed 47554): LP 74
        // then shows nothing to take, and a hard offer would wait for ever. The cash-out goes on
        // as any other (which finds nothing to pay). A transfer in flight ends it itself.
        const journal::StationAccount acc = journal_.projected().station(station_);
        if (acc.cashable() + acc.promo.held.nonrestricted <= 0) {
            endHostCashout(std::nullopt);
        }
    }
}

}  // namespace pitlink::sas
