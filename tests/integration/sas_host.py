#!/usr/bin/env python3
"""A SAS host (the casino's slot accounting system side) for driving pitlinkd over pty pairs.

It is the test oracle of pitlinkd's SAS station: everything here (CRC, BCD, escaping, frame
layouts, the secure enhanced validation algorithm) is written independently of the daemon's C++
code, from the project's docs/sas.md, tests/fixtures/sas/ and the public sources cited below.
Python 3 standard library only.

The pty wire convention. A pty carries no 9th (wakeup) bit, so both directions carry the stream a
Linux UART with space parity and PARMRK would deliver: a byte with the wakeup bit is `FF 00 b`, a
data byte FF is `FF FF`, any other byte is itself. The host sets the wakeup bit on the first byte
of each poll only; the station escapes its data FFs and chirps its address as `FF 00 addr`.

Layers: CRC/BCD/validation helpers; the escaping (escape, ParmrkDecoder); the line (open_pty_pair,
SasLine: timed writes and reads); the host (SasHost: builds polls, checks every answer and raises
SasError when one is malformed); a host's AFT books and its transfer exchange (AftBooks: wallet
and transaction log; aft_request, aft_settle: repeat, interrogate, acknowledge); a command-line
simulator for the demo (see main()).

Sources of the byte layouts (cited again at each method):
- [capture] tests/fixtures/sas/capture_ncompass_aristocrat_addr1.csv (real traffic);
- [Platform] tejvirc/Platform, Protocol/SAS/Aristocrat.Sas.Client/LPParsers/LP*.cs (a production
  EGM; its comments reproduce the SAS 6.02/6.03 field tables) and Utilities.cs (binary fields
  little-endian);
- [notes] docs/sas.md.
"""
import argparse
import dataclasses
import datetime
import os
import select
import signal
import sys
import termios
import time
import tty
from typing import Callable, NamedTuple, Optional, Union

# ---------------------------------------------------------------------------------------------
# CRC, BCD, secure enhanced validation


class SasError(Exception):
    """An answer (or the lack of one) that breaks the protocol; the message says what and why."""


class SasNoAnswer(SasError):
    """The station sent nothing within the time-out (tests of ignored polls expect this)."""


def crc16_kermit(data: bytes) -> int:
    """CRC-16/KERMIT: polynomial 0x1021 reflected (0x8408), initial 0, no final XOR."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(frame: bytes) -> bytes:
    """The frame followed by its CRC, low byte first as SAS sends it."""
    return bytes(frame) + crc16_kermit(frame).to_bytes(2, "little")


def crc_ok(frame: bytes) -> bool:
    """Whether the last two bytes are the CRC (low byte first) of the bytes before them."""
    return len(frame) >= 3 and with_crc(frame[:-2]) == bytes(frame)


def to_bcd(value: int, nbytes: int) -> bytes:
    """Packed BCD, most significant byte first; refuses a value that does not fit."""
    if value < 0 or value >= 10 ** (2 * nbytes):
        raise ValueError(f"{value} does not fit in {nbytes} BCD bytes")
    return bytes.fromhex(f"{value:0{2 * nbytes}d}")


def from_bcd(data: bytes) -> int:
    """The value of packed BCD bytes; a nibble above 9 is a protocol error (SasError)."""
    digits = bytes(data).hex()
    if not digits.isdigit():
        raise SasError(f"not BCD: {bytes(data).hex(' ')}")
    return int(digits) if digits else 0


def _bcd_digits(data: bytes) -> str:
    """BCD bytes as their decimal digit string, leading zeros kept (validation numbers, dates)."""
    from_bcd(data)
    return bytes(data).hex()


def secure_enhanced_validation(machine_id: int, sequence: int) -> str:
    """The 18-digit secure enhanced validation number (system ID 00) for a machine validation ID
    and a sequence number, as docs/sas.md "Secure enhanced validation" describes (SAS 6.02 15.15).
    Checked against tests/fixtures/sas/secure_enhanced_validation.csv."""
    a = sequence.to_bytes(3, "little") + machine_id.to_bytes(3, "little")
    b = bytes((a[0], a[1], a[0] ^ a[2], a[1] ^ a[3], a[0] ^ a[4], a[1] ^ a[5]))
    # Three CRCs, each stored low byte first, make six bytes; each 3-byte half is a 24-bit number.
    c = b"".join(crc16_kermit(b[i:i + 2]).to_bytes(2, "little") for i in (0, 2, 4))

    def half(value: int) -> str:
        bcd = bytearray(to_bcd(value, 4))  # 2**24 has 8 digits, so the first digit is 0 or 1
        bcd[0] |= (sum(int(d) for d in f"{value:08d}") % 5) << 5
        return bcd.hex()

    return "00" + half(int.from_bytes(c[3:6], "little")) + half(int.from_bytes(c[0:3], "little"))


# ---------------------------------------------------------------------------------------------
# The PARMRK escaped stream


def escape(data: bytes, wakeup_first: bool = False) -> bytes:
    """The escaped stream for `data`: the first byte with the wakeup bit (`FF 00 b`) when asked,
    every other data FF doubled."""
    out = bytearray()
    for i, byte in enumerate(data):
        if i == 0 and wakeup_first:
            out += bytes((0xFF, 0x00, byte))
        elif byte == 0xFF:
            out += b"\xff\xff"
        else:
            out.append(byte)
    return bytes(out)


class ParmrkDecoder:
    """Turns the escaped stream back into (byte, wakeup) pairs; an escape may be split across
    reads, so the decoder keeps the state of an unfinished one."""

    def __init__(self):
        self._state = 0  # 0: plain, 1: after FF, 2: after FF 00

    def feed(self, chunk: bytes) -> list:
        """The (byte, wakeup) pairs completed by `chunk`; SasError on `FF x` with x not 00/FF,
        which neither a UART nor the station may produce."""
        pairs = []
        for byte in chunk:
            if self._state == 0:
                if byte == 0xFF:
                    self._state = 1
                else:
                    pairs.append((byte, False))
            elif self._state == 1:
                if byte == 0xFF:
                    pairs.append((0xFF, False))
                    self._state = 0
                elif byte == 0x00:
                    self._state = 2
                else:
                    self._state = 0
                    raise SasError(f"bad escape FF {byte:02X} in the station's stream")
            else:
                pairs.append((byte, True))
                self._state = 0
        return pairs


# ---------------------------------------------------------------------------------------------
# The line: a pty master with timed reads


def open_pty_pair():
    """A raw pty pair: (master_fd, slave_path, slave_fd). The caller keeps slave_fd open so the
    master never sees EIO or a hang-up while the daemon has not opened the slave yet (or has
    closed it to re-open). The master is non-blocking; reads go through select."""
    master, slave = os.openpty()
    for fd in (master, slave):
        tty.setraw(fd)
    os.set_blocking(master, False)
    return master, os.ttyname(slave), slave


@dataclasses.dataclass
class Answer:
    """What came back after a poll.
    data: the decoded bytes without wakeup bit (the answer);
    wakeups: the bytes that had the wakeup bit (chirps), in arrival order;
    latency: seconds from the end of the last poll's write to the first data byte (None if none)."""
    data: bytes
    wakeups: list
    latency: Optional[float]


Expect = Union[None, int, Callable[[bytes], Optional[int]]]


class SasLine:
    """One SAS link seen from the host: the master side of a pty pair."""

    def __init__(self, master_fd: int):
        self.fd = master_fd
        self._decoder = ParmrkDecoder()
        self._pending = []  # decoded (byte, wakeup, arrival time) not yet handed out
        self.last_write_end = None
        self.last_drain_times = []  # arrival times of the chirps of the last drain()
        self.drained_data = b""  # the data bytes (not chirps) the last drain() discarded

    def write_poll(self, frame: bytes) -> None:
        """Writes a poll: frame[0] with the wakeup bit, the rest as data, in one write."""
        self.write_raw(escape(frame, wakeup_first=True))

    def write_raw(self, data: bytes) -> None:
        """Writes bytes as they are (already escaped), and notes when the write ended."""
        view = memoryview(bytes(data))
        deadline = time.monotonic() + 1.0
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:
                # The slave's input queue is full: nobody has read it for thousands of bytes.
                if time.monotonic() > deadline:
                    raise SasError("the line does not take bytes (is anybody reading the slave?)")
                select.select([], [self.fd], [], 0.05)
        self.last_write_end = time.monotonic()

    def _read_pairs(self, wait: float) -> list:
        """Decoded pairs that arrive within `wait` seconds (at most one read)."""
        readable, _, _ = select.select([self.fd], [], [], max(wait, 0.0))
        if not readable:
            return []
        try:
            chunk = os.read(self.fd, 4096)
        except BlockingIOError:
            return []
        now = time.monotonic()
        return [(byte, wakeup, now) for byte, wakeup in self._decoder.feed(chunk)]

    def read_answer(self, timeout: float = 0.5, gap: float = 0.030, expect: Expect = None) -> Answer:
        """Reads an answer: until `expect` data bytes have come (an int, or a function of the bytes
        so far giving the total or None while unknown), or no data byte for `gap` seconds after the
        first one, or `timeout` seconds with no data at all. Chirps never end or start an answer;
        they are collected in .wakeups. Bytes past `expect` stay for the next read."""
        start = time.monotonic()
        data, wakeups = bytearray(), []
        first = last = None
        while True:
            want = expect(bytes(data)) if callable(expect) and data else expect
            if isinstance(want, int) and data and len(data) >= want:
                break
            deadline = start + timeout if last is None else last + gap
            now = time.monotonic()
            if not self._pending:
                # Read at least once, even past the deadline: flush_input relies on it.
                self._pending = self._read_pairs(deadline - now)
                if not self._pending and time.monotonic() >= deadline:
                    break
                continue
            byte, wakeup, arrived = self._pending.pop(0)
            if wakeup:
                wakeups.append(byte)
                continue
            data.append(byte)
            first = arrived if first is None else first
            last = arrived
        latency = None if first is None or self.last_write_end is None else first - self.last_write_end
        return Answer(bytes(data), wakeups, latency)

    def flush_input(self) -> Answer:
        """Everything already received and not read yet, without waiting."""
        return self.read_answer(timeout=0.0, gap=0.0)

    def drain(self, seconds: float) -> list:
        """Listens for `seconds` (e.g. during a loop break) and returns the chirped bytes (their
        arrival times in .last_drain_times); data bytes are set aside in .drained_data."""
        end = time.monotonic() + seconds
        chirps, times, data = [], [], bytearray()
        while True:
            if not self._pending:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    break
                self._pending = self._read_pairs(remaining)
                continue
            byte, wakeup, arrived = self._pending.pop(0)
            if wakeup:
                chirps.append(byte)
                times.append(arrived)
            else:
                data.append(byte)
        self.last_drain_times, self.drained_data = times, bytes(data)
        return chirps


