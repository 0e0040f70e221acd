#!/usr/bin/env python3
"""Self-test of sas_host.py, the SAS host that drives pitlinkd in the integration tests and the
demo. It is the test oracle, so it is checked here against the reference data of
tests/fixtures/sas/ (captured traffic, frames from public code, the secure enhanced validation
example) and over real pty pairs, with a scripted station on the slave side.

Usage: test_sas_host_lib.py SOURCE_DIR (ctest passes it).
"""
import csv
import datetime
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

SOURCE = os.path.abspath(sys.argv[1])
FIXTURES = os.path.join(SOURCE, "tests", "fixtures", "sas")
SAS_HOST = os.path.join(SOURCE, "tests", "integration", "sas_host.py")
if not os.path.isfile(os.path.join(FIXTURES, "capture_ncompass_aristocrat_addr1.csv")):
    sys.exit(f"no SAS fixtures under {FIXTURES} (the repository must carry them)")
sys.path.insert(0, os.path.dirname(SAS_HOST))
from sas_host import (Event, ParmrkDecoder, SasError, SasHost, SasLine, SasNoAnswer,  # noqa: E402
                      crc16_kermit, crc_ok, escape, from_bcd, lp_2f_meter_size, open_pty_pair,
                      TicketDatabase, secure_enhanced_validation, to_bcd, with_crc)


def fixture_rows(name):
    with open(os.path.join(FIXTURES, name), newline="") as f:
        return list(csv.DictReader(f))


CAPTURE = {int(row["seq"]): row for row in fixture_rows("capture_ncompass_aristocrat_addr1.csv")}
MISC = fixture_rows("frames_misc.csv")


def captured(seq):
    return bytes.fromhex(CAPTURE[seq]["frame_hex"])


def misc_frame(lp):
    return next(bytes.fromhex(r["frame_hex"]) for r in MISC if r["lp"] == lp)


def read_exact(fd, count, timeout=2.0):
    """Up to `count` bytes from fd, fewer if `timeout` passes first."""
    data, end = b"", time.monotonic() + timeout
    while len(data) < count:
        readable, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not readable:
            break
        data += os.read(fd, count - len(data))
    return data


class ScriptedStation(threading.Thread):
    """The station side of a pty pair: for each (poll, answer) of the script it reads the escaped
    poll (recorded in .received) and writes the escaped answer, or nothing when answer is None."""

    def __init__(self, slave_fd, script):
        super().__init__(daemon=True)
        self.fd, self.script, self.received = slave_fd, script, []

    def run(self):
        for poll, answer in self.script:
            self.received.append(read_exact(self.fd, len(escape(poll, wakeup_first=True))))
            if answer is not None:
                os.write(self.fd, escape(answer))


class PtyCase(unittest.TestCase):
    def pty(self):
        master, path, slave = open_pty_pair()
        self.addCleanup(os.close, master)
        self.addCleanup(os.close, slave)
        return master, path, slave

    def exchange(self, script, call, address=1):
        """Runs call(host) against a scripted station and checks the polls byte for byte."""
        master, _, slave = self.pty()
        station = ScriptedStation(slave, script)
        station.start()
        try:
            return call(SasHost(SasLine(master), address))
        finally:
            station.join(3)
            self.assertEqual(station.received, [escape(p, wakeup_first=True) for p, _ in script])


