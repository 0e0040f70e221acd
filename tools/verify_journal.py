#!/usr/bin/env python3
"""An inspector's own check of a pitlink journal's hash chain, with Python's sqlite3 and hashlib
only, following schema/README.md ("Hash chain", "Segments"); it shares no code with pitlink.

    python3 tools/verify_journal.py /var/lib/pitlink/journal.db

journal.db is a regular file (one segment) or a link to the active segment, with the sealed ones
in journal.db.segments/. Exit 0 when every record of every segment links to the one before it
and the sequence numbers run from 1 without a gap; 1 with the first problem otherwise.
(A journal with an HMAC key needs the key: `pitlinkctl audit verify --key FILE`.)
"""
import glob
import hashlib
import json
import os
import sqlite3
import sys


def segment_files(journal):
    if not os.path.islink(journal):
        return [journal]
    active = os.path.basename(os.readlink(journal))
    files = glob.glob(os.path.join(journal + ".segments", "segment-[0-9][0-9][0-9][0-9][0-9][0-9].db"))
    return sorted(f for f in files if os.path.basename(f) <= active)


def main(journal):
    prev, expected, rounds = bytes(32), 1, set()
    files = segment_files(journal)
    for path in files:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        for seq, at, kind, rnd, st, body, h in db.execute(
                "SELECT seq, at_ms, kind, round_id, station, body, hash FROM record ORDER BY seq"):
            if seq != expected:
                return f"{path}: record {expected} is missing (found {seq})"
            if kind == "segment.sealed":
                seal = json.loads(body)
                if seal["last_seq"] != seq - 1 or bytes.fromhex(seal["last_hash"]) != prev:
                    return f"{path}: its seal does not name the last record of the segment before it"
            text = "\t".join([str(seq), str(at), kind, "" if rnd is None else str(rnd),
                              "" if st is None else str(st), body])
            prev = hashlib.sha256(prev + text.encode()).digest()
            if prev != h:
                return f"{path}: record {seq} ({kind}) does not match its link"
            if kind == "round.opened":
                rounds.add(rnd)
            expected += 1
        db.close()
    print(f"{len(files)} segment(s), {expected - 1} records, {len(rounds)} rounds: every link checked, chain intact")
    return None


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    problem = main(sys.argv[1])
    if problem:
        print("BROKEN: " + problem)
        sys.exit(1)