# ---------------------------------------------------------------------------------------------
# The host


class Event(NamedTuple):
    """A general poll's answer: an exception code (0 = none), with the event data and rte=True
    when it came as a real-time event frame `addr FF code data CRC`."""
    code: int
    data: bytes = b""
    rte: bool = False


class GameBooks:
    """A host's own books of a multi-game station from its real-time events: 7E and 7F carry no
    game number, so each belongs to the game of the 8C before it (game 1 until one came). Per
    game: credits wagered (7E), paid back (7F), games started and ended."""

    def __init__(self):
        self.selected = 1
        self.wagered, self.paid, self.started, self.ended = {}, {}, {}, {}

    def feed(self, event: Event) -> None:
        if event.code == 0x8C:
            self.selected = from_bcd(event.data[0:2])
        elif event.code == 0x7E:
            g = self.selected
            self.wagered[g] = self.wagered.get(g, 0) + from_bcd(event.data[0:2])
            self.started[g] = self.started.get(g, 0) + 1
        elif event.code == 0x7F:
            g = self.selected
            self.paid[g] = self.paid.get(g, 0) + from_bcd(event.data[0:4])
            self.ended[g] = self.ended.get(g, 0) + 1


# Names for the exception codes the demo shows (full list: tests/fixtures/sas/exception_codes.csv).
EXCEPTION_NAMES = {
    0x11: "slot door opened", 0x12: "slot door closed", 0x17: "AC power applied",
    0x18: "AC power lost", 0x3D: "cash-out ticket printed", 0x3E: "hand-pay validated",
    0x3F: "validation ID not configured", 0x51: "hand-pay pending", 0x52: "hand-pay reset",
    0x57: "system validation request", 0x66: "cash-out button pressed",
    0x67: "ticket inserted", 0x68: "ticket transfer complete", 0x70: "exception buffer overflow",
    0x71: "change lamp on", 0x72: "change lamp off", 0x7E: "game started", 0x7F: "game ended",
    0x8C: "game selected",
}

# Type S long polls without data still carry a CRC ([capture] `01 02 CA 3A`; [Platform] LP01/94
# parsers: fixed length 4 = address, command, CRC).
_TYPE_S_WITHOUT_DATA = frozenset((0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0A, 0x0B, 0x94))

# Single 4-byte BCD meter long polls and what they carry ([notes] "Meters").
SINGLE_METER_LPS = {
    0x10: "cancelled_credits", 0x11: "coin_in", 0x12: "coin_out", 0x13: "drop",
    0x14: "jackpot", 0x15: "games_played", 0x16: "games_won", 0x17: "games_lost",
    0x1A: "current_credits",
}
LP_0F_METERS = ("cancelled_credits", "coin_in", "coin_out", "drop", "jackpot", "games_played")
LP_19_METERS = ("coin_in", "coin_out", "drop", "jackpot", "games_played")
LP_1C_METERS = ("coin_in", "coin_out", "drop", "jackpot", "games_played", "games_won",
                "slot_door_opens", "power_resets")


def lp_2f_meter_size(code: int) -> int:
    """The BCD size of a one-byte meter code in LP 2F answers: 5 for the cents meters, 4 for the
    others. [Platform] SasMeterCollection.cs gives size 5 exactly to 0D-10 (SAS ticket in/out in
    cents) and to the even codes 80-BC (ticket, hand-pay receipt and AFT amounts in cents)."""
    return 5 if 0x0D <= code <= 0x10 or (0x80 <= code <= 0xBD and code % 2 == 0) else 4


def _parse_sas_datetime(date: bytes, clock: bytes) -> Optional[datetime.datetime]:
    """MMDDYYYY and HHMMSS in BCD as a datetime; None for all zeros (no record)."""
    d, t = _bcd_digits(date), _bcd_digits(clock)
    if int(d) == 0 and int(t) == 0:
        return None
    try:
        return datetime.datetime(int(d[4:8]), int(d[0:2]), int(d[2:4]),
                                 int(t[0:2]), int(t[2:4]), int(t[4:6]))
    except ValueError as error:
        raise SasError(f"bad date/time {d} {t}: {error}") from None


def _validation_bcd(validation: Union[int, str], nbytes: int) -> bytes:
    """A validation number given as an int or a digit string, as `nbytes` BCD bytes."""
    return to_bcd(int(validation), nbytes)


