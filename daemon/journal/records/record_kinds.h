#pragma once
// The kinds of journal record. schema/README.md documents the body of each; the names are part
// of the journal's format (inspectors query them), so they never change once released.
#include <string_view>

namespace pitlink::journal::kind {

inline constexpr std::string_view kDaemonStarted = "daemon.started";
inline constexpr std::string_view kJournalChecked = "journal.checked";
inline constexpr std::string_view kConfigLoaded = "config.loaded";
inline constexpr std::string_view kPaytableLoaded = "paytable.loaded";
inline constexpr std::string_view kShoeStarted = "shoe.started";
inline constexpr std::string_view kShoeEnded = "shoe.ended";
inline constexpr std::string_view kShoeCut = "shoe.cut";        // a physical shoe's cut, as the reader saw it
inline constexpr std::string_view kShoeBurned = "shoe.burned";  // a physical shoe's burn, as the reader saw it
// Game protection (protection_records.h): the next round's side-bet edges, a station reported.
inline constexpr std::string_view kShoeEdge = "shoe.edge";
inline constexpr std::string_view kProtectionAlert = "protection.alert";
inline constexpr std::string_view kRoundOpened = "round.opened";
inline constexpr std::string_view kRoundClosed = "round.closed";
inline constexpr std::string_view kCardDealt = "card.dealt";
inline constexpr std::string_view kCardRefused = "card.refused";
inline constexpr std::string_view kRoundSettled = "round.settled";
inline constexpr std::string_view kRoundVoided = "round.voided";
inline constexpr std::string_view kRoundResettled = "round.resettled";
inline constexpr std::string_view kBetAccepted = "bet.accepted";
inline constexpr std::string_view kBetRefused = "bet.refused";
// Any other request the table refused (engine, control socket, button), journaled like an acceptance.
inline constexpr std::string_view kRequestRefused = "request.refused";
inline constexpr std::string_view kBetWithdrawn = "bet.withdrawn";
// rounds.confirm_bets: a station confirmed its bets as they stand (seed 002's multiplayer mode).
inline constexpr std::string_view kBetsConfirmed = "bets.confirmed";
inline constexpr std::string_view kBetSettled = "bet.settled";
inline constexpr std::string_view kBetAdjusted = "bet.adjusted";
inline constexpr std::string_view kCredit = "credit";
inline constexpr std::string_view kTicketIssued = "ticket.issued";
inline constexpr std::string_view kTicketRedeemed = "ticket.redeemed";
inline constexpr std::string_view kHandpayPending = "handpay.pending";
inline constexpr std::string_view kHandpayReset = "handpay.reset";
inline constexpr std::string_view kTip = "tip";
inline constexpr std::string_view kAttendantCalled = "attendant.called";
inline constexpr std::string_view kAttendantCleared = "attendant.cleared";
inline constexpr std::string_view kDoorOpened = "door.opened";
inline constexpr std::string_view kDoorClosed = "door.closed";
inline constexpr std::string_view kTiltRaised = "tilt.raised";
inline constexpr std::string_view kTiltCleared = "tilt.cleared";
inline constexpr std::string_view kDisputeRaised = "dispute.raised";
// An operator's decision on a station's open dispute (with the round.resettled it made, if any).
inline constexpr std::string_view kDisputeResolved = "dispute.resolved";
// What a station keeps between rounds and across a restart (station_state.h).
inline constexpr std::string_view kStationState = "station.state";
inline constexpr std::string_view kOperatorAction = "operator.action";
inline constexpr std::string_view kStationReserved = "station.reserved";
// The games a station plays after it joined or left one (seed 000's multi-game station).
inline constexpr std::string_view kStationGames = "station.games";
inline constexpr std::string_view kMetersSnapshot = "meters.snapshot";
// Segments (schema/README.md "Segments"): each segment after the first opens with these.
inline constexpr std::string_view kSegmentSealed = "segment.sealed";    // the segment before: its summary, last link
inline constexpr std::string_view kSegmentCarried = "segment.carried";  // what a start-up resumes, carried over
// SAS (protocols/sas): a station's exceptions survive a restart through these.
inline constexpr std::string_view kSasException = "sas.exception";         // raised (journaled before it is reported)
inline constexpr std::string_view kSasAcked = "sas.acked";                 // serials the host acknowledged
inline constexpr std::string_view kSasQueue = "sas.queue";                 // the whole queue of a station
inline constexpr std::string_view kSasValidationId = "sas.validation_id";  // LP 4C
inline constexpr std::string_view kSasHostEnabled = "sas.host_enabled";    // LP 01 / 02
inline constexpr std::string_view kClockSet = "clock.set";                 // LP 7F moved the table's clock
inline constexpr std::string_view kSasTicketSetup = "sas.ticket_setup";    // LP 7B / 7C / 7D changed it
inline constexpr std::string_view kSasRecordRead = "sas.record_read";      // LP 4D 00 read a ticket's record
inline constexpr std::string_view kSasMachineNumbers = "sas.machine_numbers";  // LP B7 set the asset number, location
// The host acknowledged LP 90's answer reporting a legacy bonus (its 7C's serial).
inline constexpr std::string_view kSasLegacyBonusRead = "sas.legacy_bonus_read";
inline constexpr std::string_view kAftRegistration = "aft.registration";  // LP 73 changed the registration
inline constexpr std::string_view kAftTransfer = "aft.transfer";          // LP 72: a transfer, pending or ended
inline constexpr std::string_view kAftAcknowledged = "aft.acknowledged";  // the host acknowledged the transfer
// Modbus table I/O (protocols/modbus): dealer buttons and the module's link.
inline constexpr std::string_view kButtonPressed = "button.pressed";  // journaled before the table acts
inline constexpr std::string_view kModbusLink = "modbus.link";        // the I/O module answering or not
inline constexpr std::string_view kModbusFault = "modbus.fault";  // a stuck output or held button, raised or cleared
inline constexpr std::string_view kModbusLampTest = "modbus.lamp_test";  // a technician lights each lamp in turn

// On a controller of several games (pitlink.yaml `games`), a record of one game names it in its
// body (`game`): every record of a round, and these when they have none (schema/README.md
// "Games"). A controller of one game names none, as before games existed.
[[nodiscard]] constexpr bool namesItsGame(std::string_view kind, bool ofARound) {
    return ofARound || kind == kShoeStarted || kind == kShoeEnded || kind == kShoeCut || kind == kShoeBurned ||
           kind == kShoeEdge || kind == kProtectionAlert || kind == kRoundOpened || kind == kStationState ||
           kind == kDisputeRaised || kind == kDisputeResolved || kind == kTiltRaised || kind == kTiltCleared ||
           kind == kBetRefused || kind == kBetsConfirmed || kind == kButtonPressed || kind == kModbusLampTest ||
           kind == kTip;
}

}  // namespace pitlink::journal::kind

