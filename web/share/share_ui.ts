// Share links on the page: restores the view state of an opened link, shows a summary link's
// read-only dashboard, checks a later-dropped trace against the link's content hash, keeps the
// fragment current, and offers "Copy link" / "Copy summary link". All messages are text nodes.
import type { AppApi, ViewState as AppViewState } from '../app/app_api';
import { buildLink, parseFragment } from './fragment';
import { decodeSummaryLink, encodeSummaryLink, type LinkPayload, type TraceRef } from './summary_link';
import { ShareError } from './share_error';
import { traceHash } from './trace_hash';
import { isEmptyViewState, type ViewState } from './view_state';
import { traceBlob, watchTraceInputs } from './trace_inputs';

type SummaryDocument = { files: any[]; schema: string };

// The app's view state <-> the link's (the timeline's part is opaque to both).
export const toLinkView = (s: AppViewState): ViewState => ({ tab: s.tab, file: s.file, tl: s.timeline });
export const toAppView = (v: ViewState): Partial<AppViewState> => {
  const out: Partial<AppViewState> = {};
  if (v.tab) out.tab = v.tab;
  if (v.file !== undefined) out.file = v.file;
  if (v.tl !== undefined) out.timeline = v.tl;
  return out;
};
const hasTrace = (app: AppApi) => app.getFiles().some((f) => f.hasTrace);
const currentTraces = (app: AppApi) => app.getFiles().map((f) => ({ name: f.name, blob: f.hasTrace ? traceBlob(f.name) : undefined }));

export interface ShareHook {
  mode: 'none' | 'view' | 'summary';
  readOnly: boolean;           // a summary link's dashboard is shown without a trace
  payload: LinkPayload | null; // the decoded summary link
  match: 'none' | 'same' | 'different' | 'unknown';
  error: string | null;        // why the link could not be opened
  notes: string[];             // non-fatal problems (ignored view keys)
  lastLink: string | null;     // the last link made by a Copy button
  lastLinkChars: number;
  ready: boolean;              // the link has been handled (shown or refused)
}

export function pageBase(): string {
  return location.href.split('#')[0];
}

