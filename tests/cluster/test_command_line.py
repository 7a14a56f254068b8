"""`python3 -m cluster` as a user runs it: on its own LocalCluster, on a scheduler and workers started
outside the repository, its output and exit codes."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

from support import CLI, REPO, craft_job, summarize

from distributed import Client


class CommandLineTest(unittest.TestCase):
    def test_local_cluster_to_stdout_and_output(self):
        with tempfile.TemporaryDirectory(prefix="tw-cluster-cli-") as tmp:
            job = craft_job(os.path.join(tmp, "job"), 2)
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
