#!/usr/bin/env python3
"""The Dask driver's throughput: files/s and MB/s with 1 and 2 local workers on generated rank files.

Usage: /usr/bin/python3 bench/cluster_bench.py [FILESxPAD_OPS...] [--rounds N]
(default: 200x200 16x8000 --rounds 2)

For each set, writes FILES rank traces (tests/cluster/rank_files.py; PAD_OPS small kernels per step:
200 make ~0.3 MB a file, 8000 ~12 MB) into a temporary folder, then runs the job on a LocalCluster of 1
and of 2 worker processes (1 thread each), ROUNDS times each, alternating, and keeps each side's best.
Every run's summary is checked against `tracewise summarize FOLDER`, timed too (one process, --jobs 1
and the default). The cluster's time includes Dask's per-task overhead and one CLI process per file and
per merge; it excludes starting the cluster. Peak memory: tests/cluster/test_driver.py reports it.
"""
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [REPO, os.path.join(REPO, "tests", "cluster")]

from distributed import Client, LocalCluster  # noqa: E402

from cluster import driver  # noqa: E402
import rank_files  # noqa: E402

CLI = os.path.join(REPO, "build", "native", "tracewise")


def timed(fn):
    start = time.monotonic()
    out = fn()
    return time.monotonic() - start, out


def measure(clients, files, pad_ops, rounds):
    with tempfile.TemporaryDirectory(prefix="tw-cluster-bench-") as tmp:
        paths = rank_files.write_ranks(tmp, files, pad_ops=pad_ops)
        mb = sum(os.path.getsize(p) for p in paths) / 1e6
        rows = {}
        for jobs in ("1", str(os.cpu_count())):
            sec, expected = timed(lambda: subprocess.run([CLI, "summarize", "--jobs", jobs, tmp], check=True,
                                                         capture_output=True).stdout)
            rows[f"tracewise summarize --jobs {jobs}"] = sec
        for _ in range(rounds):
            for n, client in clients.items():
                with open(os.devnull, "w") as quiet:
                    sec, summary = timed(lambda: driver.run(client, [tmp], CLI, progress_stream=quiet))
                assert summary == expected, "the cluster's summary differs from tracewise summarize"
                rows[f"cluster --local {n}"] = min(rows.get(f"cluster --local {n}", sec), sec)
    print(f"\n{files} rank files, {mb:.1f} MB ({mb / files:.2f} MB each), {os.cpu_count()} cores, best of {rounds}")
    print(f"| {'run':<32} | {'s':>6} | {'files/s':>8} | {'MB/s':>7} |")
    print(f"|{'-' * 34}|{'-' * 8}|{'-' * 10}|{'-' * 9}|")
    for name, sec in rows.items():
        print(f"| {name:<32} | {sec:6.2f} | {files / sec:8.1f} | {mb / sec:7.1f} |")


def main(argv):
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 2
    sets = [a for a in argv if "x" in a] or ["200x200", "16x8000"]
    clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
                for n in (1, 2)}
    clients = {n: Client(c) for n, c in clusters.items()}
    try:
        for spec in sets:
            files, pad_ops = (int(v) for v in spec.split("x"))
            measure(clients, files, pad_ops, rounds)
    finally:
        for c in list(clients.values()) + list(clusters.values()):
            c.close()


if __name__ == "__main__":
    main(sys.argv[1:])
