// A hand-made call tree document as the core writes it (Session.callTreeJson): two threads, an op
// called from three places, GPU time attributed through a launch. Columns, parents first; the
// children of thread A come in the core's order backward, forward (left-heavy puts forward first).
//   0 A root (track 3)          total 100 self  5  gpu 40
//   1   backward                total  30 self  5  gpu  0
//   2     aten::mm              total  25 self 25  gpu  0
//   3   forward                 total  60 self 10  gpu 40
//   4     aten::mm (count 2)    total  30 self 20  gpu 30 (gpu self 0)
//   5       cudaLaunchKernel    total  10 self 10  gpu 30 (gpu self 30)
//   6     aten::relu            total  20 self 20  gpu 10 (gpu self 10)
//   7 B root (track 5)          total  50 self  0  gpu 20
//   8   aten::mm                total  50 self 50  gpu 20 (gpu self 20)
export const names = [
  'python 1 / thread MainThread 1',
  'backward',
  'aten::mm',
  'forward',
  'cudaLaunchKernel',
  'aten::relu',
  'python 1 / thread bwd 2',
];
export const doc = {
  kind: 'top_down',
  range: null,
  gpu_unlinked_ns: 7,
  gpu_unlinked_ops: 1,
  names,
  nodes: {
    parent: [-1, 0, 1, 0, 3, 4, 3, -1, 7],
    name: [0, 1, 2, 3, 2, 4, 5, 6, 2],
    track: [3, 3, 3, 3, 3, 3, 3, 5, 5],
    depth: [0, 1, 2, 1, 2, 3, 2, 0, 1],
    count: [1, 1, 1, 1, 2, 2, 1, 1, 1],
    total_ns: [100, 30, 25, 60, 30, 10, 20, 50, 50],
    self_ns: [5, 5, 25, 10, 20, 10, 20, 0, 50],
    gpu_ns: [40, 0, 0, 40, 30, 30, 10, 20, 20],
    gpu_self_ns: [0, 0, 0, 0, 0, 30, 10, 0, 20],
  },
};
export const json = JSON.stringify(doc);
