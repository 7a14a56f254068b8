"""The Dask driver (cluster/) against single-machine `tracewise summarize`, on one LocalCluster of 2
worker processes shared by the tests. Run from the repository: python3 -m unittest discover tests/cluster
"""
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
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
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
        self.assertEqual(self.run_job([self.job])[0], summarize(self.job))

    def test_tree_of_merges_and_globs_keep_file_order(self):
        # fan-in 2 over 4 ranks: two levels of merge --digest; the glob and a repeated file are in order.
        ranks = sorted(os.listdir(self.job))
        first = os.path.join(self.job, ranks[0])
        summary, stats = self.run_job([os.path.join(self.job, "rank-*.json"), first], fan_in=2)
        self.assertEqual(summary, summarize(*[os.path.join(self.job, r) for r in ranks], first))
        self.assertEqual(stats["files"], 5)

    def test_one_file_is_its_own_summary(self):
        one = os.path.join(self.job, sorted(os.listdir(self.job))[1])
        self.assertEqual(self.run_job([one])[0], summarize(one))

    def test_unreadable_file_is_the_clis_message(self):
        missing = os.path.join(self.tmp.name, "no-such-rank.json")
        cli = subprocess.run([CLI, "summarize", "--digest", missing], capture_output=True, text=True)
        self.assertEqual(cli.returncode, 1)
        with self.assertRaises(driver.JobError) as e:
            self.run_job([self.job, missing])
        self.assertEqual(str(e.exception), cli.stderr.strip())

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
            f.write(f'#!/bin/sh\nsleep 0.4\nexec "{CLI}" "$@"\n')
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
            summary, _ = driver.run(self.client, [self.job, self.job], slow, fan_in=3, on_result=kill_one,
                                    progress_stream=quiet)
        self.assertEqual(len(killed), 1)
        self.assertEqual(summary, summarize(self.job, self.job))
        self.client.wait_for_workers(2, timeout=60)  # the nanny restarts it, for the tests after this one

    def test_thousand_small_ranks_with_bounded_memory(self):
        folder = os.path.join(self.tmp.name, "ranks")
        rank_files.write_ranks(folder, 1000)
        held = []

        def sample(done):  # how many results (digests, merged digests) the workers hold right now
            if done % 50 == 0:
                held.append(sum(self.client.run(lambda dask_worker: len(dask_worker.data)).values()))

        start = time.monotonic()
        with open(os.devnull, "w") as quiet:
            summary, stats = driver.run(self.client, [folder], CLI, on_result=sample, progress_stream=quiet)
        seconds = time.monotonic() - start
        self.assertEqual(summary, summarize(folder))
        self.assertEqual(stats["files"], 1000)
        self.assertLess(max(held), 250)  # never every digest at once
        print(f"\n  1000 ranks in {seconds:.1f} s; results held on the workers at most {max(held)} "
              f"(sampled every 50 files); peak RSS: summarize --digest {stats['map_rss_kib'] / 1024:.1f} MiB, "
              f"merge {stats['merge_rss_kib'] / 1024:.1f} MiB, this process (client + scheduler) "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB", file=sys.stderr)


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

    def test_usage(self):
        run = subprocess.run([sys.executable, "-m", "cluster", "--local", "2"], cwd=REPO, capture_output=True)
        self.assertEqual(run.returncode, 2)


if __name__ == "__main__":
    unittest.main()
