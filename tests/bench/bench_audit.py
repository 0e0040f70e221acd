#!/usr/bin/env python3
"""The inspector's audit of a year's journal (`pitlinkctl audit verify --journal`) against reading
the same files once with `sha256sum`, in the same run, each measured in turn.

Usage: bench_audit.py BUILD_DIR JOURNAL [--runs N] [--baseline-ctl OTHER_PITLINKCTL]

JOURNAL is one made by `bench_startup --make PATH ROUNDS --segment-mb 32` (tests/bench/RESULTS.md).
Every run reads files the page cache holds (each command is run once before the timed runs): the
figures are the work of the audit and of the hash, not of the disk. `--baseline-ctl` times another
build's pitlinkctl on the same journal (e.g. the release before), whose report must be the same.
"""
import argparse
import glob
import json
import os
import resource
import subprocess
import sys
import time


def timed(command):
    """Wall time, and the CPU time (user and system) the command took: on a shared machine the
    wall time of the same work varies (other tenants, reclaimed page cache); its CPU time less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("journal")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline-ctl")
    args = parser.parse_args()
    ctl = os.path.join(args.build, "daemon", "ctl", "pitlinkctl")
    files = sorted(glob.glob(args.journal + ".segments/*.db")) or [args.journal]
    size = sum(os.path.getsize(f) for f in files)
    commands = {
        "sha256sum of the files": ["sha256sum", *files],
        "audit verify (--jobs 1: one pass in order)": [ctl, "audit", "verify", "--json", "--jobs", "1",
                                                       "--journal", args.journal],
        "audit verify (default: a thread per CPU)": [ctl, "audit", "verify", "--json", "--journal", args.journal],
    }
    if args.baseline_ctl:
        commands["audit verify, the other pitlinkctl"] = [args.baseline_ctl, "audit", "verify", "--json",
                                                          "--journal", args.journal]
    reports = {}
    for name, command in commands.items():  # once each, to fill the page cache
        _, result = timed(command)
        if result.returncode != 0:
            sys.exit(f"{name} failed ({result.returncode}): {result.stderr[-2000:]}")
        if command[0] != "sha256sum":
            reports[name] = json.loads(result.stdout)
    first = next(iter(reports.values()))
    for name, report in reports.items():
        if report != first:
            sys.exit(f"{name} reports another audit than {next(iter(reports))}")
    times = {name: [] for name in commands}
    cpu = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            elapsed, result = timed(command)
            if result.returncode != 0:
                sys.exit(f"{name} failed in a timed run: {result.stderr[-2000:]}")
            times[name].append(elapsed)
            cpu[name].append(timed.cpu)
    print(f"journal: {len(files)} files, {size / 1e6:,.0f} MB, {first['records_checked']:,} records, "
          f"{first['rounds_checked']:,} rounds, {first['snapshots_compared']:,} snapshots; ok: {first['ok']}; "
          f"{os.cpu_count()} CPUs")
    base = min(times["sha256sum of the files"])
    for name, runs in times.items():
        best = min(runs)
        print(f"| {name} | {' / '.join(f'{t:.1f} s' for t in runs)} | "
              f"{' / '.join(f'{t:.1f} s' for t in cpu[name])} | "
              f"{first['records_checked'] / best / 1e6:.2f} M records/s | {best / base:.1f}x sha256sum |")


if __name__ == "__main__":
    main()
