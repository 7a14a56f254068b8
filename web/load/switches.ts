// Speed mechanisms a comparison build leaves out, for the A/B runs that decide whether each one stays
// (docs/performance.md): `node web/build.mjs --without parts,spare --out build/site-b` defines
// TW_WITHOUT (esbuild `define`). The site users get leaves nothing out; node tests see no build.
export const kMechanisms = [
  'feed', // the file read (and inflated) in a feed worker (feed/)
  'inflate', // gzip inflated in the feed worker by the core's inflater (wasm) instead of DecompressionStream
  'parts', // a large plain file imported in parts (parts/)
  'spare', // a trace worker started and warmed while the page is idle (page/spare.ts)
  'warm-up', // the spare's synthetic trace through import, finish() and the summary (warm/warm_up.ts)
] as const;
export type Mechanism = (typeof kMechanisms)[number];

declare const TW_WITHOUT: string; // comma-separated Mechanism names, defined by web/build.mjs
const off: readonly string[] = typeof TW_WITHOUT === 'string' ? TW_WITHOUT.split(',') : [];

export const without = (m: Mechanism): boolean => off.includes(m);
