// What the dashboard says of memory and devices when the trace leaves something out
// (web/app/dashboard/memory_words.ts, web/app/device_names.ts): a peak the trace never recorded is
// not shown as "0 B", a device without memory events says so, and a device without a name is named
// by what the trace does give; and a number without a unit in its key gets one (format.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

test('memory peaks: only what the memory events measured', async () => {
  const { memoryPeaks, memoryPeakText } = await loadTs('web/app/dashboard/memory_words.ts');
  const text = (d) => memoryPeakText(memoryPeaks(d));
  // A GPU: allocated and reserved.
  assert.equal(
    text({ device: 1, samples: 9, peak_allocated: 6_629_508_096, peak_reserved: 12_782_141_440 }),
    'peak 6.6 GB allocated, 12.8 GB reserved'
  );
  // The CPU's events carry no reserved memory: the core's 0 is not a measurement.
  assert.equal(
    text({ device: -1, samples: 1240, peak_allocated: 8, peak_reserved: 0 }),
    'peak 8 B allocated (no reserved memory recorded)'
  );
  // No memory event on the device (a step without one, a summary from elsewhere): no numbers at all.
  assert.equal(text({ device: 0, samples: 0, peak_allocated: 0, peak_reserved: 0 }), 'no memory events');
  assert.equal(text({ device: 0 }), 'no memory events');
  assert.equal(text(null), 'no memory events');
  assert.doesNotMatch(text({ device: -1, samples: 3, peak_allocated: 0, peak_reserved: 0 }), /0 B reserved/);
});

test('devices: an unnamed one says its name is not in the trace, with its compute capability', async () => {
  const { devicesLine, deviceName } = await loadTs('web/app/device_names.ts');
  const gpu = (name, cc = '8.0') => ({ id: 0, name, total_global_mem: 1, compute_capability: cc, num_sms: 1 });
  assert.equal(devicesLine([gpu('NVIDIA H800'), gpu('NVIDIA H800')]), 'NVIDIA H800 × 2');
  assert.equal(
    devicesLine(Array.from({ length: 8 }, () => gpu(''))),
    'GPU (no name in trace, compute capability 8.0) × 8'
  );
  assert.equal(devicesLine([gpu('  ', '0.0')]), 'GPU (no name in trace) × 1');
  assert.equal(deviceName({}), 'GPU (no name in trace)');
  assert.equal(devicesLine([gpu('A'), gpu(''), gpu('A')]), 'A × 2, GPU (no name in trace, compute capability 8.0) × 1');
  assert.equal(devicesLine([]), null);
  assert.equal(devicesLine(undefined), null);
});

test("a recommendation's imbalance is a fraction, shown as a percentage", async () => {
  const { fmtField, kindOfKey } = await loadTs('web/app/format.ts');
  assert.equal(kindOfKey('imbalance', 0.42), 'frac');
  assert.equal(fmtField(kindOfKey('imbalance', 0.42), 0.42), '42.0 %');
});
