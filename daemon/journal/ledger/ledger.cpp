#include "daemon/journal/ledger/ledger.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <numeric>

#include "daemon/game/wide_int.h"
#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/cashier_records.h"
#include "daemon/journal/records/record_kinds.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// The play meters of `meters` as one play naming no game or denomination (a snapshot from before
// plays were kept, or a station that has not played since).
std::map<PlayKey, MeterSet> wholePlay(const MeterSet& meters) {
    MeterSet played;
    bool any = false;
    for (const Meter meter : kPlayMeters) {
        played.add(meter, meters[meter]);
        any = any || meters[meter] != 0;
    }
    return any ? std::map<PlayKey, MeterSet>{{PlayKey{}, played}} : std::map<PlayKey, MeterSet>{};
}

// A snapshot's plays: each game and denomination once, and their sum the station's meters.
std::map<PlayKey, MeterSet> playsFromJson(const json& list, const MeterSet& whole, const std::string& station) {
    std::map<PlayKey, MeterSet> plays;
    MeterSet sum;
    for (const json& entry : list) {
        PlayKey key;
        key.denomination = integerField(entry, "denomination", 0, kMaxBodyMoney);
        if (entry.contains("game")) {
            key.game = gameNameValue(entry.at("game"), "a play's \"game\"");
        }
        MeterSet played;
        for (const auto& [name, value] : objectField(entry, "meters").items()) {
            const auto meter = parseMeter(name);
            if (!meter || std::find(kPlayMeters.begin(), kPlayMeters.end(), *meter) == kPlayMeters.end()) {
                throw LedgerError("snapshot with a play meter " + name + " that plays do not keep");
            }
            std::string what = "station ";
            what.append(station).append(" play meter ").append(name);
            const std::int64_t n = integerValue(value, what, 0, kMaxInt64);
            played.add(*meter, n);
            sum.add(*meter, n);
        }
        if (!plays.emplace(std::move(key), played).second) {
            throw LedgerError("snapshot with one play twice for station " + station);
        }
    }
    for (const Meter meter : kPlayMeters) {
        if (sum[meter] != whole[meter]) {
            throw LedgerError("snapshot whose plays of station " + station + " do not add up to its " +
                              std::string(meterName(meter)));
        }
    }
    return plays;
}

// A settlement's meters: its stakes, what it paid back, one game won, lost or pushed.
void meterSettlement(MeterSet& meters, Money wagered, Money paid) {
    meters.add(Meter::CoinIn, wagered);
    meters.add(Meter::CoinOut, paid);
    meters.add(Meter::GamesPlayed, 1);
    if (paid > wagered) {
        meters.add(Meter::GamesWon, 1);
    } else if (paid < wagered) {
        meters.add(Meter::GamesLost, 1);
    }
}

json promoToJson(const PromoCredits& promo) {
    json stakes = json::array();
    for (const auto& [key, parts] : promo.stakes) {
        stakes.push_back({{"round", key.round},
                          {"bet", key.bet},
                          {"restricted", parts.restricted},
                          {"nonrestricted", parts.nonrestricted}});
    }
    return {{"restricted", promo.held.restricted},
            {"nonrestricted", promo.held.nonrestricted},
            {"stakes", std::move(stakes)}};
}

// A snapshot's promotional credits: parts of the station's credits and of its stakes in play.
PromoCredits promoFromJson(const json& entry, const StationAccount& acc, const std::string& station) {
    PromoCredits promo;
    promo.held.restricted = integerField(entry, "restricted", 0, acc.credits);
    promo.held.nonrestricted = integerField(entry, "nonrestricted", 0, acc.credits - promo.held.restricted);
    for (const json& stake : arrayField(entry, "stakes")) {
        const StakeKey key{integerField(stake, "round", 0, kMaxInt64), integerField(stake, "bet", 0, kMaxInt64)};
        const PromoParts parts{integerField(stake, "restricted", 0, kMaxBodyMoney),
                               integerField(stake, "nonrestricted", 0, kMaxBodyMoney)};
        if (parts.none() || !promo.stakes.emplace(key, parts).second) {
            throw LedgerError("snapshot with a promotional stake of station " + station + " empty or twice");
        }
    }
    if (promo.staked().total() > acc.inPlay) {
        throw LedgerError("snapshot whose promotional stakes of station " + station + " exceed its stakes in play");
    }
    return promo;
}