class CrcBcdValidationTest(unittest.TestCase):
    def test_crc_check_value(self):
        row = next(r for r in MISC if r["lp"] == "crc")
        data, expected = row["frame_hex"].split("->")
        self.assertEqual(crc16_kermit(bytes.fromhex(data)), int(expected, 16))
        self.assertEqual(with_crc(bytes.fromhex(data))[-2:], int(expected, 16).to_bytes(2, "little"))

    def test_every_captured_frame_with_a_crc(self):
        # Frames of 4 bytes or more carry a CRC; shorter ones are general polls, ACKs (1 byte)
        # and type R polls (address and command).
        with_crcs = 0
        for seq, row in CAPTURE.items():
            frame = captured(seq)
            if len(frame) >= 4:
                with_crcs += 1
                self.assertTrue(crc_ok(frame), f"row {seq}")
                self.assertEqual(with_crc(frame[:-2]), frame)
                self.assertFalse(crc_ok(frame[:-1] + bytes((frame[-1] ^ 1,))))
            else:
                self.assertTrue(len(frame) == 1 or row["direction"] == "host_to_egm", f"row {seq}")
        self.assertGreater(with_crcs, 30)

    def test_misc_frames(self):
        frames = [bytes.fromhex(r["frame_hex"]) for r in MISC if r["direction"] == "host_to_egm"]
        self.assertEqual(len(frames), 2)
        for frame in frames:
            self.assertTrue(crc_ok(frame), frame.hex(" "))

    def test_bcd(self):
        self.assertEqual(to_bcd(16660, 4), captured(41)[2:6])
        self.assertEqual(from_bcd(captured(41)[2:6]), 16660)
        for value, size in ((0, 1), (9, 1), (99, 1), (1234, 2), (99999999, 4), (12345678901, 6)):
            self.assertEqual(from_bcd(to_bcd(value, size)), value)
            self.assertEqual(len(to_bcd(value, size)), size)
        self.assertRaises(ValueError, to_bcd, 100, 1)
        self.assertRaises(ValueError, to_bcd, -1, 2)
        self.assertRaises(SasError, from_bcd, b"\x1a")

    def test_secure_enhanced_validation_vectors(self):
        rows = fixture_rows("secure_enhanced_validation.csv")
        self.assertTrue(rows)
        for row in rows:
            number = secure_enhanced_validation(int(row["machine_validation_id_hex"], 16),
                                                int(row["sequence_number_hex"], 16))
            self.assertEqual(number, row["validation_number_18_digits"])

    def test_cents_meters_are_five_bytes_in_lp_2f(self):
        codes = {int(r["meter_code_hex"], 16): r["name"] for r in fixture_rows("meter_codes.csv")}
        for code, name in codes.items():
            if code <= 0xFF and name.endswith("Cents"):
                self.assertEqual(lp_2f_meter_size(code), 5, name)
        for code in (0x00, 0x01, 0x05, 0x0C, 0x11, 0x24, 0x81):
            self.assertEqual(lp_2f_meter_size(code), 4, codes[code])


class EscapingTest(PtyCase):
    def test_escape(self):
        self.assertEqual(escape(b"\x81", wakeup_first=True), b"\xff\x00\x81")
        self.assertEqual(escape(b"\x01\xff\x02"), b"\x01\xff\xff\x02")
        self.assertEqual(escape(b"\xff\xff", wakeup_first=True), b"\xff\x00\xff\xff\xff")

    def test_decoder_across_every_split(self):
        frame = with_crc(b"\x01\x70\x01\xff")
        stream = b"\xff\x00\x01" + escape(frame)
        expected = [(1, True)] + [(b, False) for b in frame]
        for cut in range(len(stream) + 1):
            decoder = ParmrkDecoder()
            self.assertEqual(decoder.feed(stream[:cut]) + decoder.feed(stream[cut:]), expected)

    def test_decoder_rejects_a_bad_escape(self):
        self.assertRaises(SasError, ParmrkDecoder().feed, b"\x01\xff\x01")

    def test_poll_on_the_wire(self):
        master, _, slave = self.pty()
        SasLine(master).write_poll(misc_frame("71"))
        self.assertEqual(read_exact(slave, 9), bytes.fromhex("FF 00 01 71 01 FF FF 1F D0"))
        self.assertEqual(read_exact(slave, 1, timeout=0.05), b"")

    def test_answer_and_chirp_from_the_wire(self):
        master, _, slave = self.pty()
        line = SasLine(master)
        line.write_poll(b"\x01\x70")
        read_exact(slave, 4)
        frame = with_crc(b"\x01\x70\x01\xff")  # LP 70, no ticket in escrow: status FF
        os.write(slave, b"\xff\x00\x01" + escape(frame))
        answer = line.read_answer()
        self.assertEqual(answer.data, frame)
        self.assertEqual(answer.wakeups, [1])
        self.assertGreaterEqual(answer.latency, 0.0)
        self.assertLess(answer.latency, 0.5)

    def test_expect_leaves_the_rest_for_the_next_read(self):
        master, _, slave = self.pty()
        line = SasLine(master)
        os.write(slave, escape(captured(41) + captured(47)))
        self.assertEqual(line.read_answer(expect=len(captured(41))).data, captured(41))
        self.assertEqual(line.read_answer().data, captured(47))

    def test_timeout_with_nothing(self):
        master, _, _ = self.pty()
        start = time.monotonic()
        answer = SasLine(master).read_answer(timeout=0.1)
        self.assertEqual((answer.data, answer.wakeups, answer.latency), (b"", [], None))
        self.assertGreaterEqual(time.monotonic() - start, 0.1)

    def test_drain_collects_chirps(self):
        master, _, slave = self.pty()
        line = SasLine(master)

        def chirp():
            for _ in range(3):
                os.write(slave, b"\xff\x00\x05")
                time.sleep(0.05)
        writer = threading.Thread(target=chirp)
        writer.start()
        self.assertEqual(line.drain(0.4), [5, 5, 5])
        writer.join()
        self.assertEqual(len(line.last_drain_times), 3)
        self.assertEqual(line.drained_data, b"")


