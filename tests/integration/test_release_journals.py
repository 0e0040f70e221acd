#!/usr/bin/env python3
"""Journals left by earlier pitlinks read exactly as they did (issue 32: typed records).

The fixture journals of every schema version (tests/fixtures/journal/v1.db, v2.db, v3.db, written
by the independent fixture writer) and a journal made by the release before typed records
(release-f918d9b/: three segments, 2,503 simulated requests of pitlink_sim --seed 900003 at
commit f918d9b) are read with this build's pitlinkctl: recall (text, JSON, one station), audit
verify (the chain, every meter recomputed by replaying the credits against the snapshots, every
round settled again), audit export (JSON lines and CSV) and tips. Each output's SHA-256 must be the
one the release before typed records printed for the same command (golden.sha256, made with
--record by that build): the typed readers take the same facts from the same bytes.

Since issue 34 an export says each record's game (a last CSV column `game`, a `game` key in each
JSON line): these journals are of one game, so every record's game must be empty (checked), and
the comparison is of the export without it, which must be the release's byte for byte.

Since issue 35 the audit's recomputed meters also split each station's play by game and
denomination (`plays`) and keep `games_at_door_close` and ticket counts (`tickets`): these journals
are of one game and never journaled a denomination, so each station's plays must be one play
naming neither whose meters are the station's (checked); the ticket counts start at the last
snapshot written before them. The comparison is of the report without them.

Usage: test_release_journals.py BUILD_DIR SOURCE_DIR [--record]
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

JOURNALS = {"v1": "v1.db", "v2": "v2.db", "v3": "v3.db", "release": "release-f918d9b"}
COMMANDS = {
    "recall.txt": ["recall", "--last", "1000"],
    "recall.json": ["recall", "--json", "--last", "1000"],
    "recall-station2.json": ["recall", "--station", "2", "--json", "--last", "1000"],
    "verify.json": ["audit", "verify", "--json"],
    "export.jsonl": ["audit", "export", "--format", "jsonl"],
    "export.csv": ["audit", "export", "--format", "csv"],
    "tips.json": ["tips", "--json"],
}


def without_game(key, output):
    """An export without its `game` (issue 34), which must be empty in every record of these journals."""
    lines = output.decode().split("\n")
    assert lines[-1] == "", key
    kept = []
    for i, line in enumerate(lines[:-1]):
        if key.endswith(".csv"):
            suffix = ",game" if i == 0 else ","
            if not line.endswith(suffix):
                sys.exit(f"{key} line {i + 1}: expected an empty game last: {line[-80:]}")
            kept.append(line[:-len(suffix)])
        else:
            # keys sorted: the top level's "game" comes between "body" and "hash"
            stripped, n = re.subn(r',"game":null(?=,"hash":"[0-9a-f]{64}","kind":)', "", line)
            if n != 1:
                sys.exit(f"{key} line {i + 1}: expected \"game\": null once: {line[:200]}")
            kept.append(stripped)
    return ("\n".join(kept) + "\n").encode()


PLAY_METERS = ("coin_in", "coin_out", "games_played", "games_won", "games_lost", "jackpots")


def without_plays(key, output):
    """An audit report without what issue 35 added to each station's meters (checked first)."""
    report = json.loads(output)
    for station, entry in report["meters"]["stations"].items():
        plays = entry.pop("plays")
        entry.pop("games_at_door_close")
        tickets = entry.pop("tickets")
        meters = entry["meters"]
        played = any(meters[m] for m in PLAY_METERS)
        if len(plays) != (1 if played else 0) or (plays and (plays[0].get("game") or plays[0]["denomination"])):
            sys.exit(f"{key} station {station}: expected one play naming no game or denomination: {plays}")
        if plays and any(plays[0]["meters"][m] != meters[m] for m in PLAY_METERS):
            sys.exit(f"{key} station {station}: its play is not its meters: {plays[0]} {meters}")
        # Counted from the last snapshot written before them (schema/README.md "Meters snapshot").
        if not (0 <= tickets["in"] <= meters["ticket_in_cashable"] and 0 <= tickets["out"] <= meters["ticket_out_cashable"]):
            sys.exit(f"{key} station {station}: ticket counts {tickets} beyond the meters")
    return (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode()


def outputs(ctl, fixtures, keep):
    """(name, sha256, output) of every command on a fresh copy of every journal."""
    for journal, source in JOURNALS.items():
        for name, command in COMMANDS.items():
            # A copy each time: a reader may leave a WAL or -shm beside the file it opened.
            with tempfile.TemporaryDirectory() as work:
                path = os.path.join(fixtures, source)
                if os.path.isdir(path):
                    shutil.copytree(path, os.path.join(work, "j"), symlinks=True)
                    target = os.path.join(work, "j", "journal.db")
                else:
                    target = os.path.join(work, "j.db")
                    shutil.copy(path, target)
                run = subprocess.run([ctl] + command + ["--journal", target], capture_output=True, timeout=120)
                if run.returncode != 0:
                    sys.exit(f"{journal} {name}: pitlinkctl exited {run.returncode}: {run.stderr.decode()}")
                key = f"{journal}.{name}"
                if name.startswith("export."):
                    run.stdout = without_game(key, run.stdout)
                if name == "verify.json":
                    run.stdout = without_plays(key, run.stdout)
                if keep:
                    with open(os.path.join(keep, key), "wb") as out:
                        out.write(run.stdout)
                yield key, hashlib.sha256(run.stdout).hexdigest()


def main():
    build, source = sys.argv[1], sys.argv[2]
    record = "--record" in sys.argv[3:]
    ctl = os.path.join(build, "daemon", "ctl", "pitlinkctl")
    fixtures = os.path.join(source, "tests", "fixtures", "journal")
    manifest = os.path.join(fixtures, "golden.sha256")
    keep = tempfile.mkdtemp(prefix="pitlink-release-journals-")
    got = dict(outputs(ctl, fixtures, keep))
    if record:
        with open(manifest, "w") as out:
            for key in sorted(got):
                out.write(f"{got[key]}  {key}\n")
        print(f"recorded {len(got)} outputs in {manifest}")
        return
    want = {}
    with open(manifest) as lines:
        for line in lines:
            digest, key = line.split()
            want[key] = digest
    if set(want) != set(got):
        sys.exit(f"outputs differ in name: missing {sorted(set(want) - set(got))}, new {sorted(set(got) - set(want))}")
    differ = [key for key in sorted(want) if want[key] != got[key]]
    for key in differ:
        print(f"DIFFERS: {key} (this build's output kept in {keep}/{key})")
    if differ:
        sys.exit(f"{len(differ)} of {len(want)} outputs differ from the release before typed records")
    shutil.rmtree(keep)
    print(f"{len(want)} outputs of {len(JOURNALS)} journals identical to the release before typed records")


if __name__ == "__main__":
    main()
