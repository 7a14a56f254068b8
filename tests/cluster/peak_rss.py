"""Each CLI process's own peak memory, for the cluster test and benchmark: a wrapper CLI that runs the
real one under GNU time (/usr/bin/time, the Makefile's `time` package) and appends one line per run.

Not measured in the driver itself: a child's ru_maxrss includes the RSS of the process that forked it
(Linux records the old memory map's high-water mark at exec), so a CLI started from a 100 MB Dask
worker would report at least 100 MB. GNU time forks the CLI from its own small process.
"""
import collections
import os


def wrapper(folder, cli):
    """(path of a CLI that logs, path of its log)."""
    path, log = os.path.join(folder, "tracewise-rss"), os.path.join(folder, "rss.log")
    with open(path, "w") as f:
        # "summarize --digest", "merge --digest" or "merge <first digest>" (the last merge), then KiB.
        f.write(f'#!/bin/sh\nexec /usr/bin/time -a -o "{log}" -f "RSS $1 $2 %M" "{cli}" "$@"\n')
    os.chmod(path, 0o755)
    return path, log


def peaks_mib(log):
    """{"summarize --digest": MiB, "merge --digest": MiB, "merge (last)": MiB} and the count of each."""
    peak, count = collections.defaultdict(float), collections.Counter()
    with open(log) as f:
        for line in f:
            if not line.startswith("RSS "):  # GNU time's "Command exited with non-zero status" lines
                continue
            _, cmd, arg, kib = line.split()
            kind = f"{cmd} {arg}" if arg == "--digest" else f"{cmd} (last)"
            peak[kind] = max(peak[kind], int(kib) / 1024)
            count[kind] += 1
    return dict(peak), count