export function installShare(app: AppApi, banner: HTMLElement, actions: HTMLElement, opts: { trackFragment: boolean }): ShareHook {
  const hook: ShareHook = { mode: 'none', readOnly: false, payload: null, match: 'none', error: null, notes: [], lastLink: null, lastLinkChars: 0, ready: false };
  ((window as any).__tracewise ??= {}).share = hook;
  let pendingView: ViewState | null = null;
  let lastHash = '';
  watchTraceInputs();

  const say = (kind: 'info' | 'warn' | 'error', text: string, extra?: Node) => {
    banner.replaceChildren();
    const p = document.createElement('div');
    p.className = `share-msg share-${kind}`;
    p.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    p.textContent = text;
    if (extra) p.append(' ', extra);
    const close = document.createElement('button');
    close.className = 'share-close';
    close.textContent = '×';
    close.title = 'Dismiss';
    close.addEventListener('click', () => banner.replaceChildren());
    p.append(close);
    banner.append(p);
  };

  async function handleFragment(hash: string): Promise<void> {
    lastHash = hash;
    hook.ready = false;
    hook.error = null;
    const frag = parseFragment(hash);
    hook.notes = frag.problems;
    if (frag.tooLong) {
      hook.error = frag.problems[0];
      say('error', frag.problems[0]);
      hook.ready = true;
      return;
    }
    if (frag.summary !== null) {
      hook.mode = 'summary';
      try {
        const payload = await decodeSummaryLink(frag.summary);
        hook.payload = payload;
        pendingView = isEmptyViewState(frag.view) ? null : frag.view;
        if (!hasTrace(app)) {
          app.showSummary({ files: payload.files, schema: payload.schema }, 'the summary link');
          hook.readOnly = true;
          const names = payload.traces.map((t, i) => t ? `${t.name} (${(t.bytes / 1e6).toFixed(1)} MB)` : String(payload.files[i]?.name ?? 'trace'));
          say('info', `Shared summary of ${names.join(', ')}, read-only: tables show their first ${payload.trim.rows || 'few'} rows. ` +
            'Drop the same trace here to see the full view and the timeline.');
        }
      } catch (e) {
        hook.payload = null;
        hook.error = e instanceof ShareError ? e.message : 'The link could not be read.';
        say('error', `This summary link cannot be opened: ${hook.error}`);
      }
    } else if (!isEmptyViewState(frag.view)) {
      hook.mode = 'view';
      pendingView = frag.view;
      if (hasTrace(app)) { app.setViewState(toAppView(pendingView)); pendingView = null; }
    }
    if (!hook.error && frag.problems.length) say('warn', frag.problems.join(' '));
    hook.ready = true;
  }

  async function checkMatch(): Promise<void> {
    const payload = hook.payload;
    if (!payload) return;
    hook.readOnly = false;
    const traces = currentTraces(app);
    const refs = payload.traces.filter((t): t is TraceRef => t !== null);
    if (refs.length === 0) { hook.match = 'unknown'; return; }
    const hashes = await Promise.all(traces.map((t) => (t.blob ? traceHash(t.blob).catch(() => null) : Promise.resolve(null))));
    const same = refs.every((r) => hashes.includes(r.hash));
    hook.match = same ? 'same' : hashes.some((h) => h !== null) ? 'different' : 'unknown';
    if (hook.match === 'same') say('info', 'This is the trace the link was made from: the full view is restored.');
    else if (hook.match === 'different') say('warn', 'The opened trace is not the one the summary link was made from (its content differs); showing the opened trace.');
  }

  app.onLoaded(() => {
    if (!hasTrace(app)) return;  // a summary shown without its trace (this link's, or a saved JSON)
    if (pendingView) { app.setViewState(toAppView(pendingView)); pendingView = null; }
    void checkMatch();
  });

  // Keep the fragment current while a trace is open, so the address bar always links to this view.
  // (Polled: the view state lives in several components; one comparison a second costs nothing.)
  if (opts.trackFragment) {
    setInterval(() => {
      if (!hasTrace(app) || pendingView) return;
      const link = buildLink(pageBase(), toLinkView(app.getViewState()));
      const hash = new URL(link).hash;
      if (hash === location.hash || (hash === '' && location.hash === '')) return;
      lastHash = hash;
      hook.payload = null;
      history.replaceState(history.state, '', link);
    }, 1000);
  }

  window.addEventListener('hashchange', () => { if (location.hash !== lastHash) void handleFragment(location.hash); });

  // --- the buttons ---------------------------------------------------------------------------------
  const copy = async (link: string, what: string) => {
    hook.lastLink = link;
    hook.lastLinkChars = link.length;
    const size = `${(link.length / 1024).toFixed(1)} KB`;
    const field = document.createElement('input');
    field.className = 'share-link';
    field.readOnly = true;
    field.value = link;
    field.addEventListener('focus', () => field.select());
    try {
      await navigator.clipboard.writeText(link);
      say('info', `${what} copied to the clipboard (${size}).`, field);
    } catch {
      say('info', `${what} (${size}); copy it from here:`, field);
      field.focus();
    }
  };
  const button = (label: string, title: string, fn: () => Promise<void>) => {
    const b = document.createElement('button');
    b.className = 'btn';
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.addEventListener('click', () => { fn().catch((e) => say('error', e instanceof ShareError ? e.message : `Could not make the link: ${String((e as Error)?.message ?? e)}`)); });
    actions.append(b);
    return b;
  };
  button('Copy link', 'A link to this view (tab, time range, search); it opens the same view once the same trace is open', async () => {
    await copy(buildLink(pageBase(), toLinkView(app.getViewState())), 'Link to this view');
  });
  button('Copy summary link', 'A link that carries the analysis itself (headline numbers, top tables, recommendations): no trace, no upload', async () => {
    const doc: SummaryDocument | null = app.getSummary() ?? (hook.payload ? { files: hook.payload.files, schema: hook.payload.schema } : null);
    if (!doc) { say('warn', 'Open a trace first.'); return; }
    const traces = currentTraces(app);
    const refs = await Promise.all(doc.files.map(async (f, i): Promise<TraceRef | null> => {
      const t = traces[i];
      if (t?.blob) return { name: t.name, bytes: t.blob.size, hash: await traceHash(t.blob) };
      return hook.payload?.traces[i] ?? null;
    }));
    const enc = await encodeSummaryLink(doc, refs);
    await copy(buildLink(pageBase(), toLinkView(app.getViewState()), enc.value), 'Summary link');
  });

  void handleFragment(location.hash);
  return hook;
}
