#!/usr/bin/env python3
"""A lossy SAS line between the test host (sas_host.py) and pitlinkd's pty, for the integration
tests: it forwards the bytes both ways and, while lossy, drops bytes, corrupts them, flips their
wakeup (parity) marking, garbles the PARMRK escapes themselves, and now and then drops or garbles
a whole frame. Each kind of fault strikes after a random number of bytes (or frames) since its
last, bounded (FaultRates), drawn from a seeded random stream per direction: the same seed and
the same traffic give the same faults. Python 3 standard library only; written apart from the
daemon's code, like sas_host.py.

The wire is the pty convention of sas_host.py: a byte with the wakeup bit is `FF 00 b`, a data
FF is `FF FF`. The proxy decodes each direction's stream to (byte, wakeup) pairs, applies the
faults a noisy serial line makes (a lost byte, a flipped bit, a parity error that marks or
unmarks a byte), encodes them again, and then corrupts raw bytes of the escaped stream now and
then (which can leave `FF x` escapes no tty writes: the receiver must survive them too).

A "frame" is what one read brings: a poll the host wrote at once, or a station's answer.

    proxy = LossyProxy(station_master_fd, seed)   # the pty master whose slave pitlinkd opens
    host = SasHost(SasLine(proxy.host_fd), 1)     # the host's end of the line
    proxy.lossy = True; ...; proxy.lossy = False  # clean again
    proxy.swallow_next_answer()                   # drop the station's next answer whole (.swallowed)
    proxy.counts[TO_STATION]["dropped"], ...      # what the faults did, by direction
    proxy.close()
"""
import collections
import os
import random
import select
import socket
import threading

TO_STATION, TO_HOST = "to_station", "to_host"


class FaultRates:
    """How often each fault strikes: after 1 to N units (uniformly; N/2 on average, so never more
    than N without one), counted per decoded byte (drop it, corrupt its value, flip its wakeup
    mark), per escaped byte (raw: replace it, escapes included) or per frame (drop it whole,
    garble it whole)."""

    def __init__(self, drop=1600, corrupt=1600, mark=1600, raw=5000, frame_drop=70, frame_garble=200):
        self.every = {"dropped": drop, "corrupted": corrupt, "marks_flipped": mark, "raw_corrupted": raw,
                      "frames_dropped": frame_drop, "frames_garbled": frame_garble}


class _Countdowns:
    """One direction's countdowns to its next fault of each kind, from its own random stream."""

    def __init__(self, rng: random.Random, rates: FaultRates):
        self.rng, self.every = rng, rates.every
        self.left = {kind: rng.randint(1, n) for kind, n in self.every.items()}

    def strikes(self, kind: str) -> bool:
        """One more unit for `kind`: whether its fault strikes it."""
        self.left[kind] -= 1
        if self.left[kind] > 0:
            return False
        self.left[kind] = self.rng.randint(1, self.every[kind])
        return True


def decode(state: int, chunk: bytes):
    """(pairs, state) for the escaped `chunk`, the decoder's state carried between chunks (0 plain,
    1 after FF, 2 after FF 00). `FF x` (x not 00 or FF), which no tty writes, gives x as data."""
    pairs = []
    for byte in chunk:
        if state == 0:
            if byte == 0xFF:
                state = 1
            else:
                pairs.append((byte, False))
        elif state == 1:
            if byte == 0x00:
                state = 2
            else:
                pairs.append((byte, False))
                state = 0
        else:
            pairs.append((byte, True))
            state = 0
    return pairs, state


def encode(pairs) -> bytearray:
    """The escaped stream of (byte, wakeup) pairs."""
    out = bytearray()
    for byte, wakeup in pairs:
        if wakeup:
            out += bytes((0xFF, 0x00, byte))
        elif byte == 0xFF:
            out += b"\xff\xff"
        else:
            out.append(byte)
    return out