// The meters of one direction of cashless transfers: each type's amount, and its count just
// after it (meters.h), counted when the transfer moved credits of that type.
struct TransferMeters {
    Meter cashable{};
    std::optional<Meter> restricted;
    Meter nonrestricted{};
};

Meter countOf(Meter amount) {
    return static_cast<Meter>(static_cast<int>(amount) + 1);
}

void meterTransfer(MeterSet& meters, const PromoParts& parts, Money amount, const TransferMeters& which) {
    const auto add = [&meters](std::optional<Meter> meter, Money moved) {
        if (meter && moved != 0) {
            meters.add(*meter, moved);
            meters.add(countOf(*meter), 1);
        }
    };
    add(which.cashable, amount - parts.total());
    add(which.restricted, parts.restricted);
    add(which.nonrestricted, parts.nonrestricted);
}

// The legacy bonus meter of a tax status (SAS LP 9A's three).
Meter legacyBonusMeter(TaxStatus status) {
    switch (status) {
        case TaxStatus::NonDeductible:
            return Meter::LegacyBonusNonDeductible;
        case TaxStatus::WagerMatch:
            return Meter::LegacyBonusWagerMatch;
        case TaxStatus::Deductible:
            break;
    }
    return Meter::LegacyBonusDeductible;
}

std::string playsText(const std::map<PlayKey, MeterSet>& plays) {
    std::string text = "{";
    for (const auto& [key, played] : plays) {
        text += (text.size() > 1 ? "; " : "") + (key.game.empty() ? std::string("-") : key.game) + "@" +
                std::to_string(key.denomination) + ":";
        for (const Meter meter : kPlayMeters) {
            text += " " + std::to_string(played[meter]);
        }
    }
    return text + "}";
}

}  // namespace

game::Fraction addFractions(game::Fraction a, game::Fraction b) {
    const game::Int128 num = static_cast<game::Int128>(a.num) * b.den + static_cast<game::Int128>(b.num) * a.den;
    const game::Int128 den = static_cast<game::Int128>(a.den) * b.den;
    game::Int128 g = num;
    game::Int128 d = den;
    while (d != 0) {  // gcd on 128 bits
        const game::Int128 t = g % d;
        g = d;
        d = t;
    }
    if (g < 0) {
        g = -g;
    }
    if (g == 0) {
        return {0, 1};
    }
    const game::Int128 rn = num / g;
    const game::Int128 rd = den / g;
    constexpr auto kMax = static_cast<game::Int128>(std::numeric_limits<std::int64_t>::max());
    if (rn > kMax || rd > kMax || rn < -kMax) {
        throw LedgerError("breakage sum overflows");
    }
    return {static_cast<std::int64_t>(rn), static_cast<std::int64_t>(rd)};
}

std::optional<game::Fraction> parseFraction(std::string_view text) {
    // Fraction::toString writes whole numbers without "/1".
    const auto slash = text.find('/');
    game::Fraction f;
    const auto numText = text.substr(0, slash);
    const auto denText = slash == std::string_view::npos ? std::string_view("1") : text.substr(slash + 1);
    const auto [numEnd, numErr] = std::from_chars(numText.data(), numText.data() + numText.size(), f.num);
    const auto [denEnd, denErr] = std::from_chars(denText.data(), denText.data() + denText.size(), f.den);
    if (numErr != std::errc{} || denErr != std::errc{} || numEnd != numText.data() + numText.size() ||
        denEnd != denText.data() + denText.size() || f.den <= 0 || f.num < 0) {
        return std::nullopt;
    }
    return f;
}

StationAccount& Ledger::account(std::optional<std::int64_t> station, std::string_view kindName) {
    if (!station) {
        throw LedgerError(std::string(kindName) + " record without a station");
    }
    return stations_[*station];
}

Money Ledger::credits(std::int64_t station) const {
    const auto it = stations_.find(station);
    return it == stations_.end() ? 0 : it->second.credits;
}

Money Ledger::totalCredits() const {
    Money total = 0;
    for (const auto& [number, account] : stations_) {
        total += account.credits;
    }
    return total;
}

StationAccount Ledger::station(std::int64_t number) const {
    const auto it = stations_.find(number);
    return it == stations_.end() ? StationAccount{} : it->second;
}

