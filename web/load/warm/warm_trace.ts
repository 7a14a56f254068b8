// A synthetic Kineto trace for a spare worker's warm-up (warm_up.ts): a few hundred training steps
// of one rank with what real traces hold (nested CPU ops, kernel launches and their kernels linked
// by correlation and ac2g flows, fwd/bwd flows, memcpy, NCCL collectives with their args, host
// syncs, data loading, [memory] samples, a counter, process/thread metadata, device properties),
// written with Kineto's indentation so the importer's common paths all run. Only the code it
// exercises matters, not its numbers: nothing about it is ever shown.

const kPid = 4242;
const kThread = 4243;
const kStream = 7;
const kCommStream = 20;

function ev(fields: string, args?: string): string {
  return args === undefined
    ? `  {\n    ${fields}\n  }`
    : `  {\n    ${fields},\n    "args": {\n      ${args}\n    }\n  }`;
}

function us(ns: number): string {
  return (ns / 1000).toFixed(3);
}

// 64 distinct kernel names, as a real model has tens to hundreds: the summary classifies and ranks
// each name on its own.
const kKernelKinds = [
  'void gemm_kernel<float, %>(Params)',
  'void at::native::vectorized_elementwise_kernel<%, at::native::AddFunctor<float> >(int, at::native::AddFunctor<float>, std::array<char*, 2ul>)',
  'void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_%x128_32x3_nn_align4>(Params)',
  'void at::native::reduce_kernel<512, %>(at::native::ReduceOp<float>)',
];
const kernelName = (k: number) => kKernelKinds[k % 4].replace('%', String((k >> 2) % 16));

// About 35 k events and 8 MB of JSON for the default 300 steps.
export function warmTraceText(steps = 300): string {
  return [...warmTracePieces(steps)].join('');
}