class LossyProxy:
    """The line between the host's end (host_fd, a socket) and the station's pty master."""

    def __init__(self, station_fd: int, seed: int, rates: FaultRates = None):
        self.station_fd = station_fd
        self._host_end, self._proxy_end = socket.socketpair()
        for end in (self._host_end, self._proxy_end):
            end.setblocking(False)
        self.host_fd = self._host_end.fileno()
        self.lossy = False
        self.counts = {d: collections.Counter() for d in (TO_STATION, TO_HOST)}
        self._faults_of = {d: _Countdowns(random.Random(f"{seed}/{d}"), rates or FaultRates())
                           for d in (TO_STATION, TO_HOST)}
        self._state = {TO_STATION: 0, TO_HOST: 0}
        # 1: armed until the host writes; 2: the station's next bytes are dropped; 3: dropping
        # them until the host writes again.
        self._swallow = 0
        self.swallowed = []  # the data bytes of each answer swallowed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lossy-proxy", daemon=True)
        self._thread.start()

    def swallow_next_answer(self) -> None:
        """From the host's next write on, drops the first answer the station sends, whole (until the
        host writes again after it; counted once as `swallowed`, its data bytes kept in .swallowed):
        the host's poll after it repeats one whose answer was lost."""
        self._swallow = 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._host_end.close()
        self._proxy_end.close()

    def _run(self) -> None:
        proxy_fd = self._proxy_end.fileno()
        while not self._stop.is_set():
            readable, _, _ = select.select([self.station_fd, proxy_fd], [], [], 0.05)
            for fd in readable:
                try:
                    chunk = os.read(fd, 4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:  # the pty's other side is closing: nothing to forward
                    continue
                if not chunk:
                    continue
                if fd == proxy_fd:
                    self._forward(TO_STATION, chunk, self.station_fd)
                else:
                    self._forward(TO_HOST, chunk, proxy_fd)

    def _forward(self, direction: str, chunk: bytes, to_fd: int) -> None:
        counts = self.counts[direction]
        counts["frames"] += 1
        counts["bytes"] += len(chunk)
        pairs, self._state[direction] = decode(self._state[direction], chunk)
        if direction == TO_STATION:
            if self._swallow == 1:
                self._swallow = 2
            elif self._swallow == 3:
                self._swallow = 0  # the host wrote again: swallowing ends
        elif self._swallow >= 2:
            if self._swallow == 2:
                counts["swallowed"] += 1
                self.swallowed.append(b"")
            self.swallowed[-1] += bytes(b for b, wakeup in pairs if not wakeup)
            self._swallow = 3
            return
        out = self._faults(direction, pairs) if self.lossy else encode(pairs)
        try:
            written = os.write(to_fd, out) if out else 0
        except OSError:  # BlockingIOError included
            written = 0
        # pitlinkd is down and its port's input queue is full: the rest is lost, as on a wire.
        counts["undelivered"] += len(out) - written

    def _faults(self, direction: str, pairs) -> bytearray:
        faults, counts = self._faults_of[direction], self.counts[direction]
        rng = faults.rng
        if faults.strikes("frames_dropped"):
            counts["frames_dropped"] += 1
            return bytearray()
        if faults.strikes("frames_garbled"):
            counts["frames_garbled"] += 1
            pairs = [(rng.randrange(256), rng.random() < 0.1) for _ in pairs]
        else:
            mangled = []
            for byte, wakeup in pairs:
                if faults.strikes("dropped"):
                    counts["dropped"] += 1
                    continue
                if faults.strikes("corrupted"):
                    counts["corrupted"] += 1
                    byte ^= rng.randrange(1, 256)
                if faults.strikes("marks_flipped"):
                    counts["marks_flipped"] += 1
                    wakeup = not wakeup
                mangled.append((byte, wakeup))
            pairs = mangled
        out = encode(pairs)
        for i in range(len(out)):
            if faults.strikes("raw_corrupted"):
                counts["raw_corrupted"] += 1
                out[i] ^= rng.randrange(1, 256)
        return out