void Ledger::applyCredit(std::optional<std::int64_t> stationColumn, const CreditRecord& credit,
                         std::optional<std::int64_t> round) {
    StationAccount& acc = account(stationColumn, kind::kCredit);
    const std::int64_t station = *stationColumn;
    const Money amount = credit.amount;
    const Money balance = credit.balance;
    const std::string& why = credit.reason;
    if (acc.credits + amount != balance) {
        throw LedgerError("station " + std::to_string(station) + " credit of " + std::to_string(amount) +
                          " leaves balance " + std::to_string(balance) + " but the credits held were " +
                          std::to_string(acc.credits));
    }
    if (balance < 0) {
        throw LedgerError("station " + std::to_string(station) + " credits would go below zero");
    }
    // Everything that can refuse the record is checked before anything changes.
    static constexpr std::string_view kKnown[] = {reason::kBet,
                                                  reason::kBetReturn,
                                                  reason::kSettlement,
                                                  reason::kTicketIn,
                                                  reason::kTicketOut,
                                                  reason::kHandpay,
                                                  reason::kJackpot,
                                                  reason::kTip,
                                                  reason::kResettlement,
                                                  reason::kTransferIn,
                                                  reason::kBonus,
                                                  reason::kTransferOut,
                                                  reason::kRestrictedExpired,
                                                  reason::kLegacyBonus,
                                                  reason::kBonusHandpay};
    if (std::find(std::begin(kKnown), std::end(kKnown), why) == std::end(kKnown)) {
        throw LedgerError("credit record with unknown reason \"" + why + "\"");
    }
    const Money wagered = credit.wagered.value_or(0);
    const bool paidOut = why == reason::kTicketOut || why == reason::kHandpay || why == reason::kJackpot ||
                         why == reason::kTip || why == reason::kTransferOut || why == reason::kRestrictedExpired ||
                         why == reason::kBonusHandpay;
    const bool paidIn =
        why == reason::kTicketIn || why == reason::kTransferIn || why == reason::kBonus || why == reason::kLegacyBonus;
    if ((why == reason::kLegacyBonus) != credit.taxStatus.has_value()) {
        throw LedgerError(
            "credit record with reason " + why +
            (credit.taxStatus ? " has a tax status (only a legacy bonus has one)" : " without a tax status"));
    }
    if ((paidOut && amount > 0) || (paidIn && amount < 0) || wagered < 0 ||
        (why == reason::kSettlement && amount < 0) || (why == reason::kBetReturn && amount < 0) ||
        (why == reason::kBet && amount > 0)) {
        throw LedgerError("credit record with reason " + why + " moves credits the wrong way");
    }
    // The promotional parts and the meters change on copies: a record they refuse (or a meter that
    // would overflow) changes nothing.
    PromoCredits promo = acc.promo;
    promo.apply(credit, round, acc.cashable());
    MeterSet meters = acc.meters;
    if (why == reason::kSettlement) {
        meterSettlement(meters, wagered, amount);
        meters.add(Meter::RestrictedPlayed, credit.wageredPromo.restricted);
        meters.add(Meter::NonrestrictedPlayed, credit.wageredPromo.nonrestricted);
    } else if (why == reason::kTicketIn) {
        meters.add(Meter::TicketInCashable, amount);
    } else if (why == reason::kTicketOut) {
        meters.add(Meter::TicketOutCashable, -amount);
        meters.add(Meter::CancelledCredits, -amount);
    } else if (why == reason::kHandpay) {
        meters.add(Meter::HandpaidCancelledCredits, -amount);
        meters.add(Meter::CancelledCredits, -amount);
    } else if (why == reason::kJackpot) {
        meters.add(Meter::Jackpots, -amount);
    } else if (why == reason::kTip) {
        meters.add(Meter::Tips, -amount);
    } else if (why == reason::kResettlement) {
        meters.add(amount >= 0 ? Meter::ResettlementPaid : Meter::ResettlementRecovered,
                   amount >= 0 ? amount : -amount);
    } else if (why == reason::kBetReturn) {
        meters.add(Meter::BetsReturned, amount);
    } else if (why == reason::kTransferIn) {
        meterTransfer(
            meters, credit.promo, amount,
            TransferMeters{Meter::TransferInCashable, Meter::TransferInRestricted, Meter::TransferInNonrestricted});
    } else if (why == reason::kBonus) {
        meterTransfer(meters, credit.promo, amount,
                      TransferMeters{Meter::BonusCashable, std::nullopt, Meter::BonusNonrestricted});
    } else if (why == reason::kTransferOut) {
        meterTransfer(
            meters, credit.promo.negated(), -amount,
            TransferMeters{Meter::TransferOutCashable, Meter::TransferOutRestricted, Meter::TransferOutNonrestricted});
    } else if (why == reason::kRestrictedExpired) {
        meters.add(Meter::RestrictedExpired, -amount);
    } else if (why == reason::kLegacyBonus) {
        meters.add(legacyBonusMeter(*credit.taxStatus), amount);
    } else if (why == reason::kBonusHandpay) {
        meters.add(Meter::BonusHandpaid, -amount);
    }
    const auto counted = [&](std::int64_t n) {
        if (n == std::numeric_limits<std::int64_t>::max()) {
            throw LedgerError("station " + std::to_string(station) + " ticket count would overflow");
        }
        return n + 1;
    };
    const std::int64_t ticketsIn = why == reason::kTicketIn ? counted(acc.ticketsIn) : acc.ticketsIn;
    const std::int64_t ticketsOut = why == reason::kTicketOut ? counted(acc.ticketsOut) : acc.ticketsOut;
    // A round's play, metered by its game and denomination as well.
    std::optional<std::pair<PlayKey, MeterSet>> play;
    if (why == reason::kSettlement || why == reason::kJackpot) {
        PlayKey key{credit.game.value_or(std::string()), credit.denomination.value_or(0)};
        const auto it = acc.plays.find(key);
        MeterSet played = it == acc.plays.end() ? MeterSet{} : it->second;
        if (why == reason::kSettlement) {
            meterSettlement(played, wagered, amount);
        } else {
            played.add(Meter::Jackpots, -amount);
        }
        play.emplace(std::move(key), played);
    }
    // Stakes in play: a bet's stake until its round settles (the settlement's wagered) or it comes
    // back (withdrawn, voided). Never below 0: a ledger rebuilt from a snapshot of a pitlinkd
    // that did not keep them starts at 0 in the middle of a round.
    if (why == reason::kBet) {
        acc.inPlay -= amount;
    } else if (why == reason::kBetReturn) {
        acc.inPlay = std::max<Money>(0, acc.inPlay - amount);
    } else if (why == reason::kSettlement) {
        acc.inPlay = std::max<Money>(0, acc.inPlay - wagered);
    }
    acc.credits = balance;
    acc.promo = std::move(promo);
    acc.meters = meters;
    acc.ticketsIn = ticketsIn;
    acc.ticketsOut = ticketsOut;
    if (play) {
        acc.plays.insert_or_assign(std::move(play->first), play->second);
    }
}

