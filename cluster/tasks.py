"""What runs on the workers: the tracewise CLI as a subprocess, one trace or one group of digests a task.

Standard library only, and shipped to the workers by value (cloudpickle), so a worker needs Python and
the CLI binary on the shared file system, not this package.

Results travel as bytes through Dask, not as files on shared storage: digests are small (<= 1 % of a
trace), Dask frees each one once the merge that reads it is done, and when a worker dies the digests
it held are recomputed from the task graph. Files would need a writable shared folder, cleanup, and
would survive a dead worker only to leave stale state behind.

A task returns
  (bytes, stats)                the digest (or, for the last merge, the job summary) and its costs
  {"unreadable": message}       the CLI's exit 1: an input it cannot read. Returned, not raised, because
                                Dask retries every exception and retrying cannot fix a file.
and raises CliCrash when the CLI died (a signal, an unexpected exit code), which Dask retries.
"""
import os
import subprocess
import tempfile


class CliCrash(RuntimeError):
    pass


def _run(argv):
    """(exit code, stdout bytes, stderr text, peak RSS of the child in KiB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        # wait4 instead of wait: its rusage is this child's own peak memory, which the report shows.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read(), err.read().decode("utf-8", "replace"), usage.ru_maxrss


def _checked(argv):
    code, out, err, rss_kib = _run(argv)
    if code == 1:
        return {"unreadable": err.strip() or f"{argv[1]} failed (exit 1)"}, rss_kib
    if code != 0:
        raise CliCrash(f"{' '.join(argv[:3])}... exited with {code}: {err.strip()[-2000:]}")
    return out, rss_kib


def digest(cli, path, hta_compat):
    """The per-rank digest of one trace."""
    argv = [cli, "summarize", "--digest"] + (["--hta-compat"] if hta_compat else []) + [path]
    out, rss_kib = _checked(argv)
    if isinstance(out, dict):
        return out
    return out, {"files": 1, "bytes_in": os.path.getsize(path), "map_rss_kib": rss_kib, "merge_rss_kib": 0}


def merge(cli, final, *parts):
    """Merges digests in the given order: one digest, or with `final` the job summary.

    The inputs are written to this worker's local temporary folder (not shared storage) for the CLI,
    which reads files. The first unreadable input in file order stands for the whole group."""
    for p in parts:
        if isinstance(p, dict):
            return p
    stats = {"files": 0, "bytes_in": 0, "map_rss_kib": 0, "merge_rss_kib": 0}
    with tempfile.TemporaryDirectory(prefix="tw-merge-") as tmp:
        names = []
        for i, (text, part_stats) in enumerate(parts):
            names.append(os.path.join(tmp, f"{i:05d}.json"))
            with open(names[-1], "wb") as f:
                f.write(text)
            stats["files"] += part_stats["files"]
            stats["bytes_in"] += part_stats["bytes_in"]
            stats["map_rss_kib"] = max(stats["map_rss_kib"], part_stats["map_rss_kib"])
            stats["merge_rss_kib"] = max(stats["merge_rss_kib"], part_stats["merge_rss_kib"])
        text, rss_kib = _checked([cli, "merge"] + ([] if final else ["--digest"]) + names)
    if isinstance(text, dict):  # a malformed digest or another version: not retried either
        return text
    stats["merge_rss_kib"] = max(stats["merge_rss_kib"], rss_kib)
    return text, stats
