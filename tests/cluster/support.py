"""What the cluster tests share: the repository's paths, the reference CLI run, small CLI wrappers."""
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [REPO]  # the tests import cluster/ from this checkout

CLI = os.path.join(REPO, "build", "native", "tracewise")
CRAFT = os.path.join(REPO, "build", "native", "tw_craft_job")
NCCL = os.path.join(REPO, "tests", "data", "hta", "tests", "data", "nccl_parser_config", "nccl_data.json.gz")


def summarize(*paths):
    """The reference: single-machine `tracewise summarize`'s bytes."""
    return subprocess.run([CLI, "summarize", *paths], check=True, capture_output=True).stdout


def craft_job(folder, ranks):
    """A job of `ranks` rank files made from HTA's nccl_data.json.gz (tests/tools/craft_job.cc)."""
    os.mkdir(folder)
    subprocess.run([CRAFT, NCCL, folder, str(ranks)], check=True, capture_output=True)
    return folder


def script(path, body):
    """An executable /bin/sh script (a CLI wrapper that slows, crashes or alters the real one)."""
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path