class SasHost:
    """The host of one station at `address` (1-127) on a SasLine. Every method writes one poll,
    waits for the answer (`timeout` seconds) and checks it: SasNoAnswer when nothing came,
    SasError when the answer is malformed (address, command echo, length byte, size, CRC, BCD)."""

    def __init__(self, line: SasLine, address: int, timeout: float = 0.5):
        if not 1 <= address <= 127:
            raise ValueError(f"address {address} is not 1-127")
        self.line, self.address, self.timeout = line, address, timeout
        self.events = []  # events answered to the general polls lp_21 made while waiting
        self.last = None  # the Answer of the last poll (latency, chirps)

    # -- raw access --------------------------------------------------------------------------

    def poll_raw(self, frame: bytes, expect: Expect = None, timeout: Optional[float] = None) -> Answer:
        """Writes `frame` as a poll and returns the unchecked answer. Data bytes already waiting
        are an error: they would be a late or too long earlier answer."""
        stray = self.line.flush_input()
        if stray.data:
            raise SasError(f"stray bytes before the poll: {stray.data.hex(' ')}")
        self.line.write_poll(frame)
        self.last = self.line.read_answer(self.timeout if timeout is None else timeout, expect=expect)
        self.last.wakeups[:0] = stray.wakeups
        return self.last

    def build(self, cmd: int, data: bytes = b"", crc: Optional[bool] = None, bad_crc: bool = False) -> bytes:
        """The long poll `addr cmd data [CRC]`. crc=None: a CRC when there is data or the poll is
        type S (type R polls are `addr cmd` alone). bad_crc: a corrupted CRC."""
        frame = bytes((self.address, cmd)) + bytes(data)
        if crc is None:
            crc = bool(data) or cmd in _TYPE_S_WITHOUT_DATA
        if crc or bad_crc:
            frame = with_crc(frame)
            if bad_crc:
                frame = frame[:-2] + bytes((frame[-2] ^ 0xFF, frame[-1]))
        return frame

    def _check_frame(self, answer: bytes, cmd: int, size: Optional[int], length_byte: bool) -> bytes:
        """Raises SasError unless `answer` is `addr cmd ... CRC` of the expected shape."""
        where = f"LP {cmd:02X} answer {answer.hex(' ') or '(none)'}"
        if not answer:
            raise SasNoAnswer(f"no answer to LP {cmd:02X}")
        if answer == bytes((self.address, 0x00)):
            raise SasError(f"{where}: busy")
        if answer == bytes((self.address | 0x80,)):
            raise SasError(f"{where}: NACK")
        if answer[0] != self.address:
            raise SasError(f"{where}: address {answer[0]:02X}, expected {self.address:02X}")
        if len(answer) < 4 or answer[1] != cmd:
            raise SasError(f"{where}: not an answer to LP {cmd:02X}")
        if not crc_ok(answer):
            raise SasError(f"{where}: bad CRC")
        if length_byte and answer[2] != len(answer) - 5:
            raise SasError(f"{where}: length byte {answer[2]} but {len(answer) - 5} bytes follow")
        if size is not None and len(answer) != size:
            raise SasError(f"{where}: {len(answer)} bytes, expected {size}")
        return answer

    def long_poll(self, cmd: int, data: bytes = b"", *, crc: Optional[bool] = None,
                  bad_crc: bool = False, size: Optional[int] = None,
                  length_byte: bool = False) -> bytes:
        """Sends a long poll (see build) and returns the whole checked answer frame, address to
        CRC. size: the exact answer length when fixed; length_byte: the answer's third byte counts
        the bytes after it (without the CRC)."""
        if length_byte:
            expect = lambda got: got[2] + 5 if len(got) >= 3 and got[0] == self.address else None
        else:
            expect = size
        answer = self.poll_raw(self.build(cmd, data, crc, bad_crc), expect=expect)
        try:
            return self._check_frame(answer.data, cmd, size, length_byte)
        except SasNoAnswer:
            raise
        except SasError as error:
            # The length byte may have cut the answer short: show what followed, not a bare
            # "bad CRC", and leave no stray bytes behind.
            rest = self.line.read_answer(timeout=0.05).data if length_byte else b""
            if rest:
                raise SasError(f"{error}; {len(rest)} more bytes followed (wrong length byte?): "
                               f"{rest.hex(' ')}") from None
            raise

    def _ack_poll(self, cmd: int, data: bytes = b"") -> None:
        """A long poll answered by an ACK, the address byte alone ([capture] rows 22-29)."""
        # No `expect`: a busy answer (addr 00) starts with the same byte as an ACK.
        answer = self.poll_raw(self.build(cmd, data)).data
        if answer != bytes((self.address,)):
            self._check_frame(answer, cmd, None, False)  # says why (busy, NACK, nothing...)
            raise SasError(f"LP {cmd:02X}: expected an ACK, got {answer.hex(' ')}")

    # -- link --------------------------------------------------------------------------------

    def sync(self, other: Optional[int] = None) -> None:
        """A general poll to another address (default address+1), which nobody on this line
        answers: the station synchronises and answers its own polls from then on ([notes])."""
        other = self.address % 127 + 1 if other is None else other
        answer = self.poll_raw(bytes((0x80 | other,)), timeout=0.05)
        if answer.data:
            raise SasError(f"answer to a poll to address {other}: {answer.data.hex(' ')}")

    def _classify(self, answer: bytes) -> Union[Event, bytes]:
        """A general poll's answer as an Event, or the checked frame when it is a long-poll frame
        (a ROM signature, LP 21)."""
        if not answer:
            raise SasNoAnswer("no answer to the general poll")
        if len(answer) == 1:
            return Event(answer[0])
        if answer[0] != self.address or not crc_ok(answer) or len(answer) < 5:
            raise SasError(f"general poll answer {answer.hex(' ')}: neither a byte nor a frame")
        if answer[1] == 0xFF:
            return Event(answer[2], answer[3:-2], True)
        return answer

    def _general_poll_answer(self) -> Union[Event, bytes]:
        # One byte ends the answer unless it is our address, which may start an RTE frame.
        expect = lambda got: 1 if got[0] != self.address else None
        return self._classify(self.poll_raw(bytes((0x80 | self.address,)), expect=expect).data)

    def general_poll(self) -> Event:
        """A general poll: Event(code) for an exception byte (0 = none), Event(code, data, True)
        for a real-time event frame `addr FF code data CRC` ([notes] "Exceptions")."""
        answer = self._general_poll_answer()
        if not isinstance(answer, Event):
            raise SasError(f"general poll answered by LP {answer[1]:02X} frame {answer.hex(' ')}")
        return answer

    def acknowledge(self) -> None:
        """The implied ACK of the last answer: a poll to another address ([notes] "Timing")."""
        self.sync()

    def next_event(self) -> Event:
        """A general poll whose answer is then acknowledged, as a host polling for events does
        (the same general poll again would be an implied NACK and bring the same event back)."""
        event = self.general_poll()
        self.acknowledge()
        return event

    # -- meters ------------------------------------------------------------------------------

    def meter_lp(self, cmd: int) -> int:
        """A single-meter LP (SINGLE_METER_LPS: 10-17, 1A): `addr cmd meter(4 BCD) CRC`."""
        if cmd not in SINGLE_METER_LPS:
            raise ValueError(f"LP {cmd:02X} is not a single-meter long poll")
        return from_bcd(self.long_poll(cmd, size=8)[2:6])

    def lp_1a_current_credits(self) -> int:
        """LP 1A current credits ([capture] row 41: `01 1A 00 01 66 60 CRC` = 16660)."""
        return self.meter_lp(0x1A)

    def _meters(self, cmd: int, names: tuple) -> dict:
        answer = self.long_poll(cmd, size=4 + 4 * len(names))
        return {name: from_bcd(answer[2 + 4 * i:6 + 4 * i]) for i, name in enumerate(names)}

    def lp_0f(self) -> dict:
        """LP 0F: cancelled credits, coin in, coin out, drop, jackpot, games played (4 BCD each)."""
        return self._meters(0x0F, LP_0F_METERS)

    def lp_19(self) -> dict:
        """LP 19: coin in, coin out, drop, jackpot, games played ([capture] rows 10-11)."""
        return self._meters(0x19, LP_19_METERS)

    def lp_1c(self) -> dict:
        """LP 1C: coin in, coin out, drop, jackpot, games played, games won, slot door opens,
        power resets (4 BCD each)."""
        return self._meters(0x1C, LP_1C_METERS)

    def _game_answer(self, cmd: int, game: int, data: bytes) -> bytes:
        """A type M poll `addr cmd len game(2 BCD) data CRC`; returns the answer's bytes after its
        game number, which must echo ours."""
        answer = self._with_length(cmd, to_bcd(game, 2) + bytes(data), length_byte=True)
        if from_bcd(answer[3:5]) != game:
            raise SasError(f"LP {cmd:02X}: answer for game {answer[3:5].hex()}, asked {game}")
        return answer[5:-2]

    def lp_2f(self, game: int, codes: list) -> dict:
        """LP 2F selected meters: request one-byte codes (at most 10); answer `code value` pairs,
        value 5 BCD for cents meters, 4 otherwise (lp_2f_meter_size; [Platform] LP2F parser)."""
        rest, meters = self._game_answer(0x2F, game, bytes(codes)), {}
        while rest:
            code = rest[0]
            size = lp_2f_meter_size(code)
            if len(rest) < 1 + size:
                raise SasError(f"LP 2F: meter {code:02X} cut short")
            meters[code] = from_bcd(rest[1:1 + size])
            rest = rest[1 + size:]
        return meters

    def _extended_meters(self, cmd: int, game: int, codes: list) -> dict:
        """LP 6F/AF: request two-byte codes LSB first; answer `code(2, LSB first) size value(size
        BCD)` per meter ([capture] rows 14-15). A size 0 (meter not kept, AF) gives None."""
        request = b"".join(code.to_bytes(2, "little") for code in codes)
        rest, meters = self._game_answer(cmd, game, request), {}
        while rest:
            if len(rest) < 3 or len(rest) < 3 + rest[2]:
                raise SasError(f"LP {cmd:02X}: meter entry cut short: {rest.hex(' ')}")
            code, size = int.from_bytes(rest[0:2], "little"), rest[2]
            meters[code] = from_bcd(rest[3:3 + size]) if size else None
            rest = rest[3 + size:]
        return meters

    def lp_6f(self, game: int, codes: list) -> dict:
        """LP 6F extended meters for game N: {code: value}; meters not kept are left out."""
        return self._extended_meters(0x6F, game, codes)

    def lp_af(self, game: int, codes: list) -> dict:
        """LP AF extended meters for game N: {code: value or None (size 0)}."""
        return self._extended_meters(0xAF, game, codes)

    def lp_52(self, game: int) -> dict:
        """LP 52 game N meters: `addr 52 game(2 BCD) CRC`; answer `addr 52 game coin-in coin-out
        jackpot games-played CRC`, 4 BCD each ([Platform] LP52 parser)."""
        a = self.long_poll(0x52, to_bcd(game, 2), size=22)
        if from_bcd(a[2:4]) != game:
            raise SasError(f"LP 52: answer for game {a[2:4].hex()}, asked {game}")
        return {name: from_bcd(a[4 + 4 * i:8 + 4 * i])
                for i, name in enumerate(("coin_in", "coin_out", "jackpot", "games_played"))}

    def lp_b0_2f(self, denom: int, game: int, codes: list) -> dict:
        """LP 2F for game N at one denomination, under the B0 preamble: {code: value}. A B0 error
        raises SasError with its code."""
        echoed, base, data = self.lp_b0(denom, 0x2F, bytes([2 + len(codes)]) + to_bcd(game, 2) + bytes(codes))
        if base != 0x2F:
            raise SasError(f"LP B0 {denom:02X} 2F: error {data.hex()}")
        if echoed != denom or data[0] != len(data) - 1 or from_bcd(data[1:3]) != game:
            raise SasError(f"LP B0 {denom:02X} 2F: answer {data.hex(' ')}")
        rest, meters = data[3:], {}
        while rest:
            size = lp_2f_meter_size(rest[0])
            meters[rest[0]] = from_bcd(rest[1:1 + size])
            rest = rest[1 + size:]
        return meters

    def lp_18(self) -> tuple:
        """LP 18: (games since power-up, games since the slot door closed), 2 BCD each
        ([Platform] LP18 parser)."""
        a = self.long_poll(0x18, size=8)
        return from_bcd(a[2:4]), from_bcd(a[4:6])

    def lp_2d(self, game: int = 0) -> int:
        """LP 2D total hand-paid cancelled credits of game N (4 BCD); a machine that keeps it for
        the whole machine only does not answer game N != 0 ([Platform], SAS 7.6.3)."""
        a = self.long_poll(0x2D, to_bcd(game, 2), size=10)
        return from_bcd(a[4:8])

    def lp_50(self, validation_type: int) -> tuple:
        """LP 50 validation meters of one type: (count 4 BCD, amount 5 BCD cents)."""
        a = self.long_poll(0x50, bytes((validation_type,)), size=14)
        if a[2] != validation_type:
            raise SasError(f"LP 50: answer for type {a[2]:02X}")
        return from_bcd(a[3:7]), from_bcd(a[7:12])

    def lp_a4(self, game: int = 0) -> int:
        """LP A4 cash-out limit of game N: `addr A4 game(2 BCD) limit(2 BCD) CRC`."""
        a = self.long_poll(0xA4, to_bcd(game, 2), size=8)
        return from_bcd(a[4:6])

    def lp_a8(self, method: int) -> int:
        """LP A8 enable jackpot hand-pay reset method (00 standard, 01 to the credit meter): the
        ACK code, 00 enabled, 01 unable, 02 not in a hand-pay."""
        return self.long_poll(0xA8, bytes((method,)), size=5)[2]

    def lp_b7(self, asset: int = 0, location: str = "") -> dict:
        """LP B7 set machine numbers: `addr B7 len asset(4, binary LSB first) location-len location
        CRC` (asset 0 and no location only read them); answer `addr B7 len control asset
        location-len location CRC` ([Platform] LPB7 parser). Sent until answered (see `setting`)."""
        place = location.encode("ascii")
        a = self.setting(lambda: self._with_length(0xB7, asset.to_bytes(4, "little") + bytes((len(place),)) + place,
                                                   length_byte=True), "LP B7")
        if a[8] != len(a) - 11:
            raise SasError(f"LP B7: location length {a[8]} in a {len(a)}-byte answer")
        return {"control": a[3], "asset": int.from_bytes(a[4:8], "little"), "location": a[9:-2].decode("ascii")}

    # -- games -------------------------------------------------------------------------------

    def lp_51(self) -> int:
        """LP 51 number of games implemented (2 BCD)."""
        return from_bcd(self.long_poll(0x51, size=6)[2:4])

    def lp_55(self) -> int:
        """LP 55 selected game number (2 BCD)."""
        return from_bcd(self.long_poll(0x55, size=6)[2:4])

    def lp_56(self) -> list:
        """LP 56 enabled game numbers: `addr 56 len count game(2 BCD)... CRC`."""
        a = self.long_poll(0x56, length_byte=True)
        if a[2] != 1 + 2 * a[3]:
            raise SasError(f"LP 56: {a[3]} games in {a[2]} bytes")
        return [from_bcd(a[4 + 2 * i:6 + 2 * i]) for i in range(a[3])]

    # -- control and machine information -----------------------------------------------------

    def lp_0e(self, enable: bool) -> None:
        """LP 0E real-time event reporting on/off: `addr 0E 00|01 CRC`, ACK ([capture] row 24)."""
        self._ack_poll(0x0E, bytes((1 if enable else 0,)))

    def disable_play(self) -> None:
        """LP 01 shutdown (lock out play): `addr 01 CRC`, ACK (fixtures frames_misc.csv)."""
        self._ack_poll(0x01)

    def enable_play(self) -> None:
        """LP 02 startup (enable play): `addr 02 CRC`, ACK ([capture] rows 22-23)."""
        self._ack_poll(0x02)

    def lp_1f(self) -> dict:
        """LP 1F gaming machine information ([capture] row 21): game ID (2 ASCII), additional ID
        (3 ASCII), denomination code, max bet, progressive group, game options (2, binary LSB
        first), paytable ID (6 ASCII), base % (4 ASCII, e.g. '9068' = 90.68 %)."""
        a = self.long_poll(0x1F, size=24)
        return {"game_id": a[2:4].decode("ascii"), "additional_id": a[4:7].decode("ascii"),
                "denomination": a[7], "max_bet": a[8], "progressive_group": a[9],
                "game_options": int.from_bytes(a[10:12], "little"),
                "paytable_id": a[12:18].decode("ascii"), "base_percent": a[18:22].decode("ascii")}

    def lp_a0(self, game: int = 0) -> dict:
        """LP A0 enabled features of game N: `addr A0 game(2 BCD) f1 f2 f3 reserved(3) CRC`
        ([capture] rows 16-17: D7 CD 05), named by bit as an SMIB reads them."""
        a = self.long_poll(0xA0, to_bcd(game, 2), size=12)
        f1, f2, f3 = a[4], a[5], a[6]
        return {"game": from_bcd(a[2:4]), "jackpot_multiplier": bool(f1 & 0x01), "aft_bonus": bool(f1 & 0x02),
                "legacy_bonus": bool(f1 & 0x04), "tournament": bool(f1 & 0x08),
                "validation_extensions": bool(f1 & 0x10),
                "validation_style": {0: "none", 1: "system", 2: "enhanced", 3: "reserved"}[(f1 >> 5) & 0x03],
                "ticket_redemption": bool(f1 & 0x80), "meter_model": f2 & 0x03,
                "tickets_to_drop": bool(f2 & 0x04), "extended_meters": bool(f2 & 0x08),
                "component_authentication": bool(f2 & 0x10), "aft": bool(f2 & 0x40),
                "multi_denom_extensions": bool(f2 & 0x80), "max_polling_rate": bool(f3 & 0x01),
                "multiple_progressive_wins": bool(f3 & 0x02), "reserved": bytes(a[7:10])}

    def lp_2e(self, tenths: int) -> None:
        """LP 2E game delay: `addr 2E delay(2 BCD, 100 ms units) CRC`, answered by an ACK
        ([capture] rows 28-29)."""
        self._ack_poll(0x2E, to_bcd(tenths, 2))

    def lp_b1(self) -> int:
        """LP B1 current player denomination code ([capture] rows 46-47)."""
        return self.long_poll(0xB1, size=5)[2]

    def lp_b2(self) -> list:
        """LP B2 enabled player denominations: `addr B2 len count codes... CRC` ([capture] 36-37)."""
        a = self.long_poll(0xB2, length_byte=True)
        if a[3] != a[2] - 1:
            raise SasError(f"LP B2: {a[3]} denominations in {a[2] - 1} bytes")
        return list(a[4:4 + a[3]])

    def lp_b5(self, game: int) -> dict:
        """LP B5 extended game N information: game(2 BCD), max bet(2 BCD), progressive group,
        levels(4), name length + name, paytable name length + name, wager categories(2 BCD),
        denominations count + codes."""
        a = self.long_poll(0xB5, to_bcd(game, 2), length_byte=True)
        at = 3
        out = {"game": from_bcd(a[at:at + 2]), "max_bet": from_bcd(a[at + 2:at + 4]), "progressive_group": a[at + 4],
               "levels": int.from_bytes(a[at + 5:at + 9], "little")}
        at += 9
        out["game_name"] = a[at + 1:at + 1 + a[at]].decode("ascii")
        at += 1 + a[at]
        out["paytable_name"] = a[at + 1:at + 1 + a[at]].decode("ascii")
        at += 1 + a[at]
        out["wager_categories"] = from_bcd(a[at:at + 2])
        out["denominations"] = list(a[at + 3:at + 3 + a[at + 2]])
        if at + 3 + a[at + 2] != len(a) - 2:
            raise SasError(f"LP B5: {len(a) - 2 - at - 3 - a[at + 2]} bytes left over")
        return out

    def lp_b0(self, denom: int, base: int, data: bytes = b"") -> tuple:
        """LP B0 multi-denomination preamble around `base`: (denomination, base command echoed or
        00, the base answer's data or the 1-byte error code) (SAS 6.02 section 16)."""
        a = self.long_poll(0xB0, bytes([2 + len(data), denom, base]) + data, length_byte=True)
        return a[3], a[4], bytes(a[5:-2])

    def lp_54(self) -> tuple:
        """LP 54: (SAS version, serial number) from `addr 54 len version(3 ASCII) serial CRC`
        ([capture] rows 12-13: '602', '000001')."""
        a = self.long_poll(0x54, length_byte=True)
        if a[2] < 3:
            raise SasError(f"LP 54: length {a[2]} leaves no room for the version")
        return a[3:6].decode("ascii"), a[6:-2].decode("ascii")

    def lp_7e(self) -> datetime.datetime:
        """LP 7E date and time: `addr 7E MMDDYYYY(4 BCD) HHMMSS(3 BCD) CRC`."""
        a = self.long_poll(0x7E, size=11)
        when = _parse_sas_datetime(a[2:6], a[6:9])
        if when is None:
            raise SasError("LP 7E: all-zero date and time")
        return when

    def lp_7f(self, when: datetime.datetime) -> None:
        """LP 7F set date and time: `addr 7F MMDDYYYY HHMMSS CRC`, ACK ([capture] rows 26-27)."""
        self._ack_poll(0x7F, to_bcd(int(when.strftime("%m%d%Y%H%M%S")), 7))

    def lp_21(self, seed: int, wait: float = 5.0) -> int:
        """LP 21 ROM signature: `addr 21 seed(2, binary LSB first) CRC` ([Platform] LP21 parser).
        The answer `addr 21 signature(2, LSB first) CRC` comes at once, or (SAS 6.02 section 6,
        as Platform does) the poll is ACKed and the signature answers a later general poll: this
        method then general-polls for up to `wait` seconds; events seen meanwhile go to .events."""
        answer = self.poll_raw(self.build(0x21, seed.to_bytes(2, "little"))).data
        if answer != bytes((self.address,)):
            return int.from_bytes(self._check_frame(answer, 0x21, 6, False)[2:4], "little")
        end = time.monotonic() + wait
        while time.monotonic() < end:
            time.sleep(0.04)
            reply = self._general_poll_answer()
            if isinstance(reply, Event):
                if reply.code:
                    self.events.append(reply)
                continue
            return int.from_bytes(self._check_frame(reply, 0x21, 6, False)[2:4], "little")
        raise SasNoAnswer(f"no ROM signature within {wait} s")

    def lp_48(self) -> dict:
        """LP 48 last accepted bill: country (1 BCD), denomination code (1 BCD), bills of that
        kind accepted (4 BCD) ([Platform] LP48 parser)."""
        a = self.long_poll(0x48, size=10)
        return {"country": from_bcd(a[2:3]), "denomination": from_bcd(a[3:4]),
                "count": from_bcd(a[4:8])}

    # -- hand-pay ----------------------------------------------------------------------------

    def lp_1b(self) -> dict:
        """LP 1B hand-pay information: progressive group, level, amount (5 BCD, cents), partial pay
        (2 BCD), reset ID, then 10 bytes returned as 'reserved' ([notes]: zero; [Platform] puts
        session game win and pay amounts there, 5 BCD each)."""
        a = self.long_poll(0x1B, size=24)
        return {"progressive_group": a[2], "level": a[3], "amount": from_bcd(a[4:9]),
                "partial_pay": from_bcd(a[9:11]), "reset_id": a[11], "reserved": a[12:22]}

    def lp_94(self) -> int:
        """LP 94 remote hand-pay reset: `addr 94 CRC`; answer `addr 94 code CRC`: 00 reset,
        01 unable, 02 not in a hand-pay ([notes])."""
        return self.long_poll(0x94, size=5)[2]

    # -- tickets -----------------------------------------------------------------------------

    def setting(self, poll: Callable[[], bytes], what: str, deadline: float = 10.0) -> bytes:
        """A poll that sets something (LP 4C, 7B, 7C, 7D, B7): the station answers it once what it
        sets is durable (docs/sas.md "Tickets"), so it is sent again, as it is, until answered."""
        return repeat_poll(poll, None, time.monotonic() + deadline, what)

    def lp_4c(self, machine_id: int, sequence: int) -> tuple:
        """LP 4C set secure enhanced validation ID: `addr 4C id(3) seq(3) CRC`, both binary LSB
        first; the answer echoes `addr 4C id(3) seq(3) CRC` ([Platform] LP4C parser: ID 0 reads
        the current values). Returns the answered (machine_id, sequence). Sent until answered (see
        `setting`)."""
        data = machine_id.to_bytes(3, "little") + sequence.to_bytes(3, "little")
        a = self.setting(lambda: self.long_poll(0x4C, data, size=10), "LP 4C")
        return int.from_bytes(a[2:5], "little"), int.from_bytes(a[5:8], "little")

    def lp_4d(self, function_code: int) -> dict:
        """LP 4D enhanced validation information, `addr 4D fc CRC` (00 current, 01-1F buffer index,
        FF look ahead). Answer ([Platform] LP4D parser): validation type,
        index, date MMDDYYYY (4 BCD), time HHMMSS (3 BCD), validation number (8 BCD = 16 digits),
        amount (5 BCD, cents), ticket number (2, binary LSB first: 0000-270F, FFFF = none),
        validation system ID (1 BCD; 00 = secure enhanced), expiration (4 BCD), pool ID (2,
        binary LSB first). 'validation' is the 16-digit string; 'datetime' None when all zero."""
        a = self.long_poll(0x4D, bytes((function_code,)), size=35)
        return {"type": a[2], "index": a[3], "datetime": _parse_sas_datetime(a[4:8], a[8:11]),
                "validation": _bcd_digits(a[11:19]), "amount": from_bcd(a[19:24]),
                "ticket_number": int.from_bytes(a[24:26], "little"),
                "system_id": from_bcd(a[26:27]), "expiration": from_bcd(a[27:31]),
                "pool_id": int.from_bytes(a[31:33], "little")}

    def lp_57(self) -> tuple:
        """LP 57 pending cash-out: (type, amount in cents) from `addr 57 type amount(5 BCD) CRC`;
        type 00 cashable, 01 restricted, 80 not waiting ([Platform] LP57 parser)."""
        a = self.long_poll(0x57, size=10)
        return a[2], from_bcd(a[3:8])

    def lp_58(self, system_id: int, validation_number: Union[int, str]) -> int:
        """LP 58 receive validation number: `addr 58 system_id(1 BCD) validation(8 BCD) CRC`
        (system ID 00 denies); answer status: 00 acknowledged, 80 not in a cash-out, 81 improper
        validation rejected ([Platform] LP58 parser)."""
        data = to_bcd(system_id, 1) + _validation_bcd(validation_number, 8)
        return self.long_poll(0x58, data, size=5)[2]

    @staticmethod
    def _ticket_status(a: bytes) -> dict:
        """`len status [amount(5 BCD) parsing_code validation...]` of LP 70/71 answers; a status
        alone when no data follows ([Platform] LP70/LP71 parsers)."""
        info = {"status": a[3]}
        if a[2] > 1:
            if a[2] < 7:
                raise SasError(f"LP {a[1]:02X}: length {a[2]} cuts the amount or parsing code")
            info.update(amount=from_bcd(a[4:9]), parsing_code=a[9], validation=a[10:-2])
            if a[9] == 0:  # parsing code 00: the validation number in BCD
                info["validation"] = _bcd_digits(info["validation"])
        return info

    def lp_70(self) -> dict:
        """LP 70 ticket validation data: `addr 70 len status(00 in escrow, FF none) [amount(5 BCD)
        parsing_code validation(9 BCD for parsing code 00)] CRC`. With parsing code 00,
        'validation' is the digit string, else the raw bytes."""
        answer = self.long_poll(0x70, length_byte=True)
        if answer[3] == 0xFF and answer[2] != 1:  # no ticket: no data follows ([Platform] LP70 parser)
            raise SasError(f"LP 70: no ticket in escrow answered with {answer[2]} bytes, not the status alone")
        return self._ticket_status(answer)

    def lp_71(self, transfer_code: int, amount: int = 0, parsing_code: int = 0,
              validation: Union[int, str, bytes] = 0, expiration: Optional[int] = None,
              pool_id: Optional[int] = None) -> dict:
        """LP 71 redeem ticket ([Platform] LP71 parser): `addr 71 len
        transfer_code amount(5 BCD) parsing_code validation [expiration(4 BCD) pool_id(2, LSB
        first)] CRC` -- no length byte before the validation data, which is 9 BCD (18 digits)
        for parsing code 00 (an int/str) or raw bytes otherwise. Transfer code FF (status after
        exception 68) sends `addr 71 01 FF CRC` alone. The answer is parsed as lp_70's."""
        if transfer_code == 0xFF:
            body = b"\xff"
        else:
            if isinstance(validation, (bytes, bytearray)):
                data = bytes(validation)
            else:
                data = _validation_bcd(validation, 9)
            body = bytes((transfer_code,)) + to_bcd(amount, 5) + bytes((parsing_code,)) + data
            if expiration is not None or pool_id is not None:
                body += to_bcd(expiration or 0, 4) + (pool_id or 0).to_bytes(2, "little")
        return self._ticket_status(self._with_length(0x71, body, length_byte=True))

    def _with_length(self, cmd: int, body: bytes, **checks) -> bytes:
        """A long poll `addr cmd len body CRC`; the checked answer frame."""
        return self.long_poll(cmd, bytes((len(body),)) + bytes(body), **checks)

    def lp_7b(self, body: bytes, deadline: float = 10.0) -> bytes:
        """LP 7B extended validation status, `addr 7B len body CRC` (body: control mask and states,
        2 binary each, then two 2-BCD expirations; [capture] row 0). Answer ([Platform] LP7B
        parser): `addr 7B 0A asset(4) status(2) expiration(2 BCD) restricted(2 BCD) CRC`. Sent until
        answered (see `setting`; `deadline` 0: once)."""
        return self.setting(lambda: self._with_length(0x7B, body, length_byte=True), "LP 7B", deadline)

    def lp_7c(self, body: bytes) -> bytes:
        """LP 7C set extended ticket data, `addr 7C len (code len text)... CRC`. Answer ([Platform]
        LP7C parser): `addr 7C flag CRC`. Sent until answered (see `setting`)."""
        return self.setting(lambda: self._with_length(0x7C, body, size=5), "LP 7C")

    def lp_7d(self, body: bytes) -> bytes:
        """LP 7D set ticket data, `addr 7D len host_id(2) expiration(1) (len text)x3 CRC`. Answer
        `addr 7D flag CRC` ([capture] row 8 `01 7D 01 E9 0B`; [Platform] LP7D parser). Sent until
        answered (see `setting`)."""
        return self.setting(lambda: self._with_length(0x7D, body, size=5), "LP 7D")

    # -- AFT (LP 72, 73, 74) -----------------------------------------------------------------
    # Layouts from docs/sas.md "AFT" ([Platform] LP72/LP73/LP74 parsers): amounts are cents in 5
    # BCD bytes; asset, POS ID and pool ID binary, least significant byte first.

    def lp_72(self, code: int, transaction_id: str, *, transfer_type: int = 0x00, cashable: int = 0,
              restricted: int = 0, nonrestricted: int = 0, flags: int = 0, asset: int = 0,
              key: bytes = bytes(20), expiration: int = 0, pool: int = 0) -> "AftTransfer":
        """LP 72 transfer request (code 00 full, 01 partial). SasNoAnswer when the station does not
        answer yet (it answers once the transfer's record is durable: the host repeats)."""
        ident = transaction_id.encode("ascii")
        body = (bytes((code, 0x00, transfer_type)) + to_bcd(cashable, 5) + to_bcd(restricted, 5)
                + to_bcd(nonrestricted, 5) + bytes((flags,)) + asset.to_bytes(4, "little") + bytes(key)
                + bytes((len(ident),)) + ident + to_bcd(expiration, 4) + pool.to_bytes(2, "little")
                + b"\x00" + to_bcd(0, 2))
        return self._aft_answer(self.long_poll(0x72, bytes((len(body),)) + body, length_byte=True))

    def lp_72_interrogate(self, index: int = 0, status_only: bool = False) -> "AftTransfer":
        """LP 72 FF (or FE: status only, never acknowledged) for history position `index`."""
        return self._aft_answer(self.long_poll(0x72, bytes((2, 0xFE if status_only else 0xFF, index)),
                                               length_byte=True))

    def _aft_answer(self, a: bytes) -> "AftTransfer":
        body = a[3:-2]
        if len(body) == 2:  # C0, C1
            return AftTransfer(position=body[0], status=body[1])
        if len(body) == 3:  # no information
            if body[1:] != b"\xff\xff":
                raise SasError(f"LP 72: 3-byte answer {body.hex(' ')}")
            return AftTransfer(position=body[0], status=0xFF, receipt=0xFF)
        if len(body) < 25:
            raise SasError(f"LP 72: answer too short: {a.hex(' ')}")
        ident_len = body[24]
        rest = body[25 + ident_len:]
        if len(rest) < 13:
            raise SasError(f"LP 72: answer cut after the transaction ID: {a.hex(' ')}")
        cumulative, meters = rest[13:], []
        while cumulative:
            size = cumulative[0]
            meters.append(from_bcd(cumulative[1:1 + size]) if size else None)
            cumulative = cumulative[1 + size:]
        if len(meters) != 3:
            raise SasError(f"LP 72: {len(meters)} cumulative meters, expected 3: {a.hex(' ')}")
        return AftTransfer(position=body[0], status=body[1], receipt=body[2], transfer_type=body[3],
                           cashable=from_bcd(body[4:9]), restricted=from_bcd(body[9:14]),
                           nonrestricted=from_bcd(body[14:19]), flags=body[19],
                           asset=int.from_bytes(body[20:24], "little"),
                           transaction_id=body[25:25 + ident_len].decode("ascii"),
                           when=_parse_sas_datetime(rest[0:4], rest[4:7]), expiration=from_bcd(rest[7:11]),
                           pool=int.from_bytes(rest[11:13], "little"),
                           cumulative=None if meters == [None, None, None] else tuple(meters))

    def lp_73(self, code: int, asset: Optional[int] = None, key: bytes = bytes(20), pos_id: int = 0, *,
              deadline: float = 10.0) -> dict:
        """LP 73 register: `len code [asset(4) key(20) pos(4)]`; answer `1D status asset key pos`.
        A change is answered once it is durable (docs/sas.md "AFT"): the request is sent again,
        as it is, until answered (`deadline` seconds; 0: once)."""
        data = bytes((code,)) if asset is None else (bytes((code,)) + asset.to_bytes(4, "little") + bytes(key)
                                                     + pos_id.to_bytes(4, "little"))
        a = repeat_poll(lambda: self.long_poll(0x73, bytes((len(data),)) + data, length_byte=True), None,
                        time.monotonic() + deadline, f"LP 73 {code:02X}")
        if a[2] != 0x1D:
            raise SasError(f"LP 73: length {a[2]:02X}, expected 1D")
        return {"status": a[3], "asset": int.from_bytes(a[4:8], "little"), "key": bytes(a[8:28]),
                "pos_id": int.from_bytes(a[28:32], "little")}

    def lp_74(self, code: int = 0xFF, conditions: int = 0, timeout: int = 0) -> dict:
        """LP 74 lock and status: `code condition timeout(2 BCD, hundredths)`, no length byte;
        answer `23 asset lock available host-cashout aft-status max-index cashable restricted
        non-restricted limit (5 BCD cents) expiration(4 BCD) pool(2)`."""
        a = self.long_poll(0x74, bytes((code, conditions)) + to_bcd(timeout, 2), length_byte=True)
        if a[2] != 0x23:
            raise SasError(f"LP 74: length {a[2]:02X}, expected 23")
        return {"asset": int.from_bytes(a[3:7], "little"), "lock": a[7], "available": a[8], "host_cashout": a[9],
                "aft_status": a[10], "max_index": a[11], "cashable": from_bcd(a[12:17]),
                "restricted": from_bcd(a[17:22]), "nonrestricted": from_bcd(a[22:27]),
                "limit": from_bcd(a[27:32]), "expiration": from_bcd(a[32:36]),
                "pool": int.from_bytes(a[36:38], "little")}

    # -- legacy bonusing (LP 8A, 90, 9A) -----------------------------------------------------
    # Layouts from docs/sas.md "Legacy bonusing" ([Platform] LP8A/LP90/LP9A parsers): amounts in
    # credits of the accounting denomination, 4 BCD bytes; tax status 00 deductible, 01
    # non-deductible, 02 wager match.

    def lp_8a(self, credits: int, tax_status: int) -> bool:
        """LP 8A initiate a legacy bonus pay, `addr 8A amount(4 BCD) tax-status CRC`: True when
        taken (an ACK, the address alone), False when busy (`addr 00`). SasNoAnswer when not
        answered (legacy bonusing off, or an award the station cannot read)."""
        answer = self.poll_raw(self.build(0x8A, to_bcd(credits, 4) + bytes((tax_status,)))).data
        if answer == bytes((self.address,)):
            return True
        if answer == bytes((self.address, 0x00)):
            return False
        if not answer:
            raise SasNoAnswer("no answer to LP 8A")
        raise SasError(f"LP 8A: expected an ACK or busy, got {answer.hex(' ')}")

    def lp_90(self) -> dict:
        """LP 90 send legacy bonus win amount, `addr 90` (type R); answer `addr 90 multiplier(1)
        multiplied-win(4 BCD) tax-status(1) bonus(4 BCD) CRC`."""
        a = self.long_poll(0x90, size=14)
        return {"multiplier": a[2], "multiplied_win": from_bcd(a[3:7]), "tax_status": a[7],
                "bonus": from_bcd(a[8:12])}

    def lp_9a(self, game: int = 0) -> dict:
        """LP 9A send legacy bonus meters, `addr 9A game(2 BCD) CRC`; answer `addr 9A game(2 BCD)
        deductible non-deductible wager-match (4 BCD credits each) CRC`."""
        a = self.long_poll(0x9A, to_bcd(game, 2), size=18)
        return {"game": from_bcd(a[2:4]), "deductible": from_bcd(a[4:8]), "non_deductible": from_bcd(a[8:12]),
                "wager_match": from_bcd(a[12:16])}


