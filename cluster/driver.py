"""The map and the tree reduce on a Dask client.

Every task is submitted up front: one `summarize --digest` per file, then merges of K consecutive
results, level after level, until one `merge` of at most K writes the job summary. Dask runs each merge
as soon as its inputs exist, so merging overlaps the map. The client keeps a future only until it has
counted it, so a digest is freed on its worker once the merge reading it is done: no process ever
holds every digest (the last merge reads K merged ones).

Failures: a task whose worker died is rescheduled by Dask's scheduler (and what the dead worker held
is recomputed); a CLI that crashed raises in its task, which Dask runs again up to RETRIES times; if the
job summary still failed, the erred tasks are resubmitted (as Client.retry) up to RESUBMITS times. An
unreadable file or a usage error (the CLI's exit 1 or 2) is not retried: its message is the error.
"""
import sys
import time
import uuid

import cloudpickle
from distributed import as_completed

from . import paths, tasks

RETRIES = 2
RESUBMITS = 2

# Workers need not import this package: the two worker-side modules travel inside each task.
cloudpickle.register_pickle_by_value(tasks)
cloudpickle.register_pickle_by_value(paths)


class JobError(Exception):
    """The message for the user and the exit code: the CLI's (1 unreadable input, 2 usage) or 1."""

    def __init__(self, message, exit_code=1):
        super().__init__(message)
        self.exit_code = exit_code


class Progress:
    """done/total and MB/s on stderr: a line rewritten in place on a terminal, else one every 2 s."""

    def __init__(self, total_files, total_bytes, stream=sys.stderr):
        self.total_files, self.total_bytes, self.stream = total_files, total_bytes, stream
        self.files = self.bytes = 0
        self.start = self.last = time.monotonic()
        self.tty = stream.isatty()

    def add(self, size):
        self.files += 1
        self.bytes += size
        now = time.monotonic()
        if self.files == self.total_files or now - self.last >= (0.2 if self.tty else 2.0):
            self.last = now
            self.show(now)

    def show(self, now):
        mb = self.bytes / 1e6
        rate = mb / max(now - self.start, 1e-9)
        line = (f"tracewise cluster: {self.files}/{self.total_files} files, "
                f"{mb:.1f}/{self.total_bytes / 1e6:.1f} MB, {rate:.1f} MB/s")
        last = self.files == self.total_files
        self.stream.write(("\r" + line + ("\n" if last else "")) if self.tty else line + "\n")
        self.stream.flush()


def _label(span):
    """How the CLI's messages name a digest: by the traces it came from, (first, last) in file order."""
    first, last = span
    return f"the digest of {first}" if first == last else f"the merged digest of {first} ... {last}"


def _reduce(client, level, spans, depth, fan_in, cli, run_id):
    """Merges consecutive groups of fan_in; returns the next level and its spans (file order kept). A
    merge outranks the tasks below it (priority=depth): once its inputs exist it runs before more files
    are mapped, which frees them; otherwise Dask runs all the maps first (they were submitted first)."""
    starts = range(0, len(level), fan_in)
    groups = [level[g:g + fan_in] for g in starts]
    labels = [[_label(s) for s in spans[g:g + fan_in]] for g in starts]
    merged = client.map(tasks.merge, [cli] * len(groups), [False] * len(groups), groups, labels,
                        retries=RETRIES, priority=depth,
                        key=[f"tw-merge-{run_id}-{depth}-{i}" for i in range(len(groups))])
    return merged, [(spans[g][0], spans[min(g + fan_in, len(spans)) - 1][1]) for g in starts]


def run(client, args, cli, fan_in=16, hta_compat=False, kernel_rules=None, jobs=1, on_result=None,
        progress_stream=sys.stderr):
    """The job summary's bytes; JobError with the message for the user.

    kernel_rules: a rules file the workers can read, or None. jobs: the CLI's --jobs for each file; 1
    because a worker is meant to have a core (docs/cluster.md).
    on_result(done_count) is called after each file's digest is counted (the tests kill a worker there)."""
    if fan_in < 2:
        raise JobError("tracewise cluster: --fan-in must be 2 or more")
    files = client.submit(paths.expand, list(args), pure=False).result()
    if isinstance(files, str):
        raise JobError(f"tracewise cluster: {files}")
    run_id = uuid.uuid4().hex[:8]
    # One client.map per level: submitting task by task kept the client from counting (and so
    # releasing) digests for the first ~200 files of 1,000.
    n = len(files)
    options = ((["--hta-compat"] if hta_compat else []) + (["--kernel-rules", kernel_rules] if kernel_rules else [])
               + ["--jobs", str(jobs)])
    maps = client.map(tasks.digest, [cli] * n, [f for f, _ in files], [options] * n, retries=RETRIES,
                      key=[f"tw-digest-{run_id}-{i}" for i in range(n)])
    size_of = {m.key: s for m, (_, s) in zip(maps, files)}
    level, spans, depth = maps, [(f, f) for f, _ in files], 0
    while len(level) > fan_in:
        depth += 1
        level, spans = _reduce(client, level, spans, depth, fan_in, cli, run_id)
    final = client.submit(tasks.merge, cli, True, level, [_label(s) for s in spans],
                          key=f"tw-summary-{run_id}", retries=RETRIES, priority=depth + 1)
    del level

    progress = Progress(n, sum(s for _, s in files), progress_stream)
    pending = as_completed(maps)
    del maps  # from here on as_completed holds each map future only until it is counted
    for future in pending:
        if future.status == "finished" and future.type is dict:  # stop at the first file the CLI refused
            raise _cli_error(future.result())
        progress.add(size_of.pop(future.key))
        del future
        if on_result:
            on_result(progress.files)
    return _final_result(client, final)


def _retry(client, future):
    """Client.retry for a future whose erred inputs the client no longer holds: the scheduler retries
    the erred tasks below it, but Client.retry then looks each one up among the client's futures and
    fails (KeyError) on those released to free their digests. Same steps, skipping those."""
    async def retry():
        for key in await client.scheduler.retry(keys=[future.key], client=client.id):
            if key in client.futures:
                client.futures[key].retry()

    client.sync(retry)


def _final_result(client, final):
    for attempt in range(RESUBMITS + 1):
        try:
            result = final.result()
            break
        except Exception as e:  # a CLI crash after its retries, or a task lost with too many workers
            if attempt == RESUBMITS:
                raise JobError(f"tracewise cluster: the job failed after {RESUBMITS} resubmissions: "
                               f"{type(e).__name__}: {e}") from None
            print(f"tracewise cluster: resubmitting after {type(e).__name__}: {e}", file=sys.stderr)
            _retry(client, final)
    if isinstance(result, dict):
        raise _cli_error(result)
    return result


def _cli_error(result):
    return JobError(result["error"], result["exit"])
