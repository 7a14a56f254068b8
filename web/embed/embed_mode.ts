// Embed mode (index.html?embed=1, which embed.html redirects to): the page without its top bar,
// showing only the chosen panels, in a fixed light or dark theme, the timeline fitted to the frame's
// height (fit_timeline.ts), reporting its content height to the parent so the iframe can fit it.
// Parameters (all optional, validated):
//   panels=cards,chart,table,timeline,recommendations,<any dashboard section id>
//   theme=light|dark            range=<t0_ns>-<t1_ns> (absolute trace ns, as in the summary)
import type { AppApi } from '../app/app_api';
import { fitTimelineToFrame, type TimelineFit } from './fit_timeline';

export interface EmbedOptions {
  panels: string[] | null;
  theme: 'light' | 'dark' | null;
  range: { t0: string; t1: string } | null;
}

// Panel names -> selectors of the dashboard (web/app/dashboard: .cards and [data-section=...]).
const kAliases: Record<string, string[]> = {
  cards: ['.cards'],
  chart: ['[data-section="utilization"]', '[data-section="memory-chart"]', '[data-section="temporal"]'],
  charts: ['[data-section="utilization"]', '[data-section="memory-chart"]', '[data-section="temporal"]'],
  table: ['[data-section="kernels"]'],
  facts: ['.file-head'],
};

export function isEmbedMode(loc: Location = location): boolean {
  return new URLSearchParams(loc.search).get('embed') === '1';
}

export function readEmbedOptions(search: string): EmbedOptions {
  const p = new URLSearchParams(search);
  const panelsRaw = p.get('panels');
  const panels =
    panelsRaw === null
      ? null
      : panelsRaw
          .split(',')
          .map((s) => s.trim())
          .filter((s) => /^[a-z0-9_-]{1,32}$/.test(s))
          .slice(0, 16);
  const t = p.get('theme');
  const m = /^(\d{1,20})-(\d{1,20})$/.exec(p.get('range') ?? '');
  const range = m && BigInt(m[1]) < BigInt(m[2]) ? { t0: m[1], t1: m[2] } : null;
  return { panels, theme: t === 'light' || t === 'dark' ? t : null, range };
}

const kDark =
  '--bg:#0f1216;--panel:#171b21;--fg:#e3e7ec;--muted:#8d98a5;--line:#2a313a;--grid:#232a32;--accent:#4c8dff;--accent-fg:#0b0d10;' +
  '--hover:#1e2631;--good:#3fb950;--warn:#d29922;--bad:#f85149;--c-idle:#3a414b;--c-other:#6c757d;color-scheme:dark;';
const kLight =
  '--bg:#f6f7f9;--panel:#ffffff;--fg:#1b1f24;--muted:#5f6b7a;--line:#dde2e8;--grid:#e6e9ee;--accent:#1f6feb;--accent-fg:#ffffff;' +
  '--hover:#eef3fb;--good:#1a7f37;--warn:#b26b00;--bad:#c62828;--c-idle:#dee2e6;--c-other:#868e96;color-scheme:light;';

export function embedCss(o: EmbedOptions): string {
  const rules = [
    'html.tw-embed,html.tw-embed body{height:auto;min-height:0}',
    'html.tw-embed .topbar,html.tw-embed #drop-overlay,html.tw-embed #share-actions,html.tw-embed .foot-note{display:none !important}',
    // The timeline's height is the frame's (fit_timeline.ts), not the page's minimum.
    'html.tw-embed #timeline.tw-fit{min-height:0;flex:none !important}',
    'html.tw-embed #timeline.tw-fit .tl-stage{min-height:0}',
  ];
  if (o.theme) rules.push(`html.tw-embed[data-theme="${o.theme}"]{${o.theme === 'dark' ? kDark : kLight}}`);
  if (o.panels) {
    const sels = o.panels.flatMap((p) => kAliases[p] ?? (p === 'timeline' ? [] : [`[data-section="${p}"]`]));
    const not = sels.map((s) => `:not(${s})`).join('');
    rules.push(`html.tw-embed #overview > *${not}{display:none !important}`);
    const timeline = o.panels.includes('timeline');
    if (!timeline) rules.push('html.tw-embed #timeline{display:none !important}');
    if (timeline && sels.length) rules.push('html.tw-embed #overview[hidden]{display:block !important}');
    if (!sels.length) rules.push('html.tw-embed #overview{display:none !important}');
    if (timeline) rules.push('html.tw-embed #timeline[hidden]{display:block !important}');
  }
  return rules.join('\n');
}

export function installEmbedMode(app: AppApi): EmbedOptions {
  const o = readEmbedOptions(location.search);
  const root = document.documentElement;
  root.classList.add('tw-embed');
  if (o.theme) root.dataset.theme = o.theme;
  // A constructed stylesheet rather than a <style> element, which the page's Content-Security-Policy
  // refuses (style-src without 'unsafe-inline'); the CSS object model is not subject to it.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(embedCss(o));
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

  app.onLoaded(() => {
    const wantsTimeline = o.panels?.includes('timeline') ?? false;
    if (!wantsTimeline && !o.range) return;
    app.setViewState({
      ...(wantsTimeline ? { tab: 'timeline' as const } : {}),
      ...(o.range ? { timeline: { t0_ns: o.range.t0, t1_ns: o.range.t1 } } : {}),
    });
  });

  // Content height -> parent (a number only, so '*' is fine), whenever it changes: the height the
  // page would have with a timeline of its full height, so a host that follows it gives the
  // timeline that room (in a frame that stays small, the timeline fits what there is).
  let report = () => {};
  let fit: TimelineFit | null = null; // set below: fitting reports, and a report asks the fit
  if (window.parent !== window) {
    let last = -1;
    report = () => {
      const height = Math.ceil(document.body.scrollHeight + (fit?.missing() ?? 0));
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: 'tracewise.height', height }, '*');
    };
    new ResizeObserver(report).observe(document.body);
  }
  fit = fitTimelineToFrame(() => report());
  report();
  return o;
}
