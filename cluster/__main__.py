"""Command line: python3 -m cluster (--scheduler ADDRESS | --local N) [--output FILE] [--tracewise CLI]
[--fan-in K] [--jobs N] [--hta-compat] [--kernel-rules RULES.json] PATH...   Exit codes as the CLI's: 0 ok,
1 a failed job or unreadable input, 2 usage (also invalid kernel rules)."""
import argparse
import os
import shutil
import sys

try:
    from . import driver
except ModuleNotFoundError as e:  # another python3 first on PATH (pyenv, a virtualenv) lacks Debian's Dask
    sys.exit(f"tracewise cluster: {e.name} is missing: apt-get install python3-distributed, and run "
             f"/usr/bin/python3 -m cluster (this is {sys.executable})")

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_cli():
    built = os.path.join(REPO, "build", "native", "tracewise")
    return built if os.path.exists(built) else shutil.which("tracewise") or built


def parse(argv):
    p = argparse.ArgumentParser(prog="python3 -m cluster",
                                description="The job summary of rank traces, computed on a Dask cluster: the bytes "
                                            "of `tracewise summarize PATH...`.")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--local", metavar="N", type=int, help="start a LocalCluster of N worker processes")
    p.add_argument("--output", metavar="FILE", help="write the summary here instead of stdout")
    p.add_argument("--tracewise", metavar="CLI", default=default_cli(),
                   help="the tracewise binary, at a path every worker can run (default: %(default)s)")
    p.add_argument("--fan-in", metavar="K", type=int, default=16, help="digests per merge (default 16)")
    p.add_argument("--jobs", metavar="N", type=int, default=1,
                   help="threads of each summarize --digest (default 1: a worker per core; more helps files of "
                        "64 MB or more when a worker has cores to spare)")
    p.add_argument("--hta-compat", action="store_true", help="as tracewise summarize --hta-compat")
    p.add_argument("--kernel-rules", metavar="RULES.json",
                   help="as tracewise summarize --kernel-rules, at a path every worker can read")
    p.add_argument("paths", nargs="+", metavar="PATH", help="trace files, folders or (quoted) globs")
    a = p.parse_args(argv)
    if a.local is not None and a.local < 1:
        p.error("--local needs 1 worker or more")
    if a.jobs < 1:
        p.error("--jobs needs 1 or more")
    if a.fan_in < 2:
        p.error("--fan-in needs 2 or more")
    a.tracewise = os.path.abspath(a.tracewise)  # the workers' working folder is not ours
    a.kernel_rules = a.kernel_rules and os.path.abspath(a.kernel_rules)
    return a


def client_for(a):
    from distributed import Client, LocalCluster
    if a.scheduler:
        return Client(a.scheduler), None
    # One thread per worker: each task is one CLI process; Dask's own work is small. The dashboard on
    # any free port: its fixed 8787 would clash between runs on one machine.
    cluster = LocalCluster(n_workers=a.local, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cluster), cluster


def main(argv=None):
    a = parse(sys.argv[1:] if argv is None else argv)
    client, cluster = client_for(a)
    try:
        summary = driver.run(client, a.paths, a.tracewise, a.fan_in, a.hta_compat, a.kernel_rules, a.jobs)
    except driver.JobError as e:
        print(e, file=sys.stderr)
        return e.exit_code
    finally:
        client.close()
        if cluster:
            cluster.close()
    if a.output:
        with open(a.output, "wb") as f:
            f.write(summary)
    else:
        sys.stdout.buffer.write(summary)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
