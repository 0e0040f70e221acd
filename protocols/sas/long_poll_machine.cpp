#include "protocols/sas/long_poll_machine.h"

#include <algorithm>

#include "protocols/sas/bcd.h"
#include "protocols/sas/crc16_kermit.h"
#include "protocols/sas/station_game.h"

namespace pitlink::sas {

namespace {

// `text` in exactly `width` ASCII bytes (cut or padded with spaces).
void appendAscii(std::vector<std::uint8_t>& out, const std::string& text, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i) {
        out.push_back(static_cast<std::uint8_t>(i < text.size() ? text[i] : ' '));
    }
}

// The identification of LP 1F, and of LP 53 after its game number: game N's own paytable, base %
// and maximum bet, the accounting denomination's code (SAS's meters count its credits).
void appendIdentity(std::vector<std::uint8_t>& out, const MachineInfo& info, const GameInfo& game) {
    appendAscii(out, info.gameId, 2);
    appendAscii(out, game.additionalId, 3);
    out.push_back(info.denominationCode);
    out.push_back(game.maxBet);
    out.push_back(info.progressiveGroup);
    out.push_back(static_cast<std::uint8_t>(info.gameOptions >> 8U));
    out.push_back(static_cast<std::uint8_t>(info.gameOptions & 0xFFU));
    appendAscii(out, game.paytableId, 6);
    appendAscii(out, game.basePercentage, 4);
}

std::vector<std::uint8_t> finish(std::vector<std::uint8_t> out) {
    appendCrc(out);
    return out;
}

// The game number of LPs 53, A0, A4 and B5 (2 BCD bytes after the command).
std::optional<std::uint16_t> gameOf(const Poll& poll, const MachineInfo& info) {
    return poll.bytes.size() == 6 ? stationGame(std::span(poll.bytes).subspan(2, 2), gameCountOf(info)) : std::nullopt;
}

// LP B5: addr B5 len game max-bet(2 BCD) group levels(4) name-len name paytable-len paytable
// categories(2 BCD) denominations(count, codes).
std::vector<std::uint8_t> extendedGameInfo(const Poll& poll, const MachineInfo& info, std::uint16_t game,
                                           std::uint8_t denomination) {
    const GameInfo g = gameInfoOf(info, game);
    std::vector<std::uint8_t> body;
    appendBcd(body, game, 2);
    appendBcd(body, std::min<std::uint32_t>(g.maxBetCredits, 9999), 2);
    body.push_back(info.progressiveGroup);
    body.insert(body.end(), {0, 0, 0, 0});  // progressive levels: none
    const std::size_t gameName = std::min<std::size_t>(g.gameName.size(), 20);
    body.push_back(static_cast<std::uint8_t>(gameName));
    appendAscii(body, g.gameName, gameName);
    const std::size_t paytableName = std::min<std::size_t>(g.paytableName.size(), 20);
    body.push_back(static_cast<std::uint8_t>(paytableName));
    appendAscii(body, g.paytableName, paytableName);
    appendBcd(body, 0, 2);  // wager categories: none reported (LP B4 is not answered)
    // Every game is played at every enabled denomination; under B0, the one it names.
    const std::vector<std::uint8_t> enabled =
        denomination != 0 ? std::vector<std::uint8_t>{denomination} : playerDenominationsOf(info);
    body.push_back(static_cast<std::uint8_t>(enabled.size()));
    body.insert(body.end(), enabled.begin(), enabled.end());
    std::vector<std::uint8_t> out{poll.address, poll.command, static_cast<std::uint8_t>(body.size())};
    out.insert(out.end(), body.begin(), body.end());
    return finish(out);
}

}  // namespace

bool isMachinePoll(std::uint8_t command) {
    switch (command) {
        case 0x1F:
        case 0x51:
        case 0x53:
        case 0x54:
        case 0x55:
        case 0x56:
        case 0x7E:
        case 0xA0:
        case 0xA4:
        case 0xB1:
        case 0xB2:
        case 0xB5:
            return true;
        default:
            return false;
    }
}

std::vector<std::uint8_t> playerDenominationsOf(const MachineInfo& info) {
    return info.playerDenominations.empty() ? std::vector<std::uint8_t>{info.denominationCode}
                                            : info.playerDenominations;
}

std::uint16_t gameCountOf(const MachineInfo& info) {
    return info.games.empty() ? 1 : static_cast<std::uint16_t>(info.games.size());
}

GameInfo gameInfoOf(const MachineInfo& info, std::uint16_t game) {
    if (game >= 1 && game <= info.games.size()) {
        return info.games[game - 1];
    }
    return GameInfo{info.additionalId,  info.maxBet,   info.paytableId,  info.basePercentage,
                    info.maxBetCredits, info.gameName, info.paytableName};
}

