#!/usr/bin/env python3
"""Cashless transfers (SAS AFT, issue 36) over a bad line, with crashes: the independent host
(sas_host.py: its own layouts, its books sas_host.AftBooks) moves money between its wallet and the
real pitlinkd through a lossy proxy (lossy_proxy.py) that drops and corrupts bytes, wakeup marks,
PARMRK escapes and whole frames in both directions, while pitlinkd is SIGKILLed at random moments
of the transfers and restarted on the same journal.

The host runs a workload of transfers, each with a unique transaction ID: in house to the station
of each credit type (cashable, restricted with a pool, non-restricted), bonus awards (cashable,
non-restricted), transfers to the host, full and partial, some for more than the limit or than
what is held, a wrong registration key, another pool, and repeats of a finished transfer's
request. It repeats every request until it has that ID's final status (a repeat is answered with
the transfer's status, never a second transfer), acknowledges it, and books it once. Each final
status must be the one the host's own model of the station predicts (docs/sas.md "AFT"), or 9F
with nothing moved when a SIGKILL cut the transfer while it was pending; each successful answer's
cumulative meters must be the host's running sums.

Then, on a clean line, the host reconciles: its wallet's change is the sum of the successful
transfers and the opposite of the station's credits' change; the AFT meters and their counts read
by LP 6F and LP AF are the host's sums; LP 74's balances are its model's, add up to 000C, and the
restricted one is 001B; the credit meter identity of protocols/sas/README.md "Meters" holds; the
journal (read-only) holds exactly one ended aft.transfer and one credit per successful ID, and no
money moved by a failed one. And it checks that the faults happened: bytes dropped and corrupted
both ways, frames lost, a request repeated after its answer was lost and answered by status, SIGKILLs
that landed while a transfer was pending or unacknowledged (read from the journal after each).

Each run prints its seed and what happened; SEED=n replays the same workload, kill plan and fault
decisions (which bytes the faults hit also depends on timing); VERBOSE=1 also prints every step
and line error (a failure prints the steps anyway).
Usage: test_sas_aft_lossy.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import collections
import dataclasses
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[2]), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_sas import SasTable  # noqa: E402
from test_sas_aft import AFT_CONFIG, KEY  # noqa: E402
from test_table import ok  # noqa: E402
from lossy_proxy import TO_HOST, TO_STATION, LossyProxy  # noqa: E402
import sas_host as sh  # noqa: E402

LIMIT = 100000           # AFT_CONFIG's transfer_limit (cents)
TICKET_IN = 20000        # the station's credits before the first transfer (000D)
WALLET = 10_000_000      # the host's wallet at the start
POOL = 3                 # the restricted pool the host uses
FULL, PARTIAL = 0x00, 0x01
UNEXPECTED = 0x9F        # a transfer a crash cut while pending
NOT_UNIQUE = 0x81        # a request with the ID of the newest transfer in the history
STEPS = 40               # transfers (and repeats) in the workload
KILLS = 8                # SIGKILLs planned among them
SWALLOWS = 3             # requests whose first answer the proxy drops on purpose
RUN_SECONDS = 100        # the whole workload's budget


@dataclasses.dataclass
class Transfer:
    """An LP 72 request of the workload."""
    kind: str
    ident: str
    code: int
    type: int
    amounts: tuple           # cents: cashable, restricted, non-restricted
    pool: int = 0
    expiration: int = 0
    key: bytes = KEY


class StationModel:
    """The host's own model of the station's AFT rules (docs/sas.md "AFT", protocols/sas/README.md
    "AFT") and balances: no bets are placed during the run, so only transfers move the credits."""

    def __init__(self, cashable):
        self.held = [cashable, 0, 0]  # cashable, restricted, non-restricted
        self.pool = 0                 # of the restricted credits held

    def predict(self, t: Transfer):
        """(status, moved) the station must answer, the transfer not cut by a crash."""
        nothing = (0, 0, 0)
        if t.key != KEY:
            return 0x89, nothing  # registration key does not match
        c, r, n = t.amounts
        if t.type == sh.AFT_BONUS_COIN_OUT and (r or t.code == PARTIAL):
            return 0x82, nothing  # a bonus is whole and never restricted
        if c + r + n == 0:
            return 0x83, nothing
        if t.type == sh.AFT_TO_STATION and r and self.held[1] and t.pool != self.pool:
            return 0x8F, nothing  # restricted credits of another pool are held
        if t.type != sh.AFT_TO_HOST:
            if c + r + n <= LIMIT:
                return 0x00, t.amounts
            if t.code == FULL:
                return 0x84, nothing
            r2, n2, c2 = self._fill((r, n, c))  # restricted, then non-restricted, then cashable
            moved = (c2, r2, n2)
        else:
            held = all(a <= h for a, h in zip(t.amounts, self.held))
            if held and c + r + n <= LIMIT:
                return 0x00, t.amounts
            if t.code == FULL:
                return (0x84 if held else 0x82), nothing
            c2, n2, r2 = self._fill((min(c, self.held[0]), min(n, self.held[2]), min(r, self.held[1])))
            moved = (c2, r2, n2)
        if sum(moved) == 0:
            return 0x83, nothing
        return (0x00 if moved == t.amounts else 0x01), moved

    @staticmethod
    def _fill(wanted):
        room, out = LIMIT, []
        for amount in wanted:
            out.append(min(amount, room))
            room -= out[-1]
        return out

    def apply(self, t: Transfer, moved):
        sign = -1 if t.type == sh.AFT_TO_HOST else 1
        self.held = [h + sign * m for h, m in zip(self.held, moved)]
        if t.type == sh.AFT_TO_STATION and moved[1]:
            self.pool = t.pool
        assert min(self.held) >= 0, self.held


# The kinds of request and how often the random part of the workload picks them. The first
# STEPS_FIXED steps take every kind once, in this order, without a SIGKILL planned.
KINDS = {
    "in_cashable": 3, "in_restricted": 2, "in_nonrestricted": 2, "in_mixed": 1, "bonus_cashable": 2,
    "bonus_nonrestricted": 1, "in_partial": 1, "out_full": 3, "out_partial": 2, "out_more_than_held": 1,
    "in_over_limit": 1, "bonus_partial": 0.5, "bonus_restricted": 0.5, "in_other_pool": 0.5, "wrong_key": 0.5,
    "repeat_last": 1,
}
STEPS_FIXED = len(KINDS)
# The kinds the station takes (journals pending) before it decides: the others are refused at once.
TAKEN = {"in_cashable", "in_restricted", "in_nonrestricted", "in_mixed", "in_partial", "in_over_limit", "bonus_cashable",
         "bonus_nonrestricted", "out_full", "out_partial", "out_more_than_held"}


def make_transfer(kind, ident, model, draws):
    """The request of `kind` from five random numbers in [0, 1) (drawn whatever the kind, so that
    the workload replays from the seed) and the host's model of what the station holds."""
    cents = lambda lo, hi, x: (lo + int((hi - lo) * x)) // 100 * 100  # noqa: E731 (whole credits are cents here)
    a, b, c, d, e = draws
    pool = model.pool if model.held[1] else POOL
    if kind == "in_cashable":
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION, (cents(100, 30000, a), 0, 0))
    if kind == "in_restricted":
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION, (0, cents(100, 20000, a), 0), pool, 30)
    if kind == "in_nonrestricted":
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION, (0, 0, cents(100, 20000, a)))
    if kind == "in_mixed":
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION,
                        (cents(100, 20000, a), cents(100, 10000, b), cents(100, 10000, c)), pool, 30)
    if kind == "in_partial":  # more than the limit: restricted, then non-restricted, then cashable up to it
        return Transfer(kind, ident, PARTIAL, sh.AFT_TO_STATION,
                        (cents(40000, 60000, a), cents(30000, 50000, b), cents(30000, 40000, c)), pool, 30)
    if kind == "in_over_limit":
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION, (cents(LIMIT + 100, LIMIT + 50000, a), 0, 0))
    if kind == "in_other_pool":  # 8F while restricted credits of the host's pool are held
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION, (0, cents(100, 5000, a), 0), pool + 4, 30)
    if kind == "wrong_key":
        return Transfer(kind, ident, FULL, sh.AFT_TO_STATION, (cents(100, 5000, a), 0, 0), key=bytes(range(2, 22)))
    if kind == "bonus_cashable":
        return Transfer(kind, ident, FULL, sh.AFT_BONUS_COIN_OUT, (cents(100, 10000, a), 0, 0))
    if kind == "bonus_nonrestricted":
        return Transfer(kind, ident, FULL, sh.AFT_BONUS_COIN_OUT, (0, 0, cents(100, 10000, a)))
    if kind == "bonus_partial":
        return Transfer(kind, ident, PARTIAL, sh.AFT_BONUS_COIN_OUT, (cents(100, 10000, a), 0, 0))
    if kind == "bonus_restricted":
        return Transfer(kind, ident, FULL, sh.AFT_BONUS_COIN_OUT, (0, cents(100, 10000, a), 0), POOL, 30)
    held = model.held
    if kind == "out_full":  # part of what is held of each type
        amounts = tuple(int(h * x) for h, x in zip(held, (a, b, c)))
        return Transfer(kind, ident, FULL, sh.AFT_TO_HOST, amounts if sum(amounts) else (100, 0, 0))
    if kind == "out_partial":  # more than is held of some types: what is held, up to the limit
        amounts = tuple(int(h * 2 * x) + (100 if x > 0.7 else 0) for h, x in zip(held, (a, b, c)))
        return Transfer(kind, ident, PARTIAL, sh.AFT_TO_HOST, amounts if sum(amounts) else (100, 0, 0))
    if kind == "out_more_than_held":  # a full transfer of more than is held moves nothing (82)
        return Transfer(kind, ident, FULL, sh.AFT_TO_HOST, (held[0] + cents(100, 5000, d), int(held[1] * e), 0))
    raise ValueError(kind)


