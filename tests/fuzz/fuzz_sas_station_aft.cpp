// libFuzzer: SAS AFT through a whole station: the escaped line -> framer -> link -> SasStation
// -> an AftHost double that follows daemon/sas/station_aft.cpp on the pure cores of
// protocols/sas/aft_rules.h (registrationStep, refusalOf, amountsMoved, TransferHistory) over a
// wallet of cashable, restricted and non-restricted cents. No journal: a table-side command
// makes the current request's record durable, another ends the transfer.
// The input: its first byte is the station's settings (bit 0 bonus awards on, bits 1-2 the
// accounting denomination, bits 3-4 the transfer limit); the rest is the escaped line (as
// fuzz_sas_framer), where a data 0x7E is not a line byte but a command for the table side, from
// the byte b after it (b % 5; its argument b / 5):
//   0: time passes (argument x 250 ms: a lock may expire or be taken), then the link's tick;
//   1: the journal commits the current request's record: it is durable (a refusal final, a
//      transfer pending 40), and an LP 73 change's;
//   2: the table's transaction ends the pending transfer: checked again, its amounts moved, 69;
//   3: play: the player loses (argument < 26) or wins 100 cents x (argument % 13 + 1) of one
//      credit type (argument % 3), never more than the wallet holds;
//   4: the station turns busy or idle (a hand-pay, a cash-out: no transfer), or with an odd
//      argument tilts or recovers.
// Whatever the host sends, it must hold that: a transaction ID moves money at most once (again
// only after another ID moved: SAS refuses, 81, only the newest history entry's ID); money is
// conserved (wallet = start + moved in - moved out + play - bonus jackpots hand-paid, never below
// zero); a request repeated
// with the current transfer's ID never transfers again; a request is not answered until its
// record is durable, and every LP 72 answer naming a transfer carries that durable record's
// status and amounts; the implied ACK of a 72 FF answer comes from the host's next other poll;
// LP 74's balances are the wallet's; a frame the station sends begins with its address and ends
// with a correct CRC; nothing answers a broadcast, another address or a bad CRC.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "protocols/sas/aft_polls.h"
#include "protocols/sas/aft_rules.h"
#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/parmrk_decoder.h"
#include "protocols/sas/station_stack.h"
#include "tests/support/no_tickets_host.h"
#include "tests/support/recording_link_output.h"

namespace {

using namespace pitlink::sas;

constexpr std::uint8_t kAddress = 3;
constexpr std::uint32_t kAsset = 0x1234;
constexpr std::uint8_t kTransferComplete = 0x69;  // as daemon/sas/exception_events.h
constexpr std::uint8_t kGameLocked = 0x6F;

void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

bool succeeded(std::uint8_t status) {
    return status == aft::status::kFullTransfer || status == aft::status::kPartialTransfer;
}

// The station's credits by type, signed so that a transfer taking more than is held shows.
struct Wallet {
    std::int64_t cashable = 0;
    std::int64_t restricted = 0;
    std::int64_t nonrestricted = 0;
    void add(const aft::Amounts& a, std::int64_t sign) {
        cashable += sign * static_cast<std::int64_t>(a.cashable);
        restricted += sign * static_cast<std::int64_t>(a.restricted);
        nonrestricted += sign * static_cast<std::int64_t>(a.nonrestricted);
    }
    std::int64_t& of(std::uint8_t type) { return type == 0 ? cashable : type == 1 ? restricted : nonrestricted; }
    [[nodiscard]] aft::Amounts held() const {
        check(cashable >= 0 && restricted >= 0 && nonrestricted >= 0);
        return {static_cast<std::uint64_t>(cashable), static_cast<std::uint64_t>(restricted),
                static_cast<std::uint64_t>(nonrestricted)};
    }
    friend bool operator==(const Wallet&, const Wallet&) = default;
};

// A station without ticketing: every ticket poll finds nothing to report.
using Table = pitlink::test::NoTicketsHost;

// The current transfer as the daemon journals it.
struct Transfer {
    aft::TransferRequest request;
    std::uint8_t status = aft::status::kPending;
    aft::Amounts moved;
    bool durable = false;
    bool acknowledged = false;  // by the host; a refusal found at once needs none
    std::uint8_t position = 0;  // in the history, once acknowledged
};

// The table's AFT side, as StationAft decides it, with what the checks need to see.
class Aft final : public aft::AftHost {
public:
    Aft(ExceptionQueue& queue, const std::int64_t& nowMs, std::uint8_t settings)
        : queue_(queue), nowMs_(nowMs), bonus_((settings & 1U) != 0) {
        constexpr std::uint64_t kDenominations[] = {1, 5, 25, 100};
        constexpr std::uint64_t kLimits[] = {1'000'000, 10'000, 2'500, 0};
        denomination_ = kDenominations[(settings >> 1U) & 3U];
        limit_ = kLimits[(settings >> 3U) & 3U];
        jackpotLimit_ = (settings & 0x20U) != 0 ? 5'000 : 0;  // a bonus jackpot from 50.00 on is hand-paid
    }