void Ledger::apply(std::string_view kindName, std::optional<std::int64_t> station, const json& body,
                   std::optional<std::int64_t> round) {
    try {
        applyKind(kindName, station, body, round);
    } catch (const BodyError& error) {
        throw LedgerError(std::string(kindName) + " record: " + error.what());
    }
}

void Ledger::applyKind(std::string_view kindName, std::optional<std::int64_t> station, const json& body,
                       std::optional<std::int64_t> round) {
    if (kindName == kind::kCredit) {
        applyCredit(station, readBody<CreditRecord>(body), round);
    } else if (kindName == kind::kBetSettled) {
        StationAccount& acc = account(station, kindName);
        const auto breakage = parseFraction(stringField(body, "breakage"));
        if (!breakage) {
            throw LedgerError("bet.settled record with malformed breakage");
        }
        acc.breakage = addFractions(acc.breakage, *breakage);
    } else if (kindName == kind::kRoundSettled) {
        table_.add(Meter::RoundsSettled, 1);
    } else if (kindName == kind::kRoundVoided) {
        table_.add(Meter::RoundsVoided, 1);
    } else if (kindName == kind::kRoundResettled) {
        table_.add(Meter::RoundsResettled, 1);
    } else if (kindName == kind::kDaemonStarted) {
        table_.add(Meter::PowerUps, 1);
    } else if (kindName == kind::kDoorClosed) {
        // LP 18 counts games since the station's door, or the table's (every station's), closed.
        if (station) {
            StationAccount& acc = stations_[*station];
            acc.gamesAtDoorClose = acc.meters[Meter::GamesPlayed];
        } else {
            for (auto& [number, acc] : stations_) {
                acc.gamesAtDoorClose = acc.meters[Meter::GamesPlayed];
            }
        }
    } else if (kindName == kind::kDoorOpened) {
        if (station) {
            stations_[*station].meters.add(Meter::DoorOpens, 1);
        } else {
            table_.add(Meter::DoorOpens, 1);
        }
    }
}

