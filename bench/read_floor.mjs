// The read floor of the browser benchmarks (browser_bench.mjs, thread_cpu.mjs), run in a Worker
// made from a Blob URL, two ways. `cheapest` is the cheapest way we know to read the file in a
// page, the floor the targets are measured against: a plain file read (BYOB) into one reused 2 MB
// buffer, as the page's reader does (web/load/input/blob_stream.ts); gzip: one Blob.stream() piped
// through DecompressionStream. `stream` reads one Blob.stream() with its default reader (the
// browser's own ~64 KB chunks): the naive floor, kept for comparison (far slower on a plain file).
const FLOOR_WORKER = `
onmessage = async (ev) => {
  const { file, way } = ev.data;
  const t0 = performance.now();
  let raw = 0, out = 0;
  try {
    const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
    const gzip = head[0] === 0x1f && head[1] === 0x8b;
    raw = file.size;
    if (way === 'cheapest' && !gzip) {
      const r = file.stream().getReader({ mode: 'byob' });
      let buf = new ArrayBuffer(2 << 20), filled = 0;
      for (;;) {
        const { done, value } = await r.read(new Uint8Array(buf, filled));
        if (done) break;
        out += value.length;
        buf = value.buffer;
        filled = (filled + value.length) % buf.byteLength;
      }
    } else {
      const r = (gzip ? file.stream().pipeThrough(new DecompressionStream('gzip')) : file.stream()).getReader();
      for (;;) { const { done, value } = await r.read(); if (done) break; out += value.length; }
    }
    if (!gzip) raw = out;
    postMessage({ ms: performance.now() - t0, raw, out, gzip });
  } catch (e) { postMessage({ error: String(e) }); }
};`;

// Reads `path` `way` in a blank page beside `page` (same browser and context): the app's
// Content-Security-Policy (worker-src 'self') refuses a worker made from a Blob URL, and a floor
// read that crashes its renderer leaves the app's page alive. Timed from the setInputFiles call to
// the worker's reply (`s`) and within the worker (`inWorkerS`). `around` wraps the read alone
// (after the file is set), e.g. to measure its CPU (thread_cpu.mjs).
export async function readFloor(appPage, path, way, around = (read) => read()) {
  const page = await appPage.context().newPage();
  try {
    return await readIn(page, path, way, around);
  } finally {
    await page.close().catch(() => {});
  }
}

async function readIn(page, path, way, around) {
  await page.setContent('<!doctype html><title>read floor</title>');
  await page.evaluate(() => {
    let i = document.getElementById('bench-input');
    if (!i) {
      i = document.createElement('input');
      i.type = 'file';
      i.id = 'bench-input';
      i.style.display = 'none';
      document.body.append(i);
    }
    i.value = '';
    window.__benchFloor = new Promise((ok) => i.addEventListener('change', () => ok(i.files[0]), { once: true }));
  });
  const t0 = Date.now();
  await page.setInputFiles('#bench-input', path);
  const r = await around(() =>
    page.evaluate(
      async ([src, way]) => {
        const file = await window.__benchFloor;
        const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
        const res = await new Promise((ok) => {
          w.onmessage = (e) => ok(e.data);
          w.onerror = (e) => ok({ error: e.message || 'worker error' });
          w.postMessage({ file, way });
        });
        w.terminate();
        return res;
      },
      [FLOOR_WORKER, way]
    )
  );
  if (r.error) throw new Error(`read floor: ${r.error}`);
  return { s: (Date.now() - t0) / 1000, inWorkerS: r.ms / 1000, ...r };
}
