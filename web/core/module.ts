// Loads the wasm core (tracewise.mjs + tracewise.wasm beside this script), once per worker.
import type { CoreModule } from './bindings';
let modPromise: Promise<CoreModule> | null = null;
let loaded: CoreModule | null = null;

export class ModuleLoadError extends Error {}

export function loadModule(): Promise<CoreModule> {
  modPromise ??= (async () => {
    const base = self.location.href;
    const wasm = await fetch(new URL('tracewise.wasm', base).href);
    if (!wasm.ok) throw new ModuleLoadError(`Could not load the analyzer (tracewise.wasm: ${wasm.status}).`);
    const factoryUrl = new URL('tracewise.mjs', base).href;
    const { default: create } = await import(factoryUrl);
    // A module worker is neither "web" nor "worker" to Emscripten 3.1.6: hand it the bytes.
    loaded = await create({ wasmBinary: await wasm.arrayBuffer() });
    return loaded!;
  })();
  return modPromise;
}

// The module once it has loaded, else null (to tell a failure that ran out of its memory).
export const moduleIfLoaded = (): CoreModule | null => loaded;
