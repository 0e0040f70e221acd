#!/usr/bin/env python3
"""Journal segments through the real pitlinkd (issue 19, schema/README.md "Segments").

The daemon deals rounds on a journal that rotates every megabyte; an inspector's own verifier
(this file: its own SHA-256 chain and sums, following only schema/README.md) checks the segments
end to end, and pitlinkctl's audit, recall and export agree with it. A sealed segment edited
afterwards is found by the background check of a running table, which tilts.

Usage: test_segments.py BUILD_DIR SOURCE_DIR (ctest passes both).
"""
import hashlib
import json
import socket
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CTL = os.path.join(BUILD, "daemon", "ctl", "pitlinkctl")
DAEMON = os.path.join(BUILD, "daemon", "app", "pitlinkd")
PAYTABLE = os.path.join(SOURCE, "etc", "paytables", "standard.yaml")
# The segments found as an inspector finds them: tools/verify_journal.py, written from
# schema/README.md "Segments" alone.
sys.path.insert(0, os.path.join(SOURCE, "tools"))
from verify_journal import segment_files  # noqa: E402


def config(directory):
    path = os.path.join(directory, "pitlink.yaml")
    with open(path, "w") as f:
        f.write("table:\n  paytable: %s\n  decks: 1\n  cut_card_from_end: 14\n"
                "rounds:\n  bets_open_ms: 1\n  last_bets_ms: 1\n"
                "engine:\n  socket: engine.sock\ncontrol:\n  socket: control.sock\n"
                "journal:\n  path: journal.db\n  segment_max_mb: 1\nlog:\n  level: info\n" % PAYTABLE)
    return path


def read_segments(journal):
    """Every record of every segment: (file, seq, at_ms, kind, round_id, station, body, hash)."""
    rows = []
    for path in segment_files(journal):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        rows += [(path,) + tuple(r) for r in db.execute(
            "SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq")]
        db.close()
    return rows


def verify_chain(rows):
    """The inspector's verifier: schema/README.md's formula over the segments concatenated."""
    prev = bytes(32)
    expected = 1
    last_of_file = {}
    for path, seq, at, kind, rnd, st, body, h in rows:
        assert seq == expected, f"record {expected} missing ({path} holds {seq} next)"
        if kind == "segment.sealed":
            seal = json.loads(body)
            assert seal["last_seq"] == seq - 1, f"{path}: the seal names record {seal['last_seq']}"
            assert bytes.fromhex(seal["last_hash"]) == prev, f"{path}: the seal does not name the last link"
        text = "\t".join([str(seq), str(at), kind, "" if rnd is None else str(rnd), "" if st is None else str(st), body])
        prev = hashlib.sha256(prev + text.encode()).digest()
        assert prev == h, f"record {seq} in {path} does not match its link"
        last_of_file[path] = seq
        expected += 1
    return expected - 1


def ctl(*args):
    r = subprocess.run([CTL, *args], capture_output=True, text=True, timeout=120)
    return r


