"""The Dask driver (cluster/driver.py) against single-machine `tracewise summarize`, on one LocalCluster
of 2 worker processes shared by the tests: bytes, file order, failures (a killed worker, a crashing CLI,
bad digests, unreadable files) and 1,000 ranks. Run from the repository:
python3 -m unittest discover -s tests/cluster
"""
import contextlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from distributed import Client, LocalCluster

import peak_rss
import rank_files
from support import CLI, NCCL, craft_job, script, summarize

from cluster import driver  # after support, which puts the checkout on sys.path


class ClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="tw-cluster-test-")
        cls.job = craft_job(os.path.join(cls.tmp.name, "job"), 4)
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

    def test_kernel_rules(self):
        rules, bad = os.path.join(self.tmp.name, "rules.json"), os.path.join(self.tmp.name, "bad-rules.json")
        with open(rules, "w") as f:
            f.write('{"rules": [{"pattern": "^ncclKernel_AllReduce", "class": "other"}]}')
        with open(bad, "w") as f:
            f.write('{"rules": [{"pattern": "(", "class": "other"}]}')
        self.assertEqual(self.run_job([self.job], kernel_rules=rules), summarize("--kernel-rules", rules, self.job))
        with self.assertRaises(driver.JobError) as e:  # the CLI's usage error, not retried
            self.run_job([self.job], kernel_rules=bad)
        self.assertEqual(e.exception.exit_code, 2)
        self.assertIn("invalid kernel rules", str(e.exception))

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
            cli = script(os.path.join(self.tmp.name, f"tracewise-{name}"),
                         f'case "$*" in *--digest*rank-2.json) "{CLI}" "$@" | sed \'{edit}\'; exit;; esac\n'
                         f'exec "{CLI}" "$@"\n')
            with open(os.devnull, "w") as quiet, self.assertRaises(driver.JobError) as e:
                driver.run(self.client, [self.job], cli, fan_in=2, progress_stream=quiet)
            self.assertIn(message, str(e.exception))
            self.assertIn(f"the digest of {self.job}/rank-2.json: ", str(e.exception))  # not a temporary file

    def test_paths_that_name_nothing(self):
        empty = os.path.join(self.tmp.name, "no-traces")
        os.makedirs(os.path.join(empty, "sub.json"))  # a folder named like a trace is not one
        for arg, message in [(os.path.join(self.tmp.name, "nothing-*.json"), "no file matches"),
                             (empty, "holds no .json or .json.gz file")]:
            with self.assertRaises(driver.JobError) as e:
                self.run_job([arg])
            self.assertEqual(str(e.exception), f"tracewise cluster: {message} {arg}" if "*" in arg
                             else f"tracewise cluster: the folder {arg} {message}")

    def test_worker_killed_mid_run_gives_the_same_bytes(self):
        # A slow CLI keeps tasks running when the worker dies; the killed worker also holds the first
        # digest, which Dask must compute again.
        slow = os.path.join(self.tmp.name, "slow-tracewise")
        script(slow, f'echo "$1" >> "{slow}.log"\nsleep 0.4\nexec "{CLI}" "$@"\n')
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
            cli = script(os.path.join(self.tmp.name, f"tracewise-crash-{name}"),  # the trace: the last argument
                         f'for trace; do :; done\nif [ "$1" = summarize ] && {crash_if}; then '
                         f'touch "{marks}/$(basename "$trace")"; kill -SEGV $$; fi\nexec "{CLI}" "$@"\n')
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


if __name__ == "__main__":
    unittest.main()