    aft::TransferReply transfer(const aft::TransferRequest& request) override {
        if (current_ && current_->request.transactionId == request.transactionId &&
            (!current_->durable || !current_->acknowledged || !succeeded(current_->status))) {
            // The same transaction again: its status once durable, never a second transfer.
            return current_->durable ? aft::TransferReply{answerOf(*current_)} : aft::NoAnswerYet{};
        }
        if (current_ && !current_->acknowledged) {
            return aft::ShortTransferAnswer{0, aft::status::kNotCompatible};
        }
        const auto refused = aft::refusalOf(request, context());
        current_ = Transfer{request, refused.value_or(aft::status::kPending), {}, false, refused.has_value(), 0};
        ++begun;
        return aft::NoAnswerYet{};  // until the journal makes its record durable
    }

    aft::TransferReply interrogate(const aft::TransferQuery& query) override {
        if (query.index == 0) {
            if (!current_ || !current_->durable) {
                return aft::NoTransferInformation{0};
            }
            return answerOf(*current_);
        }
        if (const aft::TransferAnswer* entry = history_.at(query.index)) {
            aft::TransferAnswer answer = *entry;
            answer.cumulative.reset();
            return answer;
        }
        return aft::NoTransferInformation{query.index};
    }

    // SasStation takes the host's next other poll after a 72 FF 00 answered with the final status
    // as its implied ACK (never after 40: the loop checks that it is called only then), and the
    // daemon's StationAft acknowledges as this double does.
    void interrogationAcknowledged() override {
        if (!current_ || !current_->durable || current_->acknowledged || current_->status == aft::status::kPending) {
            return;
        }
        current_->acknowledged = true;
        ++acknowledgements;
        if (succeeded(current_->status)) {
            current_->position = history_.add(answerOf(*current_));
            lastHistoryId_ = current_->request.transactionId;
        }
    }

    // As StationAft: a change is answered once durable (commit()), its repeat with the state it
    // made; no other change is answered meanwhile; a read answers the durable registration.
    std::optional<aft::RegistrationAnswer> registration(const aft::RegistrationRequest& request) override {
        const auto answer = [this] {
            return aft::RegistrationAnswer{registration_.status, kAsset, registration_.key, registration_.posId};
        };
        if (request.code == aft::registration::kRead) {
            return answer();
        }
        if (registering_) {
            return std::nullopt;
        }
        if (registered_ == request) {
            return answer();
        }
        registered_.reset();
        const aft::RegistrationStep step = aft::registrationStep(registration_, request, kAsset);
        if (step.after == registration_) {
            if (step.exception != 0) {
                queue_.raise(step.exception);
            }
            return answer();
        }
        registering_ = Registering{request, step};
        return std::nullopt;
    }

