"""Tiny valid Kineto rank traces of one job, for the cluster tests and bench/cluster_bench.py.

Each rank: STEPS profiler steps, each an aten::mm launching a GEMM kernel and an all-reduce over every
rank (record_param_comms + its NCCL kernel, with the args the job analysis matches collectives by).
Rank r's kernels start r microseconds later, so the ranks differ and the job has a straggler to find.
"""
import json
import os


def rank_trace(rank, world, steps=3, pad_ops=0):
    events, t, corr = [], 1_000_000.0 + rank, 100
    pid, tid = 4000 + rank, 4100 + rank
    comm = {"Collective name": "allreduce", "In msg nelems": 1 << 20, "Out msg nelems": 1 << 20,
            "Group size": world, "dtype": "Float", "Process Group Name": "0",
            "Process Group Ranks": json.dumps(list(range(world)))}
    for s in range(steps):
        events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{s}", "pid": pid, "tid": tid,
                       "ts": t, "dur": 900.0, "args": {}})
        for k, (op, kernel, dur, args) in enumerate(
                [("aten::mm", "ampere_sgemm_128x64_tn", 300.0, {}),
                 ("record_param_comms", "ncclKernel_AllReduce_RING_LL_Sum_float", 200.0 + rank, comm)]
                + [("aten::add", "elementwise_kernel", 5.0, {})] * pad_ops):
            corr += 1
            start = t + 10 + k * 400
            events.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": pid, "tid": tid, "ts": start,
                           "dur": 30.0, "args": dict(args, **{"External id": corr})})
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid, "tid": tid,
                           "ts": start + 5, "dur": 8.0, "args": {"External id": corr, "correlation": corr}})
            events.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 7 + (k == 1),
                           "ts": start + 20, "dur": dur,
                           "args": dict(args, **{"External id": corr, "correlation": corr, "device": 0,
                                                 "stream": 7 + (k == 1)})})
        t += 1000.0
    return {"schemaVersion": 1,
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world},
            "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8, "computeMinor": 0}],
            "traceEvents": events}


def write_ranks(folder, world, steps=3, pad_ops=0):
    """Writes rank-00000.json ... into folder (made if missing); returns their paths in name order."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for r in range(world):
        paths.append(os.path.join(folder, f"rank-{r:05d}.json"))
        with open(paths[-1], "w") as f:
            json.dump(rank_trace(r, world, steps, pad_ops), f)
    return paths