std::optional<std::vector<std::uint8_t>> answerMachinePoll(const Poll& poll, const MachineInfo& info,
                                                           const StationNow& now, std::uint8_t denomination) {
    std::vector<std::uint8_t> out{poll.address, poll.command};
    switch (poll.command) {
        case 0x1F:
            appendIdentity(out, info, gameInfoOf(info, 0));
            return finish(out);
        case 0x51:  // number of games implemented
            appendBcd(out, gameCountOf(info), 2);
            return finish(out);
        case 0x55:  // selected game
            appendBcd(out, now.selectedGame, 2);
            return finish(out);
        case 0x56: {  // enabled games: len, count, then each game number (under B0: at that denomination)
            out.push_back(static_cast<std::uint8_t>(1 + 2 * now.enabledGames.size()));
            out.push_back(static_cast<std::uint8_t>(now.enabledGames.size()));
            for (const std::uint16_t game : now.enabledGames) {
                appendBcd(out, game, 2);
            }
            return finish(out);
        }
        case 0x53: {
            const auto game = gameOf(poll, info);
            if (!game) {
                return std::nullopt;
            }
            appendBcd(out, *game, 2);
            appendIdentity(out, info, gameInfoOf(info, *game));
            return finish(out);
        }
        case 0x54: {
            const std::size_t serial = std::min<std::size_t>(info.serialNumber.size(), 40);
            out.push_back(static_cast<std::uint8_t>(3 + serial));
            appendAscii(out, info.sasVersion, 3);
            appendAscii(out, info.serialNumber, serial);
            return finish(out);
        }
        case 0x7E:
            appendDateTime(out, now.clock);
            return finish(out);
        case 0xA0: {
            const auto game = gameOf(poll, info);
            if (!game) {
                return std::nullopt;
            }
            appendBcd(out, *game, 2);
            out.insert(out.end(), info.features.begin(), info.features.end());
            out.insert(out.end(), {0, 0, 0});  // reserved
            return finish(out);
        }
        case 0xA4: {  // cash-out limit: game(2 BCD) limit(2 BCD credits), the same for every game
            const auto game = gameOf(poll, info);
            if (!game) {
                return std::nullopt;
            }
            appendBcd(out, *game, 2);
            appendBcd(out, std::min<std::uint32_t>(now.cashoutLimitCredits, 9999), 2);
            return finish(out);
        }
        case 0xB1:  // current player denomination
            out.push_back(now.playerDenomination);
            return finish(out);
        case 0xB2: {  // enabled player denominations: len, count, codes
            const std::vector<std::uint8_t> enabled = playerDenominationsOf(info);
            out.push_back(static_cast<std::uint8_t>(1 + enabled.size()));
            out.push_back(static_cast<std::uint8_t>(enabled.size()));
            out.insert(out.end(), enabled.begin(), enabled.end());
            return finish(out);
        }
        case 0xB5: {  // extended game N information
            const auto game = gameOf(poll, info);
            if (!game) {
                return std::nullopt;
            }
            return extendedGameInfo(poll, info, *game, denomination);
        }
        default:
            return std::nullopt;
    }
}

void appendDateTime(std::vector<std::uint8_t>& out, const SasDateTime& t) {
    appendBcd(out,
              static_cast<std::uint64_t>(t.month) * 1'000'000 + static_cast<std::uint64_t>(t.day) * 10'000 +
                  static_cast<std::uint64_t>(t.year),
              4);
    appendBcd(out,
              static_cast<std::uint64_t>(t.hour) * 10'000 + static_cast<std::uint64_t>(t.minute) * 100 +
                  static_cast<std::uint64_t>(t.second),
              3);
}

std::optional<SasDateTime> parseSetDateTime(const Poll& poll) {
    if (poll.command != 0x7F || poll.bytes.size() != 11) {
        return std::nullopt;
    }
    const auto date = fromBcd(std::span(poll.bytes).subspan(2, 4));
    const auto time = fromBcd(std::span(poll.bytes).subspan(6, 3));
    if (!date || !time) {
        return std::nullopt;
    }
    SasDateTime t;
    t.month = static_cast<int>(*date / 1'000'000);
    t.day = static_cast<int>(*date / 10'000 % 100);
    t.year = static_cast<int>(*date % 10'000);
    t.hour = static_cast<int>(*time / 10'000);
    t.minute = static_cast<int>(*time / 100 % 100);
    t.second = static_cast<int>(*time % 100);
    if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.year < 2000 || t.hour > 23 || t.minute > 59 ||
        t.second > 59) {
        return std::nullopt;
    }
    return t;
}

}  // namespace pitlink::sas