    aft::LockAnswer lock(const aft::LockRequest& request) override {
        if (request.code == aft::lock::kCancel || (request.code == aft::lock::kRequest && request.timeout == 0)) {
            releaseLock();
        } else if (request.code == aft::lock::kRequest) {
            std::uint8_t wanted = request.conditions & 0x07U;
            if ((request.conditions & aft::lock::kConditionBonusToMachine) != 0) {
                wanted |= aft::lock::kAvailableBonusToMachine;
            }
            if ((availableTransfers() & wanted) == wanted) {
                lockStatus_ = lockStatus_ == aft::lock::kNotLocked ? aft::lock::kPending : lockStatus_;
                lockUntilMs_ = nowMs_ + 10 * std::int64_t{request.timeout};
                tick();
            }
        }
        aft::LockAnswer a;
        a.asset = kAsset;
        a.lockStatus = lockStatus_;
        a.available = availableTransfers();
        a.aftStatus = aft::lock::kStatusPartialToHost | aft::lock::kStatusInHouseEnabled |
                      aft::lock::kStatusAnyEnabled | (bonus_ ? aft::lock::kStatusBonusEnabled : 0) |
                      (registration_.registered() ? aft::lock::kStatusRegistered : 0);
        a.current = wallet.held();
        a.transferLimit = limit_;
        a.restrictedPool = a.current.restricted > 0 ? restrictedPool_ : 0;
        return a;
    }

    // Table side. The journal commits the current request's record.
    void commit() {
        if (current_) {
            current_->durable = true;
        }
        if (registering_) {
            registration_ = registering_->step.after;
            registered_ = registering_->request;
            if (registering_->step.exception != 0) {
                queue_.raise(registering_->step.exception);
            }
            registering_.reset();
        }
    }

    // The table's transaction that ends a durable pending transfer: checked again (the wallet
    // may have changed since it was taken), then its credits move.
    void end() {
        if (!current_ || !current_->durable || current_->status != aft::status::kPending) {
            return;
        }
        const aft::TransferRequest& request = current_->request;
        aft::TransferContext c = context();
        c.lastHistoryId.reset();  // its ID was checked when it was taken
        const auto refused = aft::refusalOf(request, c);
        const aft::TransferAmounts amounts =
            refused ? aft::TransferAmounts{{}, *refused} : aft::amountsMoved(request, c);
        current_->status = amounts.status;
        if (amounts.done()) {
            move(request, amounts.moved);
            current_->moved = amounts.moved;
            if (amounts.handpay) {
                // A bonus jackpot at the jackpot limit: credited (the AFT bonus meters count it) and
                // taken off again for an attendant's hand-pay, which locks the station.
                check(request.type == aft::type::kBonusJackpot && jackpotLimit_ > 0 &&
                      amounts.moved.total() >= jackpotLimit_ && amounts.moved.restricted == 0 && !busy_ && !tilted_);
                wallet.add(amounts.moved, -1);
                handpaid.add(amounts.moved, 1);
                busy_ = true;
            }
        }
        releaseLock();
        queue_.raise(kTransferComplete);
        ++ended;
    }

    void play(std::uint8_t argument) {
        if (lockStatus_ == aft::lock::kLocked || busy_ || tilted_) {
            return;  // no bet while locked, in a hand-pay or tilted
        }
        const auto type = static_cast<std::uint8_t>(argument % 3);
        const std::int64_t amount = std::int64_t{100} * (argument % 13 + 1);
        const std::int64_t change = argument < 26 ? -std::min(amount, wallet.of(type)) : amount;
        wallet.of(type) += change;
        played.of(type) += change;
    }

    void busyOrTilt(std::uint8_t argument) {
        if ((argument & 1U) != 0) {
            tilted_ = !tilted_;
            if (tilted_) {
                releaseLock();  // a tilt releases the lock
            }
        } else if (lockStatus_ != aft::lock::kLocked) {
            busy_ = !busy_;  // a locked station starts no hand-pay or cash-out
        }
    }

    // A pending lock is taken once the station is idle; a lock ends with its time-out.
    void tick() {
        if (lockStatus_ != aft::lock::kNotLocked && nowMs_ >= lockUntilMs_) {
            releaseLock();
        }
        if (lockStatus_ == aft::lock::kPending && !busy_ && !tilted_) {
            lockStatus_ = aft::lock::kLocked;
            queue_.raise(kGameLocked);
        }
    }