class HostAgainstCaptureTest(PtyCase):
    """Polls built byte for byte as the captured host sent them; the captured answers parsed."""

    def test_lp_19(self):
        meters = self.exchange([(captured(10), captured(11))], SasHost.lp_19)
        self.assertEqual(meters, {"coin_in": 452040, "coin_out": 861480, "drop": 413078,
                                  "jackpot": 634494, "games_played": 2062})

    def test_lp_1a(self):
        self.assertEqual(self.exchange([(captured(40), captured(41))], SasHost.lp_1a_current_credits), 16660)

    def test_lp_54(self):
        self.assertEqual(self.exchange([(captured(12), captured(13))], SasHost.lp_54), ("602", "000001"))

    def test_lp_af(self):
        meters = self.exchange([(captured(14), captured(15))], lambda h: h.lp_af(0, [0x000C]))
        self.assertEqual(meters, {0x000C: 16660})

    def test_lp_1f(self):
        info = self.exchange([(captured(20), captured(21))], SasHost.lp_1f)
        self.assertEqual(info, {"game_id": "AT", "additional_id": "000", "denomination": 1,
                                "max_bet": 0xFF, "progressive_group": 0, "game_options": 0,
                                "paytable_id": "63928 ", "base_percent": "9068"})

    def test_lp_a0(self):
        features = self.exchange([(captured(16), captured(17))], SasHost.lp_a0)
        # D7 CD 05 from the Aristocrat EGM: secure enhanced validation with ticket redemption,
        # AFT, extended meters, meter model 01.
        self.assertEqual((features["validation_style"], features["ticket_redemption"], features["aft"],
                          features["extended_meters"], features["meter_model"], features["tournament"],
                          features["max_polling_rate"]), ("enhanced", True, True, True, 1, False, True))

    def test_acked_control_polls(self):
        self.exchange([(captured(22), captured(23))], SasHost.enable_play)
        self.exchange([(captured(24), captured(25))], lambda h: h.lp_0e(False))
        when = datetime.datetime(2025, 11, 27, 19, 21, 16)
        self.exchange([(captured(26), captured(27))], lambda h: h.lp_7f(when))
        self.exchange([(misc_frame("01"), b"\x01")], SasHost.disable_play)

    def test_lp_7b_unanswered(self):
        body = captured(0)[3:-2]
        with self.assertRaises(SasNoAnswer):
            self.exchange([(captured(0), None)], lambda h: h.lp_7b(body, deadline=0))

    def test_lp_71_status_request(self):
        answer = with_crc(bytes.fromhex("01 71 01 00"))
        self.assertEqual(self.exchange([(misc_frame("71"), answer)], lambda h: h.lp_71(0xFF)),
                         {"status": 0})