class AftTransfer(NamedTuple):
    """An LP 72 answer as the host reads it (short and no-information answers leave the rest None)."""
    position: int
    status: int
    receipt: Optional[int] = None
    transfer_type: Optional[int] = None
    cashable: Optional[int] = None
    restricted: Optional[int] = None
    nonrestricted: Optional[int] = None
    flags: Optional[int] = None
    asset: Optional[int] = None
    transaction_id: Optional[str] = None
    when: Optional[datetime.datetime] = None
    expiration: Optional[int] = None
    pool: Optional[int] = None
    cumulative: Optional[tuple] = None


# ---------------------------------------------------------------------------------------------
# AFT: a host's books and its transfer exchange (docs/sas.md "AFT")

AFT_TO_STATION, AFT_BONUS_COIN_OUT, AFT_TO_HOST = 0x00, 0x10, 0x80  # the transfer types answered
AFT_BONUS_JACKPOT = 0x11  # a bonus paid as a jackpot: by hand-pay from the station's jackpot limit
AFT_SUCCESSFUL = (0x00, 0x01)  # full, partial
AFT_PENDING, AFT_BUSY = 0x40, 0xC0  # a transfer in progress; another not acknowledged yet
# LP 6F/AF codes of the AFT meters, cents then count of the transfers that moved that part
# (docs/sas.md "AFT", SAS Table C-7): in house to the station and to the host by credit type
# (cashable, restricted, non-restricted), bonuses (cashable, non-restricted).
AFT_IN_METERS, AFT_IN_COUNTS = (0x00A0, 0x00A2, 0x00A4), (0x00A1, 0x00A3, 0x00A5)
AFT_BONUS_METERS, AFT_BONUS_COUNTS = (0x00AE, 0x00B0), (0x00AF, 0x00B1)
AFT_OUT_METERS, AFT_OUT_COUNTS = (0x00B8, 0x00BA, 0x00BC), (0x00B9, 0x00BB, 0x00BD)
# The meters of the credit meter identity (protocols/sas/README.md "Meters"); 0021 (attendant
# paid external bonus: bonus jackpots hand-paid) is its AFT term that leaves the credit meter.
IDENTITY_METERS = (0x000C, 0x000D, 0x0001, 0x00FA, 0x0000, 0x0004, 0x00FD)
ATTENDANT_PAID_BONUS = 0x0021
# 00FE (restricted promotional keyed-off funds): restricted credits gone at their expiry.
RESTRICTED_KEYED_OFF = 0x00FE


