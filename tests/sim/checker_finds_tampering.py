#!/usr/bin/env python3
"""The simulation's journal checker can fail: a journal kept by a run (pitlink_sim --dir) passes
`pitlink_sim --check`; the same journal with one number changed, as an edit behind the daemon's
back would change it, does not, and the checker names what is wrong.

Usage: checker_finds_tampering.py PITLINK_SIM
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile


def journal_files(directory):
    """The segment files, newest first (journal.db is a link to the active one)."""
    link = os.path.join(directory, "journal.db")
    if not os.path.islink(link):
        return [link]
    segments = os.path.join(directory, "journal.db.segments")
    return sorted((os.path.join(segments, f) for f in os.listdir(segments) if f.endswith(".db")), reverse=True)


def tamper(directory, kind, condition, field, delta):
    """Adds `delta` to `field` of the last record of `kind` meeting `condition`; returns its seq."""
    for path in journal_files(directory):
        db = sqlite3.connect(path)
        row = db.execute(
            f"SELECT seq FROM record WHERE kind = ? AND {condition} ORDER BY seq DESC LIMIT 1", (kind,)).fetchone()
        if row is None:
            db.close()
            continue
        db.execute("DROP TRIGGER record_is_append_only_update")
        db.execute(f"UPDATE record SET body = json_set(body, '$.{field}', json_extract(body, '$.{field}') + ?) "
                   "WHERE seq = ?", (delta, row[0]))
        db.commit()
        db.close()
        return row[0]
    raise SystemExit(f"no {kind} record where {condition} to tamper with")


def check(sim, directory):
    run = subprocess.run([sim, "--check", os.path.join(directory, "journal.db")], capture_output=True, text=True)
    return run.returncode, run.stdout


def main():
    sim = sys.argv[1]
    work = tempfile.mkdtemp(prefix="pitlink-checker-")
    try:
        kept = os.path.join(work, "run")
        run = subprocess.run([sim, "--seed", "11", "--requests", "3000", "--dir", kept], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        code, out = check(sim, kept)
        assert code == 0 and " 0 problems" in out, out

        cases = [
            # A settlement credit one cent bigger: the credit chain breaks at that record.
            ("credit", "json_extract(body, '$.reason') = 'settlement' AND json_extract(body, '$.amount') > 0",
             "amount", 1, "credit record"),
            # A winning settlement that says it returned 100 more than its cards pay.
            ("bet.settled", "json_extract(body, '$.returned') > 0", "returned", 100, "its cards say"),
        ]
        for kind, condition, field, delta, expected in cases:
            copy = os.path.join(work, kind)
            shutil.copytree(kept, copy, symlinks=True)
            seq = tamper(copy, kind, condition, field, delta)
            code, out = check(sim, copy)
            assert code == 1, f"{kind} {seq} with {field} + {delta} passed the checker:\n{out}"
            assert expected in out, f"{kind} {seq}: the checker did not say '{expected}':\n{out}"
            print(f"{kind} record {seq} with {field} + {delta}: found ({out.splitlines()[0]})")
    finally:
        shutil.rmtree(work)
    print("the checker passes the journal as written and fails each tampered copy")


if __name__ == "__main__":
    main()