class LossyAft(unittest.TestCase):
    def setUp(self):
        self.seed = int(os.environ.get("SEED") or random.SystemRandom().randrange(1, 1_000_000))
        print(f"test_sas_aft_lossy: SEED={self.seed} (replay: SEED={self.seed} {' '.join(sys.argv)})",
              file=sys.stderr, flush=True)
        self.dir = tempfile.TemporaryDirectory()
        self.table = self.proxy = None
        self.output = collections.deque(maxlen=60)  # pitlinkd's last lines, for a failure's report
        self.timers = []

    def tearDown(self):
        for timer in self.timers:
            timer.cancel()
        if self.table:
            proc = self.table.daemon.proc
            if proc and proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=10)
            if proc and getattr(self, "reader", None):
                self.reader.join(timeout=5)
                proc.stdout.close()
            if self.table.engine:
                self.table.engine.close()
                self.table.engine = None
        if self.proxy:
            self.proxy.close()
        if self.table:
            self.table.close()
        self.dir.cleanup()

    # -- pitlinkd: start, SIGKILL, restart on the same journal ------------------------------

    def start_daemon(self):
        t = self.table
        t.engine = t.daemon.start()
        ok(self, t.engine.request("status"))  # up and listening
        proc = t.daemon.proc
        # Read its output all along (a pipe nobody reads would stop it once full).
        self.reader = threading.Thread(target=lambda: self.output.extend(proc.stdout), daemon=True)
        self.reader.start()

    def kill(self, proc, why):
        """SIGKILL (by its pid) if it is still the one running."""
        if proc is self.table.daemon.proc and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            self.kills.append(why)
            self.trace.append(f"SIGKILL ({why})")
            proc.wait(timeout=10)  # dead before anyone asks

    def restart(self):
        """After a SIGKILL: notes from the journal what the kill cut, then starts pitlinkd again, as
        test_sas.py does."""
        t = self.table
        t.daemon.proc.wait(timeout=10)
        self.reader.join(timeout=5)
        t.daemon.proc.stdout.close()
        self.assertEqual(t.daemon.proc.returncode, -signal.SIGKILL,
                         f"pitlinkd ended by itself (seed {self.seed}):\n" + "".join(self.output))
        self.cut.append(self.journal_moment())
        self.trace.append(f"restart: the journal says {self.cut[-1]}")
        t.engine.close()
        self.start_daemon()

    def journal(self, sql, *args):
        db = sqlite3.connect(f"file:{self.table.daemon.db}?mode=ro", uri=True)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def journal_moment(self):
        """What the station was doing when it died, from its durable AFT records: "pending" (a
        transfer journaled and not ended), "unacknowledged" (ended, the host's acknowledgement not
        journaled) or "idle"."""
        current, acknowledged = None, True
        for kind, body in self.journal("SELECT kind, body FROM record WHERE kind IN ('aft.transfer', "
                                       "'aft.acknowledged') ORDER BY seq"):
            body = json.loads(body)
            if kind == "aft.acknowledged":
                acknowledged = acknowledged or (current is not None and body["id"] == current["id"])
            elif current is not None and body["id"] == current["id"]:
                current = body
            else:
                current, acknowledged = body, body["status"] != 0x40  # a refusal at once needs none
        if current is not None and current["status"] == 0x40:
            return "pending"
        return "idle" if acknowledged else "unacknowledged"

    # -- the host's side of the line --------------------------------------------------------

    def recover(self, error):
        """After a poll that failed (no answer, a malformed or cut one): restarts pitlinkd if it was
        killed, lets late bytes pass, and resynchronises the link (a poll to another address)."""
        self.line_errors[type(error).__name__] += 1
        if os.environ.get("VERBOSE"):
            self.trace.append(f"  {time.monotonic() - self.end + RUN_SECONDS:.3f} {error}")
        if time.monotonic() > self.end:
            raise AssertionError(f"the workload ran out of time (seed {self.seed}): {error}")
        if self.table.daemon.proc.poll() is not None:
            self.restart()
        for step in (lambda: self.host.line.read_answer(timeout=0.02, gap=0.02), self.host.sync):
            try:
                step()
            except sh.SasError:
                pass

    def request(self, t: Transfer):
        """The request sent until answered for its ID (after a C0 the host acknowledges the transfer
        the station still holds as current, then sends it again); (answer, sends)."""
        sends = [1]

        def retry(error):
            sends[0] += 1
            self.recover(error)

        while True:
            answer = sh.aft_request(self.host, t.code, t.ident, t.type, retry=retry, deadline=30, asset=1, key=t.key,
                                    cashable=t.amounts[0], restricted=t.amounts[1], nonrestricted=t.amounts[2],
                                    expiration=t.expiration, pool=t.pool)
            if answer.status != sh.AFT_BUSY:
                return answer, sends[0]
            self.busy += 1
            # The acknowledgement of the last transfer was lost (or its record by a SIGKILL).
            current = sh.repeat_poll(self.host.lp_72_interrogate, self.recover, self.end, "72 FF after C0")
            self.check_known(current)
            sh.repeat_poll(self.host.sync, self.recover, self.end, "the acknowledging poll")

    def check_known(self, answer):
        """An answer about a transfer the host already booked: the same final status and amounts."""
        booked = self.books.log.get(answer.transaction_id)
        self.assertIsNotNone(booked, f"the station's current transfer {answer} is not in the host's log")
        self.assertEqual((answer.status, answer.cashable, answer.restricted, answer.nonrestricted),
                         (booked.status, booked.cashable, booked.restricted, booked.nonrestricted), answer)

    def run_transfer(self, t: Transfer, kill_at, swallow):
        """One transfer to its final status, acknowledged and booked; checked against the model."""
        expected = self.model.predict(t)
        if self.table.daemon.proc.poll() is not None:  # killed after the last transfer's end
            self.restart()
        proc = self.table.daemon.proc
        if kill_at == "timer":  # a random moment after the request is written (pending lasts ~1-5 ms)
            timer = threading.Timer(self.kill_rng.uniform(0.0, 0.012), self.kill, (proc, kill_at))
            self.timers.append(timer)
            timer.start()
        if swallow:
            swallowed = len(self.proxy.swallowed)
            self.proxy.swallow_next_answer()
        kills = len(self.kills)
        answer, sends = self.request(t)
        if swallow and len(self.proxy.swallowed) > swallowed:
            lost = self.proxy.swallowed[swallowed]
            if lost[:2] == b"\x01\x72" and t.ident.encode() in lost:
                # The station had answered the request: a repeat got that transfer's status.
                self.answered_by_status.append(t.ident)
        if kill_at == "answered":
            self.kill(proc, "answered")
        final = sh.aft_settle(self.host, t.ident, answer, retry=self.recover, deadline=30, acknowledge=False)
        cut = len(self.kills) > kills  # pitlinkd killed before the final status was read
        if kill_at == "final":  # the final status read, not acknowledged yet
            self.kill(self.table.daemon.proc, "final")
        if kill_at == "acknowledged":  # while the acknowledgement is journaled, or just before
            timer = threading.Timer(self.kill_rng.uniform(0.0, 0.004), self.kill, (self.table.daemon.proc, kill_at))
            self.timers.append(timer)
            timer.start()
        sh.repeat_poll(self.host.sync, self.recover, self.end, "the acknowledging poll")
        self.books.record(final, t.type)
        moved = (final.cashable, final.restricted, final.nonrestricted)
        where = f"seed {self.seed}, {t}: {final}"
        if final.status == UNEXPECTED and cut:
            self.assertEqual(moved, (0, 0, 0), where)  # cut while pending: nothing moved
        else:
            self.assertEqual((final.status, moved), expected, where)
        self.assertEqual(final.transfer_type, t.type, where)
        if final.status in sh.AFT_SUCCESSFUL:
            self.model.apply(t, moved)
            self.assertEqual(final.cumulative, self.books.cumulative(t.type), where)
            if t.type == sh.AFT_TO_STATION and moved[1]:
                self.assertEqual((final.pool, final.expiration), (t.pool, t.expiration), where)
            self.last_success = t
        self.statuses[final.status] += 1
        self.trace.append(f"{t.ident} {t.kind} {t.code:02X} {t.type:02X} {t.amounts} pool {t.pool}: "
                          f"{final.status:02X} {moved}, {sends} sends; held {self.model.held} pool {self.model.pool}")

    def repeat_last(self, ident):
        """The request of the newest successful transfer sent again (the host lost track, say): 81
        and nothing moved, or (its acknowledgement lost) that transfer's own final status."""
        t = dataclasses.replace(self.last_success, ident=ident)
        booked = self.books.log[ident]
        answer, _ = self.request(t)
        self.assertEqual(answer.transaction_id, ident)
        self.trace.append(f"{ident} repeated: {answer.status:02X}")
        if answer.status == NOT_UNIQUE:
            self.assertEqual((answer.cashable, answer.restricted, answer.nonrestricted), (0, 0, 0), answer)
            self.refused_repeats += 1
        else:
            self.check_known(sh.aft_settle(self.host, ident, answer, retry=self.recover, deadline=30))
            self.assertEqual(answer.status, booked.status)

    # -- the test ---------------------------------------------------------------------------

    def test_money_moves_exactly_once_through_a_lossy_line_and_crashes_and_reconciles(self):
        started = time.monotonic()
        self.end = started + RUN_SECONDS
        work_rng, plan_rng = random.Random(f"{self.seed}/work"), random.Random(f"{self.seed}/plan")
        self.kill_rng = random.Random(f"{self.seed}/kill")
        t = self.table = SasTable(self.dir.name, stations=(1,))
        t.daemon.rewrite_config([AFT_CONFIG])
        self.proxy = LossyProxy(t.ptys[1][0], self.seed)
        host = self.host = t.hosts[1] = sh.SasHost(sh.SasLine(self.proxy.host_fd), 1, timeout=0.2)
        self.books, self.model = sh.AftBooks(WALLET), StationModel(TICKET_IN)
        self.kills, self.cut, self.line_errors = [], [], collections.Counter()
        self.statuses, self.busy, self.refused_repeats = collections.Counter(), 0, 0
        self.answered_by_status, self.last_success, self.trace = [], None, []

        # On a clean line: pitlinkd up, the station registered, a ticket in for its first credits.
        self.start_daemon()
        host.line.flush_input()
        host.sync()
        self.assertEqual([e.code for e in t.first_events(1)], [0x17])
        self.assertEqual(host.lp_73(0x00, 1, KEY, 7)["status"], 0x00)
        host.sync()
        self.assertEqual(host.lp_73(0x01, 1, KEY, 7)["status"], 0x01)
        host.sync()
        ok(self, t.engine.request("ticket_in", station=1, validation="7301", amount=TICKET_IN))
        before = host.lp_af(0, list(sh.IDENTITY_METERS))
        host.sync()
        self.assertEqual((before[0x000C], before[0x000D]), (TICKET_IN, TICKET_IN))

        # The plan: every kind once, then random kinds; SIGKILLs and swallowed answers in the random
        # part. Two kills at least right after a request is answered, on a transfer (not a refusal
        # found at once): it is pending or ended, and not acknowledged (that takes a 72 FF); two at
        # least a few milliseconds after a request is written (its transfer may be pending).
        kinds = list(KINDS) + work_rng.choices(list(KINDS), weights=list(KINDS.values()), k=STEPS - STEPS_FIXED)
        draws = [[work_rng.random() for _ in range(5)] for _ in range(STEPS)]
        sure = plan_rng.sample([i for i in range(STEPS_FIXED, STEPS) if kinds[i] in TAKEN], 2)
        steps = plan_rng.sample([i for i in range(STEPS_FIXED, STEPS) if kinds[i] != "repeat_last" and i not in sure],
                                KILLS - 2 + SWALLOWS)
        moments = ["timer", "timer"] + plan_rng.choices(["timer", "answered", "final", "acknowledged"], k=KILLS - 4)
        kill_plan = dict(zip(sure + steps[:KILLS - 2], ["answered", "answered"] + moments))
        swallow_steps = set(steps[KILLS - 2:])

        self.proxy.lossy = True
        try:
            for step, kind in enumerate(kinds):
                ident = f"L{self.seed % 100000}-{step:02d}"
                if kind == "repeat_last":
                    if self.last_success is not None:
                        self.repeat_last(self.last_success.ident)
                    continue
                transfer = make_transfer(kind, ident, self.model, draws[step])
                self.run_transfer(transfer, kill_plan.get(step), step in swallow_steps)
        except Exception:
            print("\n".join(self.trace), file=sys.stderr)
            print(self.report(time.monotonic() - started), file=sys.stderr)
            raise
        for timer in self.timers:
            timer.join()

        # A clean line again: pitlinkd up, the last transfer acknowledged.
        self.proxy.lossy = False
        if t.daemon.proc.poll() is not None:
            self.restart()
        time.sleep(0.05)
        host.line.read_answer(timeout=0.05, gap=0.05)
        host.sync()
        last = host.lp_72_interrogate()
        if last.status != NOT_UNIQUE:  # a repeat refused at once is the current transfer then
            self.check_known(last)
        host.sync()
        if os.environ.get("VERBOSE"):
            print("\n".join(self.trace), file=sys.stderr)
        print(self.report(time.monotonic() - started), file=sys.stderr)

        # The wallet: its change is the sum of the successful transfers, and the opposite of the
        # station's credits' change (no bet was placed meanwhile).
        books = self.books
        successful = [i for i, a in books.log.items() if a.status in sh.AFT_SUCCESSFUL]
        self.assertEqual(books.wallet - WALLET, sum(books.signed(i) for i in successful))
        self.assertEqual(books.wallet - WALLET, sum(books.to_host) - sum(books.to_station) - sum(books.bonus))

        # The AFT meters, by LP 6F and by LP AF, are the host's sums; their counts (AF) too.
        codes = list(sh.AFT_IN_METERS + sh.AFT_BONUS_METERS + sh.AFT_OUT_METERS)
        by_6f = host.lp_6f(0, codes)
        host.sync()
        by_af = host.lp_af(0, codes)
        host.sync()
        counts = host.lp_af(0, list(sh.AFT_IN_COUNTS + sh.AFT_BONUS_COUNTS + sh.AFT_OUT_COUNTS))
        host.sync()
        expected = books.meters()
        self.assertEqual(by_6f, {c: expected[c] for c in codes})
        self.assertEqual(by_af, {c: expected[c] for c in codes})
        self.assertEqual(counts, {c: expected[c] for c in counts})
        self.assertEqual(len(counts), 8)

        # The credit meter identity, with the AFT terms; LP 74's balances are 000C and 001B, and
        # the host's model of them.
        meters = host.lp_af(0, list(sh.IDENTITY_METERS) + [0x001B, sh.RESTRICTED_KEYED_OFF])
        host.sync()
        meters.update(by_af)
        self.assertEqual(meters[0x000C], sh.identity_credits(meters))
        self.assertEqual((meters[0x000D], meters[0x0000], meters[0x0001]), (TICKET_IN, 0, 0))
        self.assertEqual(meters[0x000C] - before[0x000C], WALLET - books.wallet)
        status = host.lp_74()
        host.sync()
        balances = [status["cashable"], status["restricted"], status["nonrestricted"]]
        self.assertEqual(balances, self.model.held)
        self.assertEqual(sum(balances), meters[0x000C])
        self.assertEqual(status["restricted"], meters[0x001B])
        if status["restricted"]:
            self.assertEqual(status["pool"], self.model.pool, f"LP 74's pool of the restricted credits (seed {self.seed})")

        # The journal: every transaction ID there is the host's; one ended record per ID, with the
        # host's final status (a repeat refused 81 aside), taken once; for a successful ID exactly
        # one ended successful transfer and one credit, of what the host booked; none for a failed one.
        records = collections.defaultdict(list)
        for (body,) in self.journal("SELECT body FROM record WHERE kind = 'aft.transfer' ORDER BY seq"):
            body = json.loads(body)
            records[body["id"]].append(body)
        credits = collections.defaultdict(list)
        for (body,) in self.journal("SELECT body FROM record WHERE kind = 'credit' AND json_extract(body, '$.reason') "
                                    "IN ('transfer_in', 'transfer_out', 'bonus') ORDER BY seq"):
            body = json.loads(body)
            credits[body["ref"]].append(body)
        self.assertEqual(set(records), set(books.log))
        self.assertEqual(set(credits), {f"aft {i}" for i in successful})
        for ident, answer in books.log.items():
            bodies = records[ident]
            ended = [b["status"] for b in bodies if b["status"] not in (0x40, NOT_UNIQUE)]
            self.assertEqual(ended, [answer.status], (ident, bodies))
            self.assertLessEqual([b["status"] for b in bodies].count(0x40), 1, (ident, bodies))
            wins = [b for b in bodies if b["status"] in sh.AFT_SUCCESSFUL]
            moved = [b["moved"] for b in bodies if b["status"] != 0x40 and any(b.get("moved", {}).values())]
            if answer.status in sh.AFT_SUCCESSFUL:
                self.assertEqual(len(wins), 1, (ident, bodies))
                self.assertEqual(moved, [{"cashable": answer.cashable, "restricted": answer.restricted,
                                          "nonrestricted": answer.nonrestricted}], (ident, bodies))
                credit, = credits[f"aft {ident}"]
                sign = -1 if books.types[ident] == sh.AFT_TO_HOST else 1  # the station's side
                self.assertEqual((credit["amount"], credit.get("restricted", 0), credit.get("nonrestricted", 0)),
                                 (-books.signed(ident), sign * answer.restricted, sign * answer.nonrestricted), credit)
            else:
                self.assertEqual((wins, moved), ([], []), (ident, bodies))

        # The faults happened: bytes dropped and corrupted and frames lost, both ways; a request
        # whose answer was lost answered by its status on the repeat; SIGKILLs, one at least while a
        # transfer was pending or unacknowledged; a finished transfer's request repeated, refused.
        for direction in (TO_STATION, TO_HOST):
            c = self.proxy.counts[direction]
            self.assertGreater(c["dropped"], 0, direction)
            self.assertGreater(c["corrupted"] + c["marks_flipped"] + c["raw_corrupted"], 0, direction)
            self.assertGreater(c["frames_dropped"] + c["frames_garbled"], 0, direction)
        self.assertGreater(self.line_errors["SasError"], 0)  # malformed answers, not only missing ones
        self.assertGreater(len(self.answered_by_status), 0)
        self.assertEqual(len(self.kills), KILLS)
        self.assertEqual(len(self.cut), len(self.kills))
        self.assertTrue({"pending", "unacknowledged"} & set(self.cut), self.cut)
        self.assertGreater(self.refused_repeats, 0)
        self.assertGreater(len(successful), STEPS // 3)

    def report(self, seconds):
        """The run in a few lines: seed, time, outcomes and faults."""
        p = self.proxy.counts
        return (f"test_sas_aft_lossy: seed {self.seed}, {seconds:.1f} s; final statuses "
                f"{ {f'{k:02X}': v for k, v in sorted(self.statuses.items())} }; repeats refused 81: "
                f"{self.refused_repeats}; answered by status after a swallowed answer {self.answered_by_status}; C0 {self.busy}; SIGKILLs {self.kills}, the journal "
                f"then {self.cut}; line errors {dict(self.line_errors)}; proxy to the station "
                f"{dict(p[TO_STATION])}; to the host {dict(p[TO_HOST])}")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
