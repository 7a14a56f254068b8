"""The Dask driver (cluster/) against single-machine `tracewise summarize`, on one LocalCluster of 2
worker processes shared by the tests. Run from the repository: python3 -m unittest discover tests/cluster
"""
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [REPO, os.path.dirname(os.path.abspath(__file__))]

from distributed import Client, LocalCluster  # noqa: E402

from cluster import driver  # noqa: E402
import peak_rss  # noqa: E402
import rank_files  # noqa: E402

CLI = os.path.join(REPO, "build", "native", "tracewise")
CRAFT = os.path.join(REPO, "build", "native", "tw_craft_job")
NCCL = os.path.join(REPO, "tests", "data", "hta", "tests", "data", "nccl_parser_config", "nccl_data.json.gz")


def summarize(*paths):
    return subprocess.run([CLI, "summarize", *paths], check=True, capture_output=True).stdout


class ClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="tw-cluster-test-")
        cls.job = os.path.join(cls.tmp.name, "job")
        os.mkdir(cls.job)
        subprocess.run([CRAFT, NCCL, cls.job, "4"], check=True, capture_output=True)
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()

    def run_job(self, paths, **kw):
        with open(os.devnull, "w") as quiet:
            return driver.run(self.client, paths, CLI, progress_stream=quiet, **kw)

    def test_folder_gives_the_bytes_of_summarize(self):
        self.assertEqual(self.run_job([self.job]), summarize(self.job))

    def test_tree_of_merges_and_globs_keep_file_order(self):
        # fan-in 2 over 4 ranks: two levels of merge --digest; the glob and a repeated file are in order.
        ranks = sorted(os.listdir(self.job))
        first = os.path.join(self.job, ranks[0])
        summary = self.run_job([os.path.join(self.job, "rank-*.json"), first], fan_in=2)
        self.assertEqual(summary, summarize(*[os.path.join(self.job, r) for r in ranks], first))

    def test_one_file_is_its_own_summary(self):
        one = os.path.join(self.job, sorted(os.listdir(self.job))[1])
        self.assertEqual(self.run_job([one]), summarize(one))
        self.assertEqual(self.run_job([NCCL]), summarize(NCCL))  # .json.gz

    def test_hta_compat(self):
        self.assertEqual(self.run_job([self.job], hta_compat=True), summarize("--hta-compat", self.job))

    def test_unreadable_file_is_the_clis_message(self):
        missing = os.path.join(self.tmp.name, "no-such-rank.json")
        cli = subprocess.run([CLI, "summarize", "--digest", missing], capture_output=True, text=True)
        self.assertEqual(cli.returncode, 1)
        with self.assertRaises(driver.JobError) as e:
            self.run_job([self.job, missing])
        self.assertEqual(str(e.exception), cli.stderr.strip())

    def test_a_worker_with_another_cli_gives_the_merge_error(self):
        # rank-2's digest comes from "another version" or is cut short, as from a worker with another
        # CLI or a damaged transfer: the job stops with merge's sentence, not a traceback.
        cases = [("other", 's/"tracewise":"[^"]*"}$/"tracewise":"0.0.1"}/', "a digest of tracewise 0.0.1"),
                 ("short", 's/,"records":.*$/}/', "not a tracewise digest")]
        for name, edit, message in cases:
            cli = os.path.join(self.tmp.name, f"tracewise-{name}")
            with open(cli, "w") as f:
                f.write(f'#!/bin/sh\ncase "$*" in *--digest*rank-2.json) "{CLI}" "$@" | sed \'{edit}\'; exit;; esac\n'
                        f'exec "{CLI}" "$@"\n')
            os.chmod(cli, 0o755)
            with open(os.devnull, "w") as quiet, self.assertRaises(driver.JobError) as e:
                driver.run(self.client, [self.job], cli, fan_in=2, progress_stream=quiet)
            self.assertIn(message, str(e.exception))
            self.assertIn(f"the digest of {self.job}/rank-2.json: ", str(e.exception))  # not a temporary file

    def test_paths_that_name_nothing(self):
        for arg, message in [("nothing-*.json", "no file matches"), (self.tmp.name, "holds no .json")]:
            with self.assertRaises(driver.JobError) as e:
                self.run_job([os.path.join(self.tmp.name, arg)] if "*" in arg else [arg])
            self.assertIn(message, str(e.exception))

    def test_worker_killed_mid_run_gives_the_same_bytes(self):
        # A slow CLI keeps tasks running when the worker dies; the killed worker also holds the first
        # digest, which Dask must compute again.
        slow = os.path.join(self.tmp.name, "slow-tracewise")
        with open(slow, "w") as f:
            f.write(f'#!/bin/sh\necho "$1" >> "{slow}.log"\nsleep 0.4\nexec "{CLI}" "$@"\n')
        os.chmod(slow, 0o755)
        killed = []

        def kill_one(done):
            if done != 1:
                return
            holders = {w for ws in self.client.who_has().values() for w in ws}
            busy = {w for w, keys in self.client.processing().items() if keys}
            victim = sorted(holders & busy or busy or holders)[0]
            pid = self.client.run(os.getpid, workers=[victim])[victim]
            os.kill(pid, signal.SIGKILL)
            killed.append(victim)

        with open(os.devnull, "w") as quiet:
            summary = driver.run(self.client, [self.job, self.job], slow, fan_in=3, on_result=kill_one,
                                    progress_stream=quiet)
        self.assertEqual(len(killed), 1)
        with open(slow + ".log") as f:  # 8 files: the task the worker was running ran again
            self.assertGreater(f.read().split().count("summarize"), 8)
        self.assertEqual(summary, summarize(self.job, self.job))
        self.client.wait_for_workers(2, timeout=60)  # the nanny restarts it, for the tests after this one

    def test_crashed_cli_is_run_again(self):
        # Each file's first `summarize --digest` dies of SIGSEGV: Dask's retries give the same bytes. A
        # CLI that always crashes ends, after the driver's resubmissions, in a message, not a hang.
        marks = os.path.join(self.tmp.name, "crashed")
        os.mkdir(marks)
        for name, crash_if in [("once", f'[ ! -e "{marks}/$(basename "$trace")" ]'), ("always", "true")]:
            cli = os.path.join(self.tmp.name, f"tracewise-crash-{name}")
            with open(cli, "w") as f:  # the trace is the last argument
                f.write(f'#!/bin/sh\nfor trace; do :; done\nif [ "$1" = summarize ] && {crash_if}; then '
                        f'touch "{marks}/$(basename "$trace")"; kill -SEGV $$; fi\nexec "{CLI}" "$@"\n')
            os.chmod(cli, 0o755)
            with open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):
                if name == "once":
                    summary = driver.run(self.client, [self.job], cli, progress_stream=quiet)
                    self.assertEqual(summary, summarize(self.job))
                    self.assertEqual(len(os.listdir(marks)), 4)
                    continue
                with self.assertRaises(driver.JobError) as e:
                    driver.run(self.client, [self.job], cli, progress_stream=quiet)
            self.assertIn("the job failed after 2 resubmissions: CliCrash", str(e.exception))
            self.assertIn("exited with -11", str(e.exception))

    def test_thousand_small_ranks_with_bounded_memory(self):
        folder = os.path.join(self.tmp.name, "ranks")
        rank_files.write_ranks(folder, 1000)
        cli, log = peak_rss.wrapper(self.tmp.name, CLI)
        held = []

        def sample(done):  # the results (digests, merged digests) in the workers' memory right now
            if done % 25 == 0:
                held.append(self.client.run_on_scheduler(
                    lambda dask_scheduler: sum(ts.state == "memory" for ts in dask_scheduler.tasks.values())))

        start = time.monotonic()
        with open(os.devnull, "w") as quiet:
            summary = driver.run(self.client, [folder], cli, on_result=sample, progress_stream=quiet)
        seconds = time.monotonic() - start
        self.assertEqual(summary, summarize(folder))
        peaks, runs = peak_rss.peaks_mib(log)
        own_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        self.assertEqual(runs, {"summarize --digest": 1000, "merge --digest": 67, "merge (last)": 1})
        self.assertLess(max(held), 150)  # never every digest at once: ~K per level still filling
        print(f"\n  1000 ranks ({len(summary) / 1e6:.1f} MB summary) in {seconds:.1f} s; results in the "
              f"workers' memory at most {max(held)} (sampled every 25 files); peak RSS of one CLI process: "
              + ", ".join(f"{k} {v:.1f} MiB" for k, v in sorted(peaks.items()))
              + f"; this process (client + scheduler) {own_rss_kib / 1024:.0f} MiB",
              file=sys.stderr)