class Segments(unittest.TestCase):
    def deal(self, directory, rounds):
        r = subprocess.run([DAEMON, "--config", config(directory), "--rounds", str(rounds)], cwd=directory,
                           capture_output=True, text=True, timeout=180)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout + r.stderr

    def test_the_daemon_rotates_between_rounds_and_an_inspector_verifies_every_segment(self):
        with tempfile.TemporaryDirectory() as d:
            self.deal(d, 1600)
            journal = os.path.join(d, "journal.db")
            self.assertTrue(os.path.islink(journal), "journal.db should be a link to the active segment")
            files = segment_files(journal)
            self.assertGreaterEqual(len(files), 3, files)
            rows = read_segments(journal)
            total = verify_chain(rows)
            # Every segment after the first opens with its seal and what it carries over.
            for path in files[1:]:
                kinds = [r[3] for r in rows if r[0] == path][:3]
                self.assertEqual(kinds[:2], ["segment.sealed", "segment.carried"], path)
            # Rounds are never split: each round's records lie in one segment, and each ended once.
            home = {}
            ended = {}
            for path, seq, at, kind, rnd, st, body, h in rows:
                if rnd is not None:
                    self.assertEqual(home.setdefault(rnd, path), path, f"round {rnd} split across segments")
                if kind in ("round.settled", "round.voided"):
                    ended[rnd] = ended.get(rnd, 0) + 1
            self.assertEqual(len(ended), 1600)
            self.assertEqual(set(ended.values()), {1})

            # pitlinkctl reads the same journal across its segments.
            audit = ctl("audit", "verify", "--journal", journal, "--json")
            self.assertEqual(audit.returncode, 0, audit.stdout + audit.stderr)
            report = json.loads(audit.stdout)
            self.assertTrue(report["ok"])
            self.assertEqual(report["records_checked"], total)
            self.assertEqual(report["rounds_checked"], 1600)
            self.assertEqual(report["meters"]["table"]["rounds_settled"] + report["meters"]["table"]["rounds_voided"],
                             1600)
            recall = ctl("recall", "--journal", journal, "--last", "3", "--json")
            self.assertEqual(recall.returncode, 0, recall.stderr)
            self.assertEqual([r["round"] for r in json.loads(recall.stdout)], [1600, 1599, 1598])
            first = min(r for r, p in home.items() if p == files[0])
            old = ctl("recall", "--journal", journal, "--round", str(first), "--json")
            self.assertEqual(json.loads(old.stdout)[0]["state"], "settled")
            exported = ctl("audit", "export", "--journal", journal, "--format", "jsonl")
            lines = [json.loads(l) for l in exported.stdout.splitlines()]
            self.assertEqual(len(lines), total)
            self.assertEqual([l["seq"] for l in lines], list(range(1, total + 1)))

            # A restart resumes from the active segment alone: round numbers and shoes go on.
            out = self.deal(d, 5)
            self.assertIn("sealed segments trusted by their seals", out)
            rows = read_segments(journal)
            verify_chain(rows)
            opened = [r[4] for r in rows if r[3] == "round.opened"]
            self.assertEqual(opened[-5:], [1601, 1602, 1603, 1604, 1605])

    def test_old_segments_are_archived_with_a_manifest_and_the_rest_still_audits(self):
        with tempfile.TemporaryDirectory() as d:
            self.deal(d, 2200)
            journal = os.path.join(d, "journal.db")
            before = read_segments(journal)
            total = verify_chain(before)
            files = segment_files(journal)
            self.assertGreaterEqual(len(files), 3, files)
            archive = os.path.join(d, "archive")
            r = ctl("journal", "archive", "--journal", journal, "--to", archive, "--json")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            archived = json.loads(r.stdout)["archived"]
            # Every sealed segment (none is younger than 0 days), none of the active one.
            self.assertEqual([a["file"] for a in archived], [os.path.basename(f) for f in files[:-1]])
            for a in archived:
                self.assertFalse(os.path.exists(os.path.join(journal + ".segments", a["file"])))
                with open(os.path.join(archive, a["file"]), "rb") as f:
                    self.assertEqual(hashlib.sha256(f.read()).hexdigest(), a["sha256"])
            with open(os.path.join(archive, "MANIFEST.jsonl")) as f:
                manifest = [json.loads(l) for l in f]
            self.assertEqual([m["sha256"] for m in manifest], [a["sha256"] for a in archived])
            # The archive and what stays are still one chain, record for record.
            kept = read_segments(journal)
            self.assertEqual(len(segment_files(journal)), 1)
            copies = []
            for a in archived:
                db = sqlite3.connect(f"file:{os.path.join(archive, a['file'])}?mode=ro", uri=True)
                copies += [(a["file"],) + tuple(r) for r in db.execute(
                    "SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq")]
                db.close()
            self.assertEqual(verify_chain(copies + kept), total)
            # What stays audits from its first segment's seal and opening snapshot.
            audit = ctl("audit", "verify", "--journal", journal, "--json")
            self.assertEqual(audit.returncode, 0, audit.stdout + audit.stderr)
            report = json.loads(audit.stdout)
            self.assertTrue(report["ok"])
            self.assertEqual(report["records_checked"], len(kept))
            # The table goes on from it.
            self.deal(d, 3)
            opened = [r[4] for r in read_segments(journal) if r[3] == "round.opened"]
            self.assertEqual(opened[-3:], [2201, 2202, 2203])

    def test_an_edited_sealed_segment_is_found_in_the_background_and_tilts_the_running_table(self):
        with tempfile.TemporaryDirectory() as d:
            self.deal(d, 1000)
            journal = os.path.join(d, "journal.db")
            sealed = segment_files(journal)[0]
            db = sqlite3.connect(sealed)
            db.execute("DROP TRIGGER record_is_append_only_update")
            seq = db.execute("SELECT seq FROM record WHERE kind = 'round.settled' LIMIT 1 OFFSET 100").fetchone()[0]
            db.execute("UPDATE record SET body = replace(body, 'player', 'PLAYER') WHERE seq = ?", (seq,))
            db.commit()
            db.close()
            notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            notify.bind(os.path.join(d, "notify"))
            notify.settimeout(30)
            env = dict(os.environ, NOTIFY_SOCKET=os.path.join(d, "notify"))
            p = subprocess.Popen([DAEMON, "--config", config(d)], cwd=d, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, env=env)
            ready = ""
            while "READY=1" not in ready:
                ready = notify.recv(4096).decode()
            # Ready and running: the start-up trusted the seal (the check's verdict comes after).
            self.assertIn("STATUS=table 'table-1' running", ready)
            out = ""
            deadline = time.time() + 60
            while "TILT" not in out and time.time() < deadline:
                out += p.stdout.readline()
            status = ctl("status", "--socket", os.path.join(d, "control.sock"), "--json")
            notify.close()
            p.terminate()
            out += p.communicate(timeout=20)[0]
            self.assertIn("sealed segments trusted by their seals", out)
            self.assertIn("TILT: sealed segment", out)
            self.assertIn("record %d" % seq, out)
            self.assertEqual(status.returncode, 0, status.stderr)
            segments = json.loads(status.stdout)["daemon"]["journal_segments"]
            self.assertIn("record %d" % seq, segments["sealed_check"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