// The same text in pieces of `stepsPerPiece` steps' events (the first with the file's head, the last
// with its metadata and end): a worker makes it a piece per task, so that a file opened meanwhile
// waits for one piece, not for the whole text (slow to make before the page's JavaScript is
// optimised, as it is on a first visit).
export function* warmTracePieces(steps = 300, stepsPerPiece = 20): Generator<string> {
  let out: string[] = [];
  let first = true;
  // The events so far as text, joined as the whole file joins them; `out` starts again.
  const piece = (): string => {
    const text = (first ? kHead : ',\n') + out.join(',\n');
    first = false;
    out = [];
    return text;
  };
  const cpu = (name: string, ts: number, dur: number, ext: number, cat = 'cpu_op') =>
    out.push(
      ev(
        `"ph": "X", "cat": "${cat}", "name": "${name}", "pid": ${kPid}, "tid": ${kThread},\n    "ts": ${us(ts)}, "dur": ${us(dur)}`,
        `"External id": ${ext},"Record function id": 0, "Ev Idx": ${ext % 4096}`
      )
    );
  let t = 1_700_000_000_000_000; // ns
  let corr = 1;
  let ext = 1;
  let allocated = 1 << 30;
  for (let step = 0; step < steps; step++) {
    const stepStart = t;
    const stepDur = 2_000_000;
    cpu(`ProfilerStep#${step}`, stepStart, stepDur, ext++, 'user_annotation');
    // Out of time order on their track, as in real files, so finish() sorts and merges for real:
    // every other step lists its data loading after its first op; every tenth lists two kernels the
    // other way round and swaps two launches' correlation ids (a few runs to merge, not a shuffle).
    const loader = () =>
      cpu('enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__', stepStart + 1_000, 40_000, ext++);
    if (step % 2 === 0) loader();
    t += 50_000;
    let heldKernel = '';
    for (let op = 0; op < 12; op++) {
      const name = ['aten::linear', 'aten::conv2d', 'aten::relu', 'aten::add_'][op % 4];
      const opStart = t;
      cpu(name, opStart, 60_000, ext++);
      cpu('aten::mm', opStart + 2_000, 50_000, ext++);
      // The launch, its kernel on the compute stream, and the ac2g flow between them.
      const launch = opStart + 5_000;
      const kernelStart = launch + 30_000 + (op % 3) * 1_000;
      const c = corr + (step % 10 === 5 && op === 3 ? 1 : step % 10 === 5 && op === 4 ? -1 : 0);
      out.push(
        ev(
          `"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": ${kPid}, "tid": ${kThread},\n    "ts": ${us(launch)}, "dur": ${us(4_000)}`,
          `"External id": ${ext},"cbid": 211, "correlation": ${c}`
        )
      );
      const kernel = ev(
        `"ph": "X", "cat": "kernel", "name": "${kernelName(step * 12 + op)}", "pid": 0, "tid": ${kStream},\n    "ts": ${us(kernelStart)}, "dur": ${us(25_000 + op * 500)}`,
        `"External id": ${ext},"queued": 0, "device": 0, "context": 1, "stream": ${kStream}, "correlation": ${c}, "registers per thread": 128, ` +
          `"shared memory": 49152, "blocks per SM": 1.5, "warps per SM": 12, "grid": [${64 + op}, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 25`
      );
      if (step % 10 === 0 && op === 5)
        heldKernel = kernel; // listed after the next one
      else out.push(kernel);
      if (heldKernel && op === 6) out.push(heldKernel);
      out.push(
        ev(
          `"ph": "s", "id": ${c}, "pid": ${kPid}, "tid": ${kThread}, "ts": ${us(launch)},\n    "cat": "ac2g", "name": "ac2g"`
        )
      );
      out.push(
        ev(
          `"ph": "f", "id": ${c}, "pid": 0, "tid": ${kStream}, "ts": ${us(kernelStart)},\n    "cat": "ac2g", "name": "ac2g", "bp": "e"`
        )
      );
      out.push(
        ev(
          `"ph": "s", "id": ${ext}, "pid": ${kPid}, "tid": ${kThread}, "ts": ${us(opStart)},\n    "cat": "fwdbwd", "name": "fwdbwd"`
        )
      );
      out.push(
        ev(
          `"ph": "f", "id": ${ext}, "pid": ${kPid}, "tid": ${kThread}, "ts": ${us(opStart + 2_000)},\n    "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"`
        )
      );
      corr++;
      ext++;
      out.push(
        ev(
          `"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": ${kPid}, "tid": ${kThread},\n    "ts": ${us(opStart + 3_000)}`,
          `"Total Reserved": ${2 * 2 ** 30}, "Total Allocated": ${(allocated += op % 2 ? 4096 : -4096)}, "Bytes": 4096, "Addr": ${1e12 + op}, "Device Type": 1, "Device Id": 0`
        )
      );
      t += 70_000;
      if (op === 0 && step % 2 === 1) loader();
    }
    // A host-to-device copy (from pageable memory, long enough for its rule: 1.5% of the step), a
    // collective on the communication stream, and a host sync.
    const copy = t;
    out.push(
      ev(
        `"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": ${kPid}, "tid": ${kThread},\n    "ts": ${us(copy)}, "dur": ${us(6_000)}`,
        `"External id": ${ext},"cbid": 41, "correlation": ${corr}`
      )
    );
    out.push(
      ev(
        `"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": ${kStream},\n    "ts": ${us(copy + 20_000)}, "dur": ${us(30_000)}`,
        `"External id": ${ext},"device": 0, "context": 1, "stream": ${kStream}, "correlation": ${corr}, "bytes": 1048576, "memory bandwidth (GB/s)": 34.95`
      )
    );
    corr++;
    const comm = t + 40_000;
    out.push(
      ev(
        `"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": ${kPid}, "tid": ${kThread},\n    "ts": ${us(comm)}, "dur": ${us(5_000)}`,
        `"External id": ${ext},"cbid": 211, "correlation": ${corr}`
      )
    );
    out.push(
      ev(
        `"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "pid": 0, "tid": ${kCommStream},\n    "ts": ${us(comm + 10_000)}, "dur": ${us(400_000)}`,
        `"External id": ${ext},"queued": 0, "device": 0, "context": 1, "stream": ${kCommStream}, "correlation": ${corr}, "registers per thread": 96, ` +
          `"shared memory": 0, "grid": [2, 1, 1], "block": [512, 1, 1], "Collective name": "allreduce", "In msg nelems": 4194304, ` +
          `"Out msg nelems": 4194304, "Group size": 2, "dtype": "Float", "Process Group Name": "0", "Process Group Description": "default_pg", "Process Group Ranks": "[0, 1]"`
      )
    );
    corr++;
    ext++;
    cpu('Optimizer.step#SGD.step', t + 60_000, 300_000, ext++);
    out.push(
      ev(
        `"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": ${kPid}, "tid": ${kThread},\n    "ts": ${us(t + 400_000)}, "dur": ${us(300_000)}`,
        `"External id": ${ext},"cbid": 165, "correlation": ${corr++}`
      )
    );
    out.push(
      ev(`"ph": "C", "name": "queue depth", "pid": ${kPid}, "tid": ${kThread}, "ts": ${us(t)}`, `"value": ${step % 5}`)
    );
    t = stepStart + stepDur + 100_000;
    if ((step + 1) % stepsPerPiece === 0 && step + 1 < steps) yield piece();
  }
  const meta = (name: string, pid: number, tid: number, value: string) =>
    ev(`"name": "${name}", "ph": "M", "ts": 0, "pid": ${pid}, "tid": ${tid}`, `"name": "${value}"`);
  out.push(
    meta('process_name', kPid, 0, 'python3'),
    meta('thread_name', kPid, kThread, 'thread 4243 (python3)'),
    meta('process_name', 0, 0, 'CUDA GPU 0'),
    meta('thread_name', 0, kStream, 'stream 7'),
    meta('thread_name', 0, kCommStream, 'stream 20')
  );
  yield piece() + `\n  ],\n  "traceName": "warm-up", "displayTimeUnit": "ms"\n}\n`;
}

// The properties of 8 devices with Kineto's fields, as a real file of an 8-GPU host lists them.
const device = (id: number) =>
  `    {\n      "id": ${id}, "name": "Warm-up GPU", "totalGlobalMem": 42297524224,\n` +
  `      "computeMajor": 8, "computeMinor": 0,\n      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n` +
  `      "regsPerBlock": 65536, "warpSize": 32,\n      "sharedMemPerBlock": 49152, "numSms": 108\n` +
  `    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912, "sharedMemPerMultiprocessor": 167936\n    }`;
const kHead =
  `{\n  "schemaVersion": 1,\n  "deviceProperties": [\n${[0, 1, 2, 3, 4, 5, 6, 7].map(device).join(',\n')}\n  ],\n` +
  `  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},\n  "traceEvents": [\n`;