class CommandLineTest(unittest.TestCase):
    def test_local_cluster_to_stdout_and_output(self):
        with tempfile.TemporaryDirectory(prefix="tw-cluster-cli-") as tmp:
            job = os.path.join(tmp, "job")
            os.mkdir(job)
            subprocess.run([CRAFT, NCCL, job, "2"], check=True, capture_output=True)
            cmd = [sys.executable, "-m", "cluster", "--local", "2", "--tracewise", CLI]
            run = subprocess.run(cmd + [job], cwd=REPO, capture_output=True, timeout=120)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(run.stdout, summarize(job))
            self.assertIn(b"2/2 files", run.stderr)
            out = os.path.join(tmp, "summary.json")
            missing = os.path.join(tmp, "missing.json")
            bad = subprocess.run(cmd + ["--output", out, job, missing], cwd=REPO, capture_output=True, timeout=120)
            self.assertEqual(bad.returncode, 1)
            self.assertIn(b"missing.json", bad.stderr)
            self.assertFalse(os.path.exists(out))

    def test_scheduler_whose_workers_do_not_have_the_package(self):
        # As on Slurm or Kubernetes: dask-scheduler and dask-worker started on their own, outside the
        # repository, so the tasks must bring their code (cloudpickle by value).
        with tempfile.TemporaryDirectory(prefix="tw-cluster-sched-") as tmp:
            info = os.path.join(tmp, "scheduler.json")
            env = dict(os.environ, PYTHONPATH="", PYTHONWARNINGS="ignore")
            quiet = dict(cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs = [subprocess.Popen(["/usr/bin/dask-scheduler", "--scheduler-file", info, "--port", "0",
                                       "--dashboard-address", ":0"], **quiet)]
            try:
                procs.append(subprocess.Popen(["/usr/bin/dask-worker", "--scheduler-file", info, "--nthreads", "1",
                                               "--nworkers", "2"], **quiet))
                deadline = time.monotonic() + 60
                while not os.path.exists(info) and time.monotonic() < deadline:
                    time.sleep(0.1)
                with open(info) as f:
                    address = json.load(f)["address"]
                with Client(address) as client:
                    client.wait_for_workers(2, timeout=60)
                    self.assertFalse(any(client.run(lambda: __import__("importlib.util").util.find_spec("cluster")
                                                    is not None).values()))
                job = os.path.join(REPO, "tests", "data", "hta", "tests", "data", "nccl_parser_config")
                run = subprocess.run([sys.executable, "-m", "cluster", "--scheduler", address, job], cwd=REPO,
                                     capture_output=True, timeout=120)
                self.assertEqual(run.returncode, 0, run.stderr)
                self.assertEqual(run.stdout, summarize(job))
            finally:
                for p in reversed(procs):
                    p.terminate()
                    p.wait(timeout=30)

    def test_usage(self):
        run = subprocess.run([sys.executable, "-m", "cluster", "--local", "2"], cwd=REPO, capture_output=True)
        self.assertEqual(run.returncode, 2)


if __name__ == "__main__":
    unittest.main()
