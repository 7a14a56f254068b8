// Traces made at test time for the timeline's scaling tests (tests/e2e/timeline_many_tracks.test.mjs,
// bench/timeline_tracks.mjs): nothing this large is committed. Written in 1 MB pieces.
import { openSync, writeSync, closeSync } from 'node:fs';

function writer(path) {
  const fd = openSync(path, 'w');
  let buf = '';
  return {
    write(s) {
      buf += s;
      if (buf.length >= 1 << 20) {
        writeSync(fd, buf);
        buf = '';
      }
    },
    close() {
      writeSync(fd, buf);
      closeSync(fd);
    },
  };
}

// `processes` processes (pids 1..n) of `threads` threads each, one 5 µs slice per thread, 1 µs apart.
export function writeManyTracks(path, { processes, threads = 1 }) {
  const w = writer(path);
  w.write('{"traceEvents":[\n');
  let ts = 0;
  for (let p = 1; p <= processes; p++)
    for (let t = 1; t <= threads; t++)
      w.write(`${ts ? ',' : ''}{"ph":"X","name":"op${ts % 7}","pid":${p},"tid":${t},"ts":${ts++},"dur":5}\n`);
  w.write(']}\n');
  w.close();
}

// A few processes whose process, thread and slice names are each `bytes` long (plus short ones
// beside them, so that there is something ordinary to draw too).
export function writeLongNames(path, bytes) {
  const w = writer(path);
  const long = (c) => {
    for (let left = bytes; left > 0; left -= 1 << 20) w.write(c.repeat(Math.min(left, 1 << 20)));
  };
  w.write('{"traceEvents":[\n{"ph":"M","name":"process_name","pid":1,"args":{"name":"');
  long('p');
  w.write('"}},\n{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"');
  long('t');
  w.write('"}},\n{"ph":"X","pid":1,"tid":1,"ts":0,"dur":1000,"name":"');
  long('s');
  w.write('"}');
  for (let i = 0; i < 100; i++)
    w.write(`,\n{"ph":"X","name":"short${i % 5}","pid":${2 + (i % 3)},"tid":1,"ts":${i * 10},"dur":8}`);
  w.write('\n]}\n');
  w.close();
}
