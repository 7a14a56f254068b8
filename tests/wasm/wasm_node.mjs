// Loads the Emscripten 3.1.6 ES6 module in Node 20 (it expects `require` and `__dirname`, and is
// given the wasm bytes directly) and imports files through the same Session API as the web worker.
import { createRequire } from 'node:module';
import { readFileSync, openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createReadStream } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const WASM_DIR = join(here, '..', '..', 'build', 'wasm');
// The native CLI the parity tests compare the wasm build with.
export const NATIVE_CLI = join(here, '..', '..', 'build', 'native', 'tracewise');

export async function loadModule(dir = WASM_DIR) {
  globalThis.require ??= createRequire(import.meta.url);
  globalThis.__dirname ??= dir;
  const { default: create } = await import(pathToFileURL(join(dir, 'tracewise.mjs')).href);
  return create({ wasmBinary: readFileSync(join(dir, 'tracewise.wasm')) });
}

function pushChunk(mod, session, chunk) {
  const ptr = session.stagingBuffer(chunk.length);
  mod.HEAPU8.set(chunk, Number(ptr));
  session.pushStaged(chunk.length);
}

// Imports bytes already in memory, in chunks of `chunkBytes`; returns the finished session.
// `sizeHint`: the input size given up front, as the web worker gives File.size (0: none).
// `afterPush(session)`: called after each chunk, as the web worker's work while it waits for input.
export function importBytes(mod, bytes, name, chunkBytes = 1 << 20, sizeHint = 0, afterPush = null) {
  const session = new mod.Session(name);
  if (sizeHint) session.setSizeHint(sizeHint);
  for (let pos = 0; pos < bytes.length; pos += chunkBytes) {
    pushChunk(mod, session, bytes.subarray(pos, pos + chunkBytes));
    afterPush?.(session);
  }
  session.finish();
  return session;
}

// Imports one file (plain or gzip, detected by magic bytes); returns the finished session.
export async function importFile(mod, path, chunkBytes = 4 << 20) {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  const head = Buffer.alloc(2);
  readSync(fd, head, 0, 2, 0);
  const session = new mod.Session(basename(path));
  if (head[0] === 0x1f && head[1] === 0x8b) {
    closeSync(fd);
    const stream = createReadStream(path).pipe(createGunzip());
    for await (const chunk of stream) pushChunk(mod, session, chunk);
  } else {
    const buf = Buffer.alloc(chunkBytes);
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, pos);
      if (n <= 0) break;
      pushChunk(mod, session, buf.subarray(0, n));
      pos += n;
    }
    closeSync(fd);
  }
  session.setFileBytes(size);
  session.finish();
  return session;
}
