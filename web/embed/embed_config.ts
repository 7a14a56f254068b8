// Which pages may drive tracewise through postMessage. Deployers set it in embed-config.json next to
// index.html: { "allowedOrigins": ["https://docs.example.com", "*"] }. Without the file, the page's
// own origin and local development origins (http://localhost:*, http://127.0.0.1:*) are allowed;
// with it, the page's own origin and exactly the listed ones (a deployment that lists origins means
// it, also for local ports). Summaries are only ever posted back to the origin that sent the trace.
export interface EmbedConfig {
  allowedOrigins: string[];
  configured: boolean;
}

const kDefault: EmbedConfig = { allowedOrigins: [], configured: false };
let configPromise: Promise<EmbedConfig> | null = null;

export function loadEmbedConfig(): Promise<EmbedConfig> {
  configPromise ??= fetch(new URL('embed-config.json', document.baseURI).href, { cache: 'no-cache' })
    .then(async (r) => (r.ok ? parseConfig(await r.json()) : kDefault))
    .catch(() => kDefault);
  return configPromise;
}

// A file without a usable list counts as absent (a typo must not lock the page's own tools out).
export function parseConfig(v: unknown): EmbedConfig {
  const list = (v as { allowedOrigins?: unknown })?.allowedOrigins;
  if (!Array.isArray(list)) return kDefault;
  return {
    allowedOrigins: list.filter((x): x is string => typeof x === 'string' && x.length < 300).slice(0, 200),
    configured: true,
  };
}

export function isLocalOrigin(origin: string): boolean {
  return /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);
}

export function originAllowed(origin: string, cfg: EmbedConfig, self: string = location.origin): boolean {
  if (origin === self) return true;
  if (!cfg.configured) return isLocalOrigin(origin);
  return cfg.allowedOrigins.includes('*') || cfg.allowedOrigins.includes(origin);
}