void Ledger::apply(const JournalRecord& record) {
    json body = json::parse(record.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        throw LedgerError("record " + std::to_string(record.seq) + " has a body that is not a JSON object");
    }
    apply(record, body);
}

void Ledger::apply(const JournalRecord& record, const json& body) {
    try {
        apply(record.kind, record.station, body, record.roundId);
    } catch (const LedgerError& error) {
        throw LedgerError("record " + std::to_string(record.seq) + ": " + error.what());
    }
}

bool Ledger::readsBody(std::string_view kindName) {
    return kindName == kind::kCredit || kindName == kind::kBetSettled;  // as applyKind reads them
}

MeterSet Ledger::tableTotals() const {
    MeterSet total = table_;
    for (const auto& [number, acc] : stations_) {
        for (const Meter meter : kStationMeters) {
            total.add(meter, acc.meters[meter]);
        }
    }
    return total;
}

json Ledger::toJson() const {
    json stations = json::object();
    for (const auto& [number, acc] : stations_) {
        json meters = json::object();
        for (const Meter meter : kStationMeters) {
            if (acc.meters[meter] != 0 || !isCashlessMeter(meter)) {
                meters[std::string(meterName(meter))] = acc.meters[meter];
            }
        }
        json plays = json::array();
        for (const auto& [key, played] : acc.plays) {
            json playMeters = json::object();
            for (const Meter meter : kPlayMeters) {
                playMeters[std::string(meterName(meter))] = played[meter];
            }
            json entry{{"denomination", key.denomination}, {"meters", std::move(playMeters)}};
            if (!key.game.empty()) {
                entry["game"] = key.game;
            }
            plays.push_back(std::move(entry));
        }
        stations[std::to_string(number)] = {
            {"credits", acc.credits},
            {"in_play", acc.inPlay},
            {"breakage", acc.breakage.toString()},
            {"meters", std::move(meters)},
            {"plays", std::move(plays)},
            {"games_at_door_close", acc.gamesAtDoorClose},
            {"tickets", {{"in", acc.ticketsIn}, {"out", acc.ticketsOut}}},
        };
        if (!acc.promo.empty()) {
            stations[std::to_string(number)]["promo"] = promoToJson(acc.promo);
        }
    }
    json table = json::object();
    for (const Meter meter : kTableMeters) {
        table[std::string(meterName(meter))] = table_[meter];
    }
    return {{"stations", std::move(stations)}, {"table", std::move(table)}};
}

Ledger Ledger::fromJson(const json& snapshot) {
    Ledger ledger;
    try {
        for (const auto& [number, entry] : objectField(snapshot, "stations").items()) {
            // Keys are written by toJson: a station number in decimal, nothing else ("01", "1e5" and "-0" are refused).
            std::int64_t station = 0;
            const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), station);
            if (error != std::errc{} || end != number.data() + number.size() || std::to_string(station) != number) {
                throw LedgerError("snapshot with malformed station number \"" + number + "\"");
            }
            StationAccount& acc = ledger.stations_[station];
            acc.credits = integerField(entry, "credits", 0, kMaxBodyMoney);
            if (entry.contains("in_play")) {
                acc.inPlay = integerField(entry, "in_play", 0, kMaxBodyMoney);
            } else {
                ledger.inPlayKnown_ = false;
            }
            const auto breakage = parseFraction(stringField(entry, "breakage"));
            if (!breakage) {
                throw LedgerError("snapshot with malformed breakage for station " + number);
            }
            acc.breakage = *breakage;
            for (const auto& [name, value] : objectField(entry, "meters").items()) {
                const auto meter = parseMeter(name);
                if (!meter) {
                    throw LedgerError("snapshot with unknown meter " + name);
                }
                std::string what = "station ";
                what.append(number).append(" meter ").append(name);
                acc.meters.add(*meter, integerValue(value, what, 0, kMaxInt64));
            }
            if (entry.contains("promo")) {
                acc.promo = promoFromJson(objectField(entry, "promo"), acc, number);
            }
            if (entry.contains("plays")) {
                acc.plays = playsFromJson(arrayField(entry, "plays"), acc.meters, number);
                acc.gamesAtDoorClose = integerField(entry, "games_at_door_close", 0, acc.meters[Meter::GamesPlayed]);
                const json& tickets = objectField(entry, "tickets");
                acc.ticketsIn = integerField(tickets, "in", 0, kMaxInt64);
                acc.ticketsOut = integerField(tickets, "out", 0, kMaxInt64);
            } else {
                ledger.playsKnown_ = false;
                acc.plays = wholePlay(acc.meters);
                acc.gamesAtDoorClose = acc.meters[Meter::GamesPlayed];  // LP 18 counts from here
            }
        }
        for (const auto& [name, value] : objectField(snapshot, "table").items()) {
            const auto meter = parseMeter(name);
            if (!meter) {
                throw LedgerError("snapshot with unknown meter " + name);
            }
            ledger.table_.add(*meter, integerValue(value, "table meter " + name, 0, kMaxInt64));
        }
    } catch (const json::exception& error) {
        throw LedgerError(std::string("malformed meters snapshot: ") + error.what());
    }
    return ledger;
}