def identity_credits(m: dict) -> int:
    """What the meters say current credits (000C) must be: ticket in + coin out + keyed on + AFT
    in + AFT bonus - coin in - cancelled credits - keyed off - AFT out - bonuses hand-paid -
    restricted credits expired (a meter missing or not kept, None, counts 0)."""
    get = lambda code: m.get(code) or 0  # noqa: E731
    return (get(0x000D) + get(0x0001) + get(0x00FA) + sum(get(c) for c in AFT_IN_METERS + AFT_BONUS_METERS)
            - get(0x0000) - get(0x0004) - get(0x00FD) - sum(get(c) for c in AFT_OUT_METERS)
            - get(ATTENDANT_PAID_BONUS) - get(RESTRICTED_KEYED_OFF))


class AftError(SasError):
    """The station broke AFT's rules (an answer for another transaction, a final status that
    changed): not a line fault, so aft_request and aft_settle raise it past their retries."""


class AftBooks:
    """A host's AFT books: its wallet (transfers to a station and bonuses leave it, transfers to
    the host come back into it) and its transaction log (each transaction ID's final answer and
    transfer type, booked once), with what moved by direction and credit type, as the station's
    AFT meters must count it."""

    def __init__(self, wallet: int = 0):
        self.opening = self.wallet = wallet
        self.log = {}    # transaction ID -> final AftTransfer
        self.types = {}  # transaction ID -> transfer type
        self.to_station = [0, 0, 0]  # cents: cashable, restricted, non-restricted
        self.bonus = [0, 0]          # cents: cashable, non-restricted
        self.to_host = [0, 0, 0]
        self.counts = dict.fromkeys(AFT_IN_COUNTS + AFT_BONUS_COUNTS + AFT_OUT_COUNTS, 0)

    def record(self, answer: "AftTransfer", transfer_type: int) -> None:
        """Books a transaction's final answer; AssertionError when its ID has one already."""
        if answer.transaction_id in self.log:
            raise AssertionError(f"{answer.transaction_id} ended twice: {self.log[answer.transaction_id]}, {answer}")
        self.log[answer.transaction_id] = answer
        self.types[answer.transaction_id] = transfer_type
        if answer.status not in AFT_SUCCESSFUL:
            return
        moved = (answer.cashable, answer.restricted, answer.nonrestricted)
        if transfer_type == AFT_TO_STATION:
            sums, counts, parts = self.to_station, AFT_IN_COUNTS, moved
        elif transfer_type in (AFT_BONUS_COIN_OUT, AFT_BONUS_JACKPOT):
            if answer.restricted:
                raise AssertionError(f"{answer.transaction_id}: a restricted bonus {answer}")
            sums, counts, parts = self.bonus, AFT_BONUS_COUNTS, (moved[0], moved[2])
        elif transfer_type == AFT_TO_HOST:
            sums, counts, parts = self.to_host, AFT_OUT_COUNTS, moved
        else:
            raise AssertionError(f"{answer.transaction_id}: transfer type {transfer_type:02X} succeeded")
        for i, part in enumerate(parts):
            sums[i] += part
            self.counts[counts[i]] += part > 0
        self.wallet += self.signed(answer.transaction_id)

    def signed(self, transaction_id: str) -> int:
        """What the transaction moved, seen from the host: negative to the station, positive to the
        host, 0 when it failed."""
        answer = self.log[transaction_id]
        if answer.status not in AFT_SUCCESSFUL:
            return 0
        total = answer.cashable + answer.restricted + answer.nonrestricted
        return total if self.types[transaction_id] == AFT_TO_HOST else -total

    def cumulative(self, transfer_type: int) -> tuple:
        """The cumulative meters an answer of that direction carries: (cashable, restricted,
        non-restricted) in, out, or the bonuses' (cashable, 0, non-restricted)."""
        if transfer_type in (AFT_BONUS_COIN_OUT, AFT_BONUS_JACKPOT):
            return self.bonus[0], 0, self.bonus[1]
        return tuple(self.to_host if transfer_type == AFT_TO_HOST else self.to_station)

    def meters(self) -> dict:
        """The AFT meters (cents and counts) the station must report for these books alone."""
        values = dict(zip(AFT_IN_METERS + AFT_BONUS_METERS + AFT_OUT_METERS,
                          self.to_station + self.bonus + self.to_host))
        values.update(self.counts)
        return values


