// Which pages may drive tracewise through postMessage: the page's own origin, and the ones the
// deployment lists in embed-config.json next to index.html ({ "allowedOrigins":
// ["https://docs.example.com", "*"] }). Only the deployment names them: a file on the page's own
// origin, never a parameter of the page's address or of <tracewise-view>, which whoever makes a link
// or embeds the page would set (the very parties the list is about). Local ports are origins like
// any other (another program on the same machine is not trusted by being local). Summaries are only
// ever posted back to the origin that sent the trace.
export interface EmbedConfig {
  allowedOrigins: string[];
}

const kDefault: EmbedConfig = { allowedOrigins: [] };
let configPromise: Promise<EmbedConfig> | null = null;

export function loadEmbedConfig(): Promise<EmbedConfig> {
  configPromise ??= fetch(new URL('embed-config.json', document.baseURI).href, { cache: 'no-cache' })
    .then(async (r) => (r.ok ? parseConfig(await r.json()) : kDefault))
    .catch(() => kDefault);
  return configPromise;
}

// A file without a usable list counts as absent: the page's own origin only.
export function parseConfig(v: unknown): EmbedConfig {
  const list = (v as { allowedOrigins?: unknown })?.allowedOrigins;
  if (!Array.isArray(list)) return kDefault;
  return {
    allowedOrigins: list.filter((x): x is string => typeof x === 'string' && x.length < 300).slice(0, 200),
  };
}

export function originAllowed(origin: string, cfg: EmbedConfig, self: string = location.origin): boolean {
  if (origin === self) return true;
  return cfg.allowedOrigins.includes('*') || cfg.allowedOrigins.includes(origin);
}