void Ledger::adoptPlaysOf(const Ledger& snapshot) {
    for (auto& [number, acc] : stations_) {
        const auto it = snapshot.stations_.find(number);
        acc.plays = it == snapshot.stations_.end() ? wholePlay(acc.meters) : it->second.plays;
        const StationAccount none;
        const StationAccount& theirs = it == snapshot.stations_.end() ? none : it->second;
        acc.gamesAtDoorClose = theirs.gamesAtDoorClose;
        acc.ticketsIn = theirs.ticketsIn;
        acc.ticketsOut = theirs.ticketsOut;
    }
}

std::string Ledger::differenceFrom(const Ledger& other) const {
    auto describe = [](const std::string& who, std::string_view what, auto mine, auto theirs) {
        return who + " " + std::string(what) + " " + mine + " != " + theirs;
    };
    std::map<std::int64_t, StationAccount> all = stations_;
    for (const auto& [number, acc] : other.stations_) {
        all.try_emplace(number);
    }
    for (const auto& [number, unused] : all) {
        const auto mineIt = stations_.find(number);
        const auto theirsIt = other.stations_.find(number);
        const StationAccount mine = mineIt == stations_.end() ? StationAccount{} : mineIt->second;
        const StationAccount theirs = theirsIt == other.stations_.end() ? StationAccount{} : theirsIt->second;
        const std::string who = "station " + std::to_string(number);
        if (mine.credits != theirs.credits) {
            return describe(who, "credits", std::to_string(mine.credits), std::to_string(theirs.credits));
        }
        if (other.inPlayKnown_ && inPlayKnown_ && mine.inPlay != theirs.inPlay) {
            return describe(who, "in_play", std::to_string(mine.inPlay), std::to_string(theirs.inPlay));
        }
        if (mine.promo.held != theirs.promo.held) {
            return describe(
                who, "promotional credits (restricted/non-restricted)",
                std::to_string(mine.promo.held.restricted) + "/" + std::to_string(mine.promo.held.nonrestricted),
                std::to_string(theirs.promo.held.restricted) + "/" + std::to_string(theirs.promo.held.nonrestricted));
        }
        if (mine.promo.stakes != theirs.promo.stakes) {
            return who + " promotional stakes in play differ";
        }
        if (!(mine.breakage == theirs.breakage)) {
            return describe(who, "breakage", mine.breakage.toString(), theirs.breakage.toString());
        }
        for (const Meter meter : kStationMeters) {
            if (mine.meters[meter] != theirs.meters[meter]) {
                return describe(who, meterName(meter), std::to_string(mine.meters[meter]),
                                std::to_string(theirs.meters[meter]));
            }
        }
        if (!playsKnown_ || !other.playsKnown_) {
            continue;
        }
        if (mine.gamesAtDoorClose != theirs.gamesAtDoorClose) {
            return describe(who, "games_at_door_close", std::to_string(mine.gamesAtDoorClose),
                            std::to_string(theirs.gamesAtDoorClose));
        }
        if (mine.ticketsIn != theirs.ticketsIn || mine.ticketsOut != theirs.ticketsOut) {
            return describe(who, "tickets in/out",
                            std::to_string(mine.ticketsIn) + "/" + std::to_string(mine.ticketsOut),
                            std::to_string(theirs.ticketsIn) + "/" + std::to_string(theirs.ticketsOut));
        }
        if (mine.plays != theirs.plays) {
            return who + " plays by game and denomination " + playsText(mine.plays) + " != " + playsText(theirs.plays);
        }
    }
    for (const Meter meter : kTableMeters) {
        if (table_[meter] != other.table_[meter]) {
            return describe("table", meterName(meter), std::to_string(table_[meter]),
                            std::to_string(other.table_[meter]));
        }
    }
    return {};
}

}  // namespace pitlink::journal