def _again(retry: Optional[Callable[[SasError], None]], error: SasError) -> None:
    """After a failed poll: `retry` decides (and may raise); without it only a missing answer is
    repeated, after a short pause."""
    if retry is not None:
        retry(error)
    elif isinstance(error, SasNoAnswer):
        time.sleep(0.01)
    else:
        raise error


def repeat_poll(poll: Callable[[], object], retry: Optional[Callable[[SasError], None]], end: float, what: str):
    """poll() until it returns, `retry` deciding after each failure (see _again), until `end`
    (time.monotonic()); then SasNoAnswer."""
    while True:
        try:
            return poll()
        except SasError as error:
            if time.monotonic() > end:
                raise SasNoAnswer(f"{what}: no good answer in time ({error})") from None
            _again(retry, error)


def aft_request(host: "SasHost", code: int, transaction_id: str, transfer_type: int, *,
                retry: Optional[Callable[[SasError], None]] = None, deadline: float = 10.0,
                **fields) -> "AftTransfer":
    """An LP 72 transfer request (host.lp_72's fields) sent until the station answers it: it
    answers once the transfer is journaled, and the same request again (its answer lost, or not
    given yet) gets that transfer's status, never a second transfer. Returns the answer, or C0's
    short one (another transfer is not acknowledged). `retry(error)` is called after each failed
    poll before the request is repeated (None: only a missing answer is repeated)."""
    answer = repeat_poll(lambda: host.lp_72(code, transaction_id, transfer_type=transfer_type, **fields),
                             retry, time.monotonic() + deadline, f"LP 72 {transaction_id}")
    if answer.status != AFT_BUSY and answer.transaction_id != transaction_id:
        raise AftError(f"LP 72 {transaction_id} answered for {answer.transaction_id}: {answer}")
    return answer