namespace pitlink::journal::reason {

// Why credits moved (the "reason" of a credit record).
inline constexpr std::string_view kBet = "bet";
inline constexpr std::string_view kBetReturn = "bet_return";
inline constexpr std::string_view kSettlement = "settlement";
inline constexpr std::string_view kTicketIn = "ticket_in";
inline constexpr std::string_view kTicketOut = "ticket_out";
inline constexpr std::string_view kHandpay = "handpay";
inline constexpr std::string_view kJackpot = "jackpot";
inline constexpr std::string_view kTip = "tip";
inline constexpr std::string_view kResettlement = "resettlement";
// Cashless (SAS AFT, credit_types.h): an in-house transfer to the station, a bonus award to it, a
// transfer to the host (amount < 0), restricted credits gone at their expiration (amount < 0).
inline constexpr std::string_view kTransferIn = "transfer_in";
inline constexpr std::string_view kBonus = "bonus";
inline constexpr std::string_view kTransferOut = "transfer_out";
inline constexpr std::string_view kRestrictedExpired = "restricted_expired";
// A bonus jackpot (AFT type 11) at or above the jackpot limit leaving the credit meter for the
// attendant's hand-pay, in the transaction that credited it (amount < 0; cashable and
// non-restricted, as it came).
inline constexpr std::string_view kBonusHandpay = "bonus_handpay";
// A legacy bonus the SAS host awarded (LP 8A): cashable, with its tax status.
inline constexpr std::string_view kLegacyBonus = "legacy_bonus";

}  // namespace pitlink::journal::reason
