"""What runs on the workers: the tracewise CLI as a subprocess, one trace or one group of digests a task.

Standard library only, and shipped to the workers by value (cloudpickle), so a worker needs Python and
the CLI binary on the shared file system, not this package.

Results travel as bytes through Dask, not as files on shared storage: digests are small (<= 1 % of a
trace), Dask frees each one once the merge that reads it is done, and when a worker dies the digests
it held are recomputed from the task graph. Files would need a writable shared folder, cleanup, and
would survive a dead worker only to leave stale state behind.

A task returns
  bytes                            the digest (or, for the last merge, the job summary)
  {"error": message, "exit": code} the CLI's exit 1 (an input it cannot read) or 2 (usage, e.g. invalid
                                   kernel rules). Returned, not raised: Dask retries every exception,
                                   and retrying cannot fix a file.
and raises CliCrash when the CLI died (a signal, another exit code), which Dask retries.
"""
import os
import subprocess
import tempfile


class CliCrash(RuntimeError):
    pass


def _checked(argv):
    proc = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL)
    if proc.returncode in (1, 2):
        message = proc.stderr.decode("utf-8", "replace").strip()
        return {"error": message or f"tracewise {argv[1]} failed (exit {proc.returncode})", "exit": proc.returncode}
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()[-2000:]
        raise CliCrash(f"{' '.join(argv[:3])}... exited with {proc.returncode}: {err}")
    return proc.stdout


def digest(cli, path, options):
    """The per-rank digest of one trace; options: summarize's (--hta-compat, --kernel-rules, --jobs)."""
    return _checked([cli, "summarize", "--digest"] + options + [path])


def merge(cli, final, parts, labels):
    """Merges digests in the given order: one digest, or with `final` the job summary.

    The inputs are written to this worker's local temporary folder (not shared storage) for the CLI,
    which reads files. The first unreadable input in file order stands for the whole group; a malformed
    digest or one of another version is the CLI's exit 1 too, and not retried either: its message names
    the input by its label (the trace it came from), not by the temporary file."""
    for p in parts:
        if isinstance(p, dict):
            return p
    with tempfile.TemporaryDirectory(prefix="tw-merge-") as tmp:
        names = []
        for i, text in enumerate(parts):
            names.append(os.path.join(tmp, f"{i:05d}.json"))
            with open(names[-1], "wb") as f:
                f.write(text)
        out = _checked([cli, "merge"] + ([] if final else ["--digest"]) + names)
        if isinstance(out, dict):
            for name, label in zip(names, labels):
                out["error"] = out["error"].replace(name, label)
        return out