def aft_settle(host: "SasHost", transaction_id: str, answer: "AftTransfer", *,
               retry: Optional[Callable[[SasError], None]] = None, deadline: float = 10.0,
               acknowledge: bool = True) -> "AftTransfer":
    """After `answer` (the station's to the request, or to an interrogation): interrogates with
    72 FE (status only) while the transfer is pending, reads its final status with 72 FF and
    acknowledges it with the next poll, a poll to another address (acknowledge=False: the caller
    sends that poll). Returns the 72 FF answer."""
    end = time.monotonic() + deadline
    while answer.status == AFT_PENDING or answer.transaction_id is None:
        # No information: the current transfer is not durable yet (its end after a restart).
        time.sleep(0.01)
        answer = repeat_poll(lambda: host.lp_72_interrogate(status_only=True), retry, end,
                                 f"LP 72 FE for {transaction_id}")
        if answer.transaction_id not in (None, transaction_id):
            raise AftError(f"72 FE for {transaction_id} answered for {answer.transaction_id}: {answer}")
        if time.monotonic() > end:
            raise AftError(f"{transaction_id} still {answer.status:02X} after {deadline} s")
    final = repeat_poll(host.lp_72_interrogate, retry, end, f"LP 72 FF for {transaction_id}")
    if (final.transaction_id, final.status) != (transaction_id, answer.status):
        raise AftError(f"72 FF for {transaction_id} (status {answer.status:02X}) answered {final}")
    if acknowledge:
        repeat_poll(host.sync, retry, end, "the poll acknowledging 72 FF")
    return final


# ---------------------------------------------------------------------------------------------
# Command-line simulator for the demo

SIMULATOR_TIMEOUT = 0.2  # a station answers within 20 ms; slack for a loaded machine
METER_PERIOD = 2.0
MAX_EVENTS_PER_CYCLE = 32  # one busy station must not starve the others


def describe(event: Event) -> str:
    """One line for an exception or real-time event."""
    name = EXCEPTION_NAMES.get(event.code, "exception")
    text = f"{event.code:02X} {name}"
    if event.rte:
        text += f" (RTE data {event.data.hex(' ') or '-'})"
    return text


class TicketDatabase:
    """The host's ticket (voucher) database, shared by all stations as a casino's is: tickets it
    validated at cash-out (system validation: LP 57/58) are redeemable once, at any station.
    `cage_cents` > 0 also accepts unknown tickets for that amount, as if the cage had sold them
    (the demo's players arrive with such tickets); 0 rejects them."""

    def __init__(self, cage_cents: int, seed: int):
        self.cage_cents = cage_cents
        self.next_number = seed % 10**12 * 1000  # 16-digit numbers, unique per simulator run
        self.tickets = {}  # 18-digit validation -> [amount, state: issued | pending | redeemed]

    def validate(self, system_id: int, amount: int) -> str:
        """A new 16-digit validation number for a cash-out of `amount` (the station prints it
        after the 2-digit system ID)."""
        self.next_number += 1
        number = f"{self.next_number:016d}"
        self.tickets[f"{system_id:02d}{number}"] = [amount, "issued"]
        return number

    def redeem(self, validation: str) -> Optional[int]:
        """The amount to pay for a ticket read with LP 70, marked pending; None to reject it."""
        ticket = self.tickets.get(validation)
        if ticket is None and self.cage_cents > 0:
            ticket = self.tickets[validation] = [self.cage_cents, "issued"]
        if ticket is None or ticket[1] != "issued":
            return None
        ticket[1] = "pending"
        return ticket[0]

    def settle(self, validation: str, credited: bool) -> None:
        """The station's final status (LP 71 FF after exception 68): redeemed, or valid again."""
        ticket = self.tickets.get(validation)
        if ticket is not None and ticket[1] == "pending":
            ticket[1] = "redeemed" if credited else "issued"


SIMULATOR_SYSTEM_ID = 1