class HostChecksTest(PtyCase):
    """The other layouts (see sas_host.py for their sources) and the answer checks."""

    def test_general_poll_kinds(self):
        rte = with_crc(bytes.fromhex("01 FF 7F 00 00 01 00"))
        script = [(b"\x82", None), (b"\x81", b"\x00"), (b"\x81", b"\x11"), (b"\x81", rte)]

        def run(host):
            host.sync()
            return [host.general_poll() for _ in range(3)]
        self.assertEqual(self.exchange(script, run),
                         [Event(0), Event(0x11), Event(0x7F, bytes.fromhex("00 00 01 00"), True)])

    def test_exception_equal_to_the_address(self):
        self.assertEqual(self.exchange([(b"\x91", b"\x11")], SasHost.general_poll, address=0x11),
                         Event(0x11))

    def test_malformed_answers(self):
        good = captured(41)
        cases = {
            "bad CRC": good[:-1] + bytes((good[-1] ^ 1,)),
            "LP 1A answer": with_crc(b"\x01\x1b\x00\x01\x66\x60"),
            "address": with_crc(b"\x02\x1a\x00\x01\x66\x60"),
            "busy": b"\x01\x00",
            "NACK": b"\x81",
            "bytes, expected 8": with_crc(b"\x01\x1a\x01\x66\x60"),
            "not BCD": with_crc(b"\x01\x1a\x00\x01\x66\x6a"),
        }
        for reason, answer in cases.items():
            with self.subTest(reason), self.assertRaisesRegex(SasError, reason):
                self.exchange([(captured(40), answer)], SasHost.lp_1a_current_credits)
        with self.assertRaises(SasNoAnswer):
            self.exchange([(captured(40), None)], SasHost.lp_1a_current_credits)
        with self.assertRaisesRegex(SasError, "length byte"):
            self.exchange([(captured(12), with_crc(b"\x01\x54\x05602000001"))], SasHost.lp_54)

    def test_stray_bytes_before_a_poll(self):
        master, _, slave = self.pty()
        os.write(slave, b"\x00")
        time.sleep(0.05)
        with self.assertRaisesRegex(SasError, "stray"):
            SasHost(SasLine(master), 1).general_poll()

    def test_bad_crc_option(self):
        poll = with_crc(b"\x01\x0e\x01")
        corrupt = poll[:-2] + bytes((poll[-2] ^ 0xFF, poll[-1]))
        host = SasHost(SasLine(self.pty()[0]), 1)
        self.assertEqual(host.build(0x0E, b"\x01"), poll)
        self.assertEqual(host.build(0x0E, b"\x01", bad_crc=True), corrupt)
        self.assertEqual(host.build(0x1A), b"\x01\x1a")

    def test_selected_meters(self):
        poll = with_crc(bytes.fromhex("01 2F 04 00 00 0C 0D"))
        answer = with_crc(bytes.fromhex("01 2F 0D 00 00 0C 00 01 66 60 0D 00 00 01 23 45"))
        self.assertEqual(self.exchange([(poll, answer)], lambda h: h.lp_2f(0, [0x0C, 0x0D])),
                         {0x0C: 16660, 0x0D: 12345})
        poll = with_crc(bytes.fromhex("01 6F 06 00 01 00 00 05 00"))
        answer = with_crc(bytes.fromhex("01 6F 0C 00 01 00 00 04 00 00 12 34 05 00 00"))
        self.assertEqual(self.exchange([(poll, answer)], lambda h: h.lp_6f(1, [0x0000, 0x0005])),
                         {0x0000: 1234, 0x0005: None})
        with self.assertRaisesRegex(SasError, "game"):
            self.exchange([(poll, with_crc(bytes.fromhex("01 6F 02 00 02")))],
                          lambda h: h.lp_6f(1, [0x0000, 0x0005]))

    def test_system_validation(self):
        self.assertEqual(
            self.exchange([(b"\x01\x57", with_crc(bytes.fromhex("01 57 00 00 00 01 23 45")))],
                          SasHost.lp_57), (0, 12345))
        poll = with_crc(bytes.fromhex("01 58 01 00 00 00 00 12 34 56 78"))
        self.assertEqual(self.exchange([(poll, with_crc(b"\x01\x58\x00"))],
                                       lambda h: h.lp_58(1, 12345678)), 0)

    def test_secure_enhanced_validation_polls(self):
        poll = with_crc(bytes.fromhex("01 4C 21 43 65 01 00 00"))
        self.assertEqual(self.exchange([(poll, poll)], lambda h: h.lp_4c(0x654321, 1)), (0x654321, 1))
        record = with_crc(bytes.fromhex(
            "01 4D 00 01 11 27 20 25 19 21 16 64 29 18 81 85 44 61 04 00 00 01 23 45"
            " 05 00 00 00 00 00 30 00 00"))
        info = self.exchange([(with_crc(b"\x01\x4d\x00"), record)], lambda h: h.lp_4d(0))
        self.assertEqual(info, {"type": 0, "index": 1,
                                "datetime": datetime.datetime(2025, 11, 27, 19, 21, 16),
                                "validation": "6429188185446104", "amount": 12345,
                                "ticket_number": 5, "system_id": 0, "expiration": 30, "pool_id": 0})

    def test_ticket_in(self):
        digits = "006429188185446104"
        answer = with_crc(bytes.fromhex("01 70 10 00 00 00 01 23 45 00") + bytes.fromhex(digits))
        self.assertEqual(self.exchange([(b"\x01\x70", answer)], SasHost.lp_70),
                         {"status": 0, "amount": 12345, "parsing_code": 0, "validation": digits})
        self.assertEqual(self.exchange([(b"\x01\x70", with_crc(b"\x01\x70\x01\xff"))], SasHost.lp_70),
                         {"status": 0xFF})
        poll = with_crc(bytes.fromhex("01 71 10 00 00 00 01 23 45 00") + bytes.fromhex(digits))
        answer = with_crc(bytes.fromhex("01 71 10 40 00 00 01 23 45 00") + bytes.fromhex(digits))
        self.assertEqual(self.exchange([(poll, answer)], lambda h: h.lp_71(0x00, 12345, validation=digits)),
                         {"status": 0x40, "amount": 12345, "parsing_code": 0, "validation": digits})

    def test_hand_pay_clock_bill_and_signature(self):
        hand_pay = with_crc(bytes.fromhex("01 1B 00 40 00 00 12 00 00 00 00 00") + bytes(10))
        self.assertEqual(self.exchange([(b"\x01\x1b", hand_pay)], SasHost.lp_1b),
                         {"progressive_group": 0, "level": 0x40, "amount": 120000, "partial_pay": 0,
                          "reset_id": 0, "reserved": bytes(10)})
        self.assertEqual(self.exchange([(with_crc(b"\x01\x94"), with_crc(b"\x01\x94\x02"))],
                                       SasHost.lp_94), 2)
        clock = with_crc(bytes.fromhex("01 7E 11 27 20 25 19 21 16"))
        self.assertEqual(self.exchange([(b"\x01\x7e", clock)], SasHost.lp_7e),
                         datetime.datetime(2025, 11, 27, 19, 21, 16))
        bill = with_crc(bytes.fromhex("01 48 37 04 00 00 00 12"))
        self.assertEqual(self.exchange([(b"\x01\x48", bill)], SasHost.lp_48),
                         {"country": 37, "denomination": 4, "count": 12})
        rom = with_crc(bytes.fromhex("01 21 34 12"))
        self.assertEqual(self.exchange([(rom, with_crc(bytes.fromhex("01 21 CD AB")))],
                                       lambda h: h.lp_21(0x1234)), 0xABCD)

    def test_rom_signature_on_a_later_general_poll(self):
        script = [(with_crc(bytes.fromhex("01 21 34 12")), b"\x01"), (b"\x81", b"\x00"),
                  (b"\x81", b"\x7e"), (b"\x81", with_crc(bytes.fromhex("01 21 CD AB")))]
        events = []

        def run(host):
            signature = host.lp_21(0x1234)
            events.extend(host.events)
            return signature
        self.assertEqual(self.exchange(script, run), 0xABCD)
        self.assertEqual(events, [Event(0x7E)])