    [[nodiscard]] const std::optional<Transfer>& current() const { return current_; }
    [[nodiscard]] const aft::TransferHistory& history() const { return history_; }
    [[nodiscard]] std::uint8_t registrationStatus() const { return registration_.status; }

    Wallet wallet{20'000, 5'000, 3'000};
    const Wallet start = wallet;
    Wallet played;  // what play added (won) or took (lost), by type
    aft::Amounts movedIn;
    aft::Amounts movedOut;
    Wallet handpaid{0, 0, 0};  // bonus jackpots taken off for a hand-pay, by type
    int begun = 0;
    int ended = 0;
    int acknowledgements = 0;

private:
    [[nodiscard]] aft::TransferContext context() const {
        aft::TransferContext c;
        c.asset = kAsset;
        c.registration = registration_;
        c.locked = lockStatus_ == aft::lock::kLocked;
        c.available = wallet.held();
        c.transferLimitCents = limit_;
        c.denominationCents = denomination_;
        c.transferInAllowed = !busy_ && !tilted_;
        c.transferOutAllowed = !busy_ && !tilted_;
        c.bonusAllowed = bonus_ && !busy_ && !tilted_;
        c.restrictedPool = restrictedPool_;
        c.lastHistoryId = lastHistoryId_;
        c.jackpotLimitCents = jackpotLimit_;
        c.idle = !busy_ && !tilted_;
        return c;
    }

    [[nodiscard]] std::uint8_t availableTransfers() const {
        if (current_ && !current_->acknowledged) {
            return 0;
        }
        const aft::TransferContext c = context();
        return (c.transferInAllowed ? aft::lock::kAvailableToMachine : 0) |
               (c.transferOutAllowed ? aft::lock::kAvailableFromMachine : 0) |
               (c.bonusAllowed ? aft::lock::kAvailableBonusToMachine : 0);
    }

    [[nodiscard]] aft::TransferAnswer answerOf(const Transfer& t) const {
        aft::TransferAnswer a;
        a.position = t.position;
        a.status = t.status;
        a.type = t.request.type;
        a.amounts = t.status == aft::status::kPending ? t.request.amounts : t.moved;
        a.flags = t.request.flags;
        a.asset = t.request.asset;
        a.transactionId = t.request.transactionId;
        if (t.status != aft::status::kPending) {
            a.at = SasDateTime{2026, 11, 28, 12, 0, 0};
        }
        if (succeeded(t.status)) {
            a.cumulative = aft::toStation(t.request.type) ? movedIn : movedOut;
        }
        return a;
    }

    // Every ID moves money at most once in a row, and only from what the wallet holds.
    void move(const aft::TransferRequest& request, const aft::Amounts& moved) {
        check(moved.total() > 0 && lastMoverId_ != request.transactionId);
        lastMoverId_ = request.transactionId;
        const bool in = aft::toStation(request.type);
        wallet.add(moved, in ? 1 : -1);
        aft::Amounts& sum = in ? movedIn : movedOut;
        sum = {sum.cashable + moved.cashable, sum.restricted + moved.restricted,
               sum.nonrestricted + moved.nonrestricted};
        if (in && moved.restricted > 0) {
            restrictedPool_ = request.poolId;
        }
    }

    void releaseLock() { lockStatus_ = aft::lock::kNotLocked; }

    ExceptionQueue& queue_;
    const std::int64_t& nowMs_;
    bool bonus_;
    std::uint64_t denomination_ = 1;
    std::uint64_t limit_ = 0;
    std::uint64_t jackpotLimit_ = 0;
    bool busy_ = false;
    bool tilted_ = false;
    aft::Registration registration_;  // durable
    struct Registering {
        aft::RegistrationRequest request;
        aft::RegistrationStep step;
    };
    std::optional<Registering> registering_;              // a change not durable yet
    std::optional<aft::RegistrationRequest> registered_;  // the change made durable last
    std::optional<Transfer> current_;
    aft::TransferHistory history_;
    std::optional<std::string> lastHistoryId_;
    std::optional<std::string> lastMoverId_;
    std::uint16_t restrictedPool_ = 0;
    std::uint8_t lockStatus_ = aft::lock::kNotLocked;
    std::int64_t lockUntilMs_ = 0;
};

bool wellFormed(const std::vector<std::uint8_t>& frame) {
    if (frame.size() <= 2) {
        return true;  // an exception byte, an ACK or busy (`addr 00`)
    }
    const std::uint16_t crc = crc16Kermit(std::span(frame).first(frame.size() - 2));
    return frame[0] == kAddress && frame[frame.size() - 2] == (crc & 0xFFU) && frame[frame.size() - 1] == (crc >> 8U);
}

std::uint64_t bcdAt(const std::vector<std::uint8_t>& frame, std::size_t at, std::size_t count) {
    const auto value = fromBcd(std::span(frame).subspan(at, count));
    check(value.has_value());
    return *value;
}

// What an LP 72 long answer on the wire says of a transfer: addr 72 len position status
// receipt type cashable(5) restricted(5) non-restricted(5) flags asset(4) id-len id ...
struct WireTransfer {
    std::uint8_t status = 0;
    aft::Amounts amounts;
    std::string id;
};
std::optional<WireTransfer> transferOnWire(const std::vector<std::uint8_t>& frame) {
    if (frame.size() < 5 || frame[1] != 0x72 || frame[2] <= 3) {
        return std::nullopt;  // the short answer, or "no information"
    }
    check(frame.size() >= 30 && frame.size() >= 30U + frame[27]);
    WireTransfer w;
    w.status = frame[4];
    w.amounts = {bcdAt(frame, 7, 5), bcdAt(frame, 12, 5), bcdAt(frame, 17, 5)};
    w.id.assign(frame.begin() + 28, frame.begin() + 28 + frame[27]);
    return w;
}

// A transfer on the wire is the current one as its durable record stands.
void checkIsCurrent(const WireTransfer& w, const Aft& aft) {
    const auto& t = aft.current();
    check(t && t->durable && w.id == t->request.transactionId && w.status == t->status);
    check(w.amounts == (t->status == aft::status::kPending ? t->request.amounts : t->moved));
}

// An LP 72 to the station and what (if anything) it answered.
void checkTransferPoll(const Poll& poll, const std::vector<std::uint8_t>* answer, const Aft& aft, int begunBefore) {
    const auto parsed = aft::parseTransfer(poll);
    const auto wire = answer != nullptr ? transferOnWire(*answer) : std::nullopt;
    if (!parsed) {
        check(answer == nullptr);
    } else if (const auto* request = std::get_if<aft::TransferRequest>(&*parsed)) {
        if (aft.begun != begunBefore) {
            check(answer == nullptr);  // a new request: not answered before its record is durable
        } else if (wire) {
            check(wire->id == request->transactionId);
            checkIsCurrent(*wire, aft);
        } else if (answer != nullptr) {
            check((*answer)[4] == aft::status::kNotCompatible && aft.current() && !aft.current()->acknowledged);
        } else {
            check(aft.current() && aft.current()->request.transactionId == request->transactionId &&
                  !aft.current()->durable);
        }
    } else if (const auto* query = std::get_if<aft::TransferQuery>(&*parsed)) {
        check(answer != nullptr);
        if (wire && query->index == 0) {
            checkIsCurrent(*wire, aft);
        } else if (wire) {
            const aft::TransferAnswer* entry = aft.history().at(query->index);
            check(entry != nullptr && succeeded(wire->status) && wire->id == entry->transactionId &&
                  wire->amounts == entry->amounts);
        }
    } else {
        check(answer != nullptr && (!wire || wire->id.empty()));  // malformed: said at once, nothing kept
    }
}

// LP 73 and 74 answers say the double's registration and wallet.
void checkOtherAftAnswer(const std::vector<std::uint8_t>& answer, const Aft& aft) {
    if (answer[1] == 0x73) {
        check(answer.size() == 34 && answer[3] == aft.registrationStatus());
    } else if (answer[1] == 0x74) {
        check(answer.size() == 0x23 + 5);
        const aft::Amounts held = aft.wallet.held();
        check(bcdAt(answer, 12, 5) == held.cashable && bcdAt(answer, 17, 5) == held.restricted &&
              bcdAt(answer, 22, 5) == held.nonrestricted);
    }
}

void checkConserved(const Aft& aft) {
    Wallet expected = aft.start;
    expected.add(aft.movedIn, 1);
    expected.add(aft.movedOut, -1);
    expected.cashable += aft.played.cashable;
    expected.restricted += aft.played.restricted;
    expected.nonrestricted += aft.played.nonrestricted;
    expected.cashable -= aft.handpaid.cashable;
    expected.restricted -= aft.handpaid.restricted;
    expected.nonrestricted -= aft.handpaid.nonrestricted;
    check(aft.wallet == expected);
    (void)aft.wallet.held();  // never below zero
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    Table table;
    table.asset = kAsset;  // LP 7B's, which the transfers name
    pitlink::test::RecordingLinkOutput out;
    out.keepHex = false;
    std::int64_t now = 0;
    StationStack stack(kAddress, MachineInfo{}, table, table, table, out, now);
    Aft aft(stack.exceptions(), now, data[0]);
    stack.station().setAftHost(&aft);
    ParmrkDecoder decoder;
    bool command = false;
    bool lastAnswerWasFinalFF = false;  // the station's last answer: a 72 FF 00 with a transfer's final status

    for (std::size_t i = 1; i < size; ++i) {
        const auto byte = decoder.push(data[i]);
        if (!byte) {
            continue;
        }
        if (command) {
            command = false;
            const std::uint8_t argument = byte->value / 5;
            switch (byte->value % 5) {
                case 0:
                    now += std::int64_t{argument} * 250;
                    aft.tick();
                    stack.tick(now);
                    break;
                case 1:
                    aft.commit();
                    break;
                case 2:
                    aft.end();
                    break;
                case 3:
                    aft.play(argument);
                    break;
                default:
                    aft.busyOrTilt(argument);
                    break;
            }
            checkConserved(aft);
            continue;
        }
        if (!byte->wakeup && byte->value == 0x7E) {
            command = true;
            continue;
        }
        const int sendsBefore = out.sends;
        const int begunBefore = aft.begun;
        const int acknowledgedBefore = aft.acknowledgements;
        const std::uint64_t ignoredBefore = stack.link().stats().ignoredUnsynced;
        const auto poll = stack.receive(*byte, false, now);
        if (!poll) {
            continue;
        }
        const bool answered = out.sends != sendsBefore;
        const bool toUs = poll->address == kAddress && poll->kind != PollKind::BadCrc;
        // An AFT poll the station handled (before the link synchronises, polls to it are ignored).
        const bool aftPoll = toUs && poll->kind == PollKind::Long && poll->command >= 0x72 && poll->command <= 0x74 &&
                             stack.link().stats().ignoredUnsynced == ignoredBefore;
        if (aft.acknowledgements != acknowledgedBefore) {
            // The implied ACK: the host's next poll, not the same command again, after it got the
            // transfer's final status (SAS: a 40 answered is not the end acknowledged).
            check(lastAnswerWasFinalFF && poll->kind != PollKind::BadCrc && !(aftPoll && poll->command == 0x72));
        }
        if (answered) {
            check(toUs);
            check(wellFormed(out.last));
            const auto wire = transferOnWire(out.last);
            lastAnswerWasFinalFF = aftPoll && poll->command == 0x72 && poll->bytes.size() == 7 &&
                                   poll->bytes[3] == aft::kInterrogate && poll->bytes[4] == 0 && wire &&
                                   wire->status != aft::status::kPending;
        }
        if (aftPoll && poll->command == 0x72) {
            checkTransferPoll(*poll, answered ? &out.last : nullptr, aft, begunBefore);
        } else if (aftPoll && answered) {
            checkOtherAftAnswer(out.last, aft);
        }
    }
    checkConserved(aft);
    return 0;
}