class _Station:
    """One simulated link: a pty pair, its link name and the host polling it."""

    def __init__(self, number: int, link: str, tickets: TicketDatabase, rte: bool, quiet: bool, aft: bool = False):
        self.number, self.link, self.tickets, self.rte, self.quiet = number, link, tickets, rte, quiet
        self.aft = aft  # register the station, give it promotional credits (once), reconcile AFT meters
        self.aft_done = False
        self.legacy = False  # legacy bonusing offered (A0): its meters join the identity
        self.master, self.path, self.slave = open_pty_pair()
        self.host = SasHost(SasLine(self.master), number, timeout=SIMULATOR_TIMEOUT)
        self.synced = False
        self.state = None
        self.summary = None
        self.redeeming = None  # the validation number of the ticket in escrow (67 .. 68)

    def say(self, text: str) -> None:
        print(f"station {self.number}: {text}", flush=True)

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            print(f"station {self.number}: {state}", flush=True)

    def _guard(self, step: Callable[[], None]) -> None:
        """Runs a polling step; a failure is reported once and the link re-synchronised."""
        try:
            if not self.synced:
                # Drop polls nobody read (no daemon yet) and late answers, then resynchronise.
                termios.tcflush(self.slave, termios.TCIFLUSH)
                self.host.line.flush_input()
                self.host.sync()
                if self.rte:
                    self.host.lp_0e(True)
                self.synced = True
            step()
            self._set_state("online")
        except SasNoAnswer:
            self.synced = False
            self._set_state(f"no answer (is pitlinkd on {self.link}?)")
        except SasError as error:
            self.synced = False
            self._set_state(f"error: {error}")

    def poll_events(self) -> None:
        def step():
            for _ in range(MAX_EVENTS_PER_CYCLE):
                event = self.host.next_event()
                if not event.code:
                    return
                if not (self.quiet and event.code in (0x7E, 0x7F, 0x8C)):
                    self.say(describe(event))
                self.handle(event.code)
                time.sleep(0.04)  # SAS's fastest polling rate (ticketing, RTE)
        self._guard(step)

    def handle(self, code: int) -> None:
        """What a ticketing host does on the exceptions that need its answer."""
        if code == 0x57:  # system validation request: read the cash-out, give it a number
            kind, amount = self.host.lp_57()
            if kind == 0x80:
                return
            number = self.tickets.validate(SIMULATOR_SYSTEM_ID, amount)
            status = self.host.lp_58(SIMULATOR_SYSTEM_ID, number)
            self.say(f"validated cash-out of {amount} cents as {SIMULATOR_SYSTEM_ID:02d}{number} "
                     f"(LP 58 status {status:02X})")
        elif code == 0x67:  # ticket inserted: read it, then accept or reject it
            ticket = self.host.lp_70()
            if ticket["status"] != 0x00 or not isinstance(ticket["validation"], str):
                return
            validation = ticket["validation"]
            amount = self.tickets.redeem(validation)
            self.redeeming = validation
            if amount is None:
                self.host.lp_71(0x80, 0, validation=validation)
                self.say(f"rejected ticket {validation} (unknown or already redeemed)")
            else:
                self.host.lp_71(0x00, amount, validation=validation)
                self.say(f"accepted ticket {validation} for {amount} cents")
        elif code == 0x68 and self.redeeming is not None:  # ticket transfer complete
            status = self.host.lp_71(0xFF)["status"]
            self.tickets.settle(self.redeeming, credited=status == 0x00)
            self.say(f"ticket {self.redeeming}: redemption status {status:02X}")
            self.redeeming = None
        elif code == 0x6A and self.aft:  # AFT host cash-out: take what LP 74 says can move
            status = self.host.lp_74()
            self.host.sync()
            if status["cashable"] + status["nonrestricted"] + status["restricted"] > 0:
                done = self.aft_transfer(0x01, f"HCO-{time.time_ns() % 10**12}", 0x80, cashable=status["cashable"],
                                         restricted=status["restricted"], nonrestricted=status["nonrestricted"],
                                         asset=status["asset"], key=bytes((self.number,)) * 20)
                self.say(f"AFT host cash-out: took {done.cashable + done.restricted + done.nonrestricted} cents "
                         f"(LP 72 to the host {done.transaction_id}, status {done.status:02X})")
        elif code == 0x7C:  # legacy bonus awarded: read it (LP 90)
            win = self.host.lp_90()
            self.say(f"legacy bonus paid: {win['bonus']} credits, tax status {win['tax_status']:02X} (LP 90)")
        elif code == 0x51:  # hand-pay pending: the attendant pays it; the host reads what
            info = self.host.lp_1b()
            self.say(f"hand-pay of {info['amount']} cents pending (LP 1B)")

    def aft_transfer(self, code: int, ident: str, transfer_type: int, **amounts) -> "AftTransfer":
        """An LP 72 repeated until answered (the station answers once the transfer is journaled),
        interrogated until final, then acknowledged (72 FF, then another poll)."""
        answer = aft_request(self.host, code, ident, transfer_type, **amounts)
        return aft_settle(self.host, ident, answer)

    def aft_demo(self) -> None:
        """Once per station: register (LP 73) and, at station 2, an in-house transfer of
        promotional credits (10.00 restricted, pool 1, 30 days; 5.00 non-restricted), then LP 74."""
        def step():
            if self.aft_done:
                return
            status = self.host.lp_74()
            self.host.sync()
            key = bytes((self.number,)) * 20
            self.host.lp_73(0x00, status["asset"], key, 1)
            self.host.sync()
            registered = self.host.lp_73(0x01, status["asset"], key, 1)["status"]
            self.host.sync()
            self.say(f"AFT: registered (LP 73 status {registered:02X}), asset {status['asset']}")
            if self.number == 3:
                # Host cash-out (soft): the flags of a transfer in ask for the station's cash-outs;
                # a player's cash-out then raises 6A and this host takes it (handle()).
                done = self.aft_transfer(0x00, f"DEMO-HCO-{int(time.time())}", 0x00, cashable=2000, flags=0x03,
                                         asset=status["asset"], key=key)
                mode = self.host.lp_74()["host_cashout"]
                self.host.sync()
                self.say(f"AFT: in-house transfer {done.transaction_id} of {done.cashable} cents with host cash-out "
                         f"on (LP 74 host cash-out status {mode:02X}): the next cash-out is offered to the host")
            self.legacy = self.host.lp_a0()["legacy_bonus"]
            self.host.sync()
            if self.number == 4 and self.legacy:
                taken = self.host.lp_8a(750, 0x01)  # 7.50, non-deductible
                self.host.sync()
                self.say(f"legacy bonus: LP 8A of 750 credits, non-deductible: {'taken' if taken else 'busy'}")
            if self.number == 5:
                # A bonus jackpot (LP 72 type 11) of 1200.00, the demo's jackpot limit
                # (cashier.jackpot_limit): paid by an attendant, the station locked (51, LP 1B),
                # the credits as they were; this host then resets the hand-pay (LP 94).
                done = self.aft_transfer(0x00, f"DEMO-JP-{int(time.time())}", AFT_BONUS_JACKPOT, cashable=120000,
                                         asset=status["asset"], key=key)
                handpay = self.host.lp_1b()["amount"]
                self.host.sync()
                self.say(f"AFT: bonus jackpot {done.transaction_id} of {done.cashable} cents (type 11), status "
                         f"{done.status:02X}: at the jackpot limit, a hand-pay of {handpay} cents (LP 1B), "
                         f"not on the credit meter (0021)")
                reset = self.host.lp_94()
                self.host.sync()
                self.say(f"AFT: the bonus jackpot's hand-pay reset by the host (LP 94: {reset:02X})")
            if self.number == 2:
                done = self.aft_transfer(0x00, f"DEMO-{int(time.time())}", 0x00, restricted=1000, nonrestricted=500,
                                         asset=status["asset"], key=key, expiration=30, pool=1)
                after = self.host.lp_74()
                self.host.sync()
                self.say(f"AFT: in-house transfer {done.transaction_id} of {done.restricted} restricted and "
                         f"{done.nonrestricted} non-restricted cents: status {done.status:02X}; LP 74 balances "
                         f"{after['cashable']} cashable, {after['restricted']} restricted (pool {after['pool']}), "
                         f"{after['nonrestricted']} non-restricted: bets take restricted credits first")
            self.aft_done = True
        self._guard(step)

    def read_meters(self) -> None:
        def step():
            credits, meters = self.host.lp_1a_current_credits(), self.host.lp_19()
            # The credit meter identity a host reconciles (protocols/sas/README.md "Meters"):
            # 000C = 000D + 0001 + 00FA + AFT in - 0000 - 0004 - 00FD - AFT out - 0021 - 00FE, read in LP AF.
            m = self.host.lp_af(0, list(IDENTITY_METERS))
            if self.aft:
                self.host.sync()  # another AF at once would be an implied NACK: the same answer again
                m.update(self.host.lp_af(0, list(AFT_IN_METERS + AFT_BONUS_METERS + AFT_OUT_METERS)
                                         + [ATTENDANT_PAID_BONUS, RESTRICTED_KEYED_OFF]))
            if self.legacy:
                # Legacy bonuses (LP 9A, credits) are the identity's last term ("Meters").
                self.host.sync()
                bonus = self.host.lp_9a(0)
                m[0x9A] = bonus["deductible"] + bonus["non_deductible"] + bonus["wager_match"]
            balance = identity_credits(m) + m.get(0x9A, 0)
            verdict = "reconciles" if balance == m[0x000C] else f"DOES NOT RECONCILE ({balance} != {m[0x000C]})"
            summary = (f"station {self.number}: credits {credits}, coin in {meters['coin_in']}, "
                       f"coin out {meters['coin_out']}, drop {meters['drop']}, "
                       f"jackpot {meters['jackpot']}, games {meters['games_played']}, "
                       f"keyed on/off {m[0x00FA]}/{m[0x00FD]}: {verdict}")
            if summary != self.summary:
                self.summary = summary
                print(summary, flush=True)
        self._guard(step)

    def close(self) -> None:
        if os.path.islink(self.link) and os.readlink(self.link) == self.path:
            os.unlink(self.link)
        os.close(self.master)
        os.close(self.slave)


def _link(target: str, link: str) -> None:
    """Points the symlink `link` at `target`, replacing an old symlink, never another file."""
    if os.path.lexists(link) and not os.path.islink(link):
        raise SystemExit(f"{link} exists and is not a symlink")
    temporary = f"{link}.{os.getpid()}.tmp"
    os.symlink(target, temporary)
    os.replace(temporary, link)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Simulated SAS host: one pty per station; general polls, meter reads, "
                    "system validation of cash-outs (LP 57/58) and ticket redemption (LP 70/71).")
    parser.add_argument("--link", required=True, metavar="PATH_PREFIX",
                        help="station N's pty is linked as PATH_PREFIX-N")
    parser.add_argument("--stations", type=int, default=1, help="number of stations (addresses 1..N)")
    parser.add_argument("--period", type=float, default=0.2, help="seconds between general polls")
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    parser.add_argument("--cage-ticket-cents", type=int, default=0, metavar="CENTS",
                        help="accept tickets the host did not validate for this amount (0: reject)")
    parser.add_argument("--rte", action="store_true", help="enable real-time event reporting (LP 0E)")
    parser.add_argument("--quiet-games", action="store_true",
                        help="do not print game start/end events (7E/7F/8C)")
    parser.add_argument("--aft", action="store_true",
                        help="AFT: register each station, give station 2 promotional credits, reconcile AFT meters")
    args = parser.parse_args(argv)
    if not 1 <= args.stations <= 127:
        parser.error("--stations must be 1-127 (SAS addresses)")

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    signal.signal(signal.SIGINT, lambda *_: stop.append(True))
    stations = []
    tickets = TicketDatabase(args.cage_ticket_cents, int(time.time()))
    try:
        for number in range(1, args.stations + 1):
            station = _Station(number, f"{args.link}-{number}", tickets, args.rte, args.quiet_games, args.aft)
            stations.append(station)
            _link(station.path, station.link)
            print(f"station {number}: {station.link} -> {station.path}", flush=True)
        end = None if args.duration is None else time.monotonic() + args.duration
        next_meters = time.monotonic()
        while not stop and (end is None or time.monotonic() < end):
            cycle = time.monotonic()
            for station in stations:
                station.poll_events()
                if station.aft and station.synced:
                    station.aft_demo()
            if time.monotonic() >= next_meters:
                next_meters = time.monotonic() + METER_PERIOD
                for station in stations:
                    station.read_meters()
            # Sleep in slices so a signal stops the loop promptly.
            while not stop and time.monotonic() < cycle + args.period:
                time.sleep(min(0.05, max(0.0, cycle + args.period - time.monotonic())))
    finally:
        for station in stations:
            station.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