class SimulatorTest(unittest.TestCase):
    """The command-line simulator the demo runs: links, polling, summaries, clean exit."""

    def start(self, *args):
        directory = tempfile.mkdtemp(prefix="sas-host-test-")
        self.addCleanup(shutil.rmtree, directory)
        prefix = os.path.join(directory, "station")
        process = subprocess.Popen([sys.executable, SAS_HOST, "--link", prefix, *args],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []  # every line printed so far (list.append is atomic)
        reader = threading.Thread(
            target=lambda: [self.lines.append(line.rstrip("\n")) for line in process.stdout])
        reader.start()
        # Cleanups run last first: kill if still running, reap, let the reader see EOF, close.
        self.addCleanup(process.stderr.close)
        self.addCleanup(process.stdout.close)
        self.addCleanup(reader.join, 5)
        self.addCleanup(process.wait, 5)
        self.addCleanup(lambda: process.poll() is None and process.kill())
        return process, prefix

    def wait_for(self, text, timeout=10.0):
        """Waits until some line printed (in any order) contains `text`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(text in line for line in list(self.lines)):
                return
            time.sleep(0.02)
        self.fail(f"no line with {text!r}; got {self.lines}")

    def test_polls_a_station_and_stops_on_sigterm(self):
        process, prefix = self.start("--stations", "2", "--period", "0.1")
        self.wait_for(f"station 2: {prefix}-2 -> /dev/pts/")
        stop = threading.Event()
        fd = os.open(f"{prefix}-1", os.O_RDWR | os.O_NOCTTY)
        station = threading.Thread(target=self.fake_station, args=(fd, stop), daemon=True)
        station.start()
        try:
            self.wait_for("station 1: credits 100, coin in 452040, coin out 861480")
            self.wait_for("keyed on/off 0/0: reconciles")
            self.wait_for("station 1: 7E game started")
            self.wait_for(f"station 2: no answer (is pitlinkd on {prefix}-2?)")
        finally:
            stop.set()
            station.join()
            os.close(fd)
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(5), 0, process.stderr.read())
        self.assertFalse(os.path.lexists(f"{prefix}-1") or os.path.lexists(f"{prefix}-2"))

    @staticmethod
    def fake_station(fd, stop):
        """Address 1: answers LPs 1A, 19 and AF, and general polls with 00, except once with 7E after
        the first LP 19 (by then the host is surely in step: polls queued before this station
        opened the pty get late answers, which the host rejects). Its AF meters reconcile with the
        captured LP 19: 100 credits = 0 ticket in + 861480 coin out - 452040 coin in - 409340
        cancelled credits."""
        extended = bytes.fromhex("00 00" "0C 00 04 00000100" "00 00 04 00452040" "01 00 04 00861480"
                                 "04 00 04 00409340" "0D 00 05 0000000000" "FA 00 04 00000000" "FD 00 04 00000000")
        answers = {0x1A: with_crc(bytes.fromhex("01 1A 00 00 01 00")), 0x19: captured(11),
                   0xAF: with_crc(bytes([0x01, 0xAF, len(extended)]) + extended)}
        events, event_due = [], True
        decoder, address = ParmrkDecoder(), None
        while not stop.is_set():
            if not select.select([fd], [], [], 0.05)[0]:
                continue
            for byte, wakeup in decoder.feed(os.read(fd, 256)):
                if wakeup:
                    address = byte
                    if byte == 0x81:
                        os.write(fd, events.pop() if events else b"\x00")
                elif address == 0x01 and byte in answers:
                    os.write(fd, escape(answers[byte]))
                    if byte == 0x19 and event_due:
                        events, event_due = [b"\x7e"], False

    def test_duration(self):
        process, prefix = self.start("--duration", "0.5")
        self.wait_for(f"station 1: {prefix}-1 -> /dev/pts/")
        self.assertEqual(process.wait(5), 0, process.stderr.read())
        self.assertFalse(os.path.lexists(f"{prefix}-1"))


class TicketDatabaseTest(unittest.TestCase):
    """The simulator host's tickets: each redeemable once, anywhere; a ticket the station could not
    credit is valid again; unknown tickets only when the cage sells them."""

    def test_validated_ticket_is_redeemed_once(self):
        db = TicketDatabase(cage_cents=0, seed=7)
        number = db.validate(1, 4_250)
        self.assertEqual(len(number), 16)
        self.assertNotEqual(db.validate(1, 100), number)  # every cash-out its own number
        self.assertEqual(db.redeem("01" + number), 4_250)
        self.assertIsNone(db.redeem("01" + number))  # pending: not twice at once
        db.settle("01" + number, credited=True)
        self.assertIsNone(db.redeem("01" + number))  # redeemed

    def test_ticket_not_credited_is_valid_again(self):
        db = TicketDatabase(cage_cents=0, seed=7)
        validation = "01" + db.validate(1, 900)
        self.assertEqual(db.redeem(validation), 900)
        db.settle(validation, credited=False)
        self.assertEqual(db.redeem(validation), 900)

    def test_unknown_tickets(self):
        self.assertIsNone(TicketDatabase(cage_cents=0, seed=1).redeem("000000000000000077"))
        cage = TicketDatabase(cage_cents=50_000, seed=1)
        self.assertEqual(cage.redeem("000000000000000077"), 50_000)
        cage.settle("000000000000000077", credited=True)
        self.assertIsNone(cage.redeem("000000000000000077"))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:])
