// Share links on the page: restores the view state of an opened link (tab, rank, timeline, tables'
// filter and sort), shows a summary link's read-only dashboard (also while its `?url=` trace loads,
// until the live one replaces it), checks the traces opened for a link
// (dropped, or re-fetched from `?url=`) against its content hashes, keeps the fragment current, and
// offers "Copy link" / "Copy summary link". All messages are text nodes.
import type { AppApi } from '../app/app_api';
import { applyTableStates, tableStates, type TableState } from '../app/dashboard/table';
import { buildLink, parseFragment } from './fragment';
import { decodeSummaryLink, encodeSummaryLink, kTargetLinkChars, linkDocument } from './summary_link';
import type { LinkPayload, TraceRef } from './summary_link';
import { ShareError } from './share_error';
import { isEmptyViewState, type ViewState } from './view_state';
import { hashOfTrace, knownHash, traceSource, watchTraceInputs } from './trace_inputs';
import { describeTrace, differentText, type LinkTrace, openTheseText, summaryTraces, viewTraces } from './link_traces';
import {
  dashboardShown,
  hasTrace,
  liveTrace,
  readyNames,
  toAppView,
  toLinkView,
  traceNames,
  traceReady,
} from './app_view';
import { showMessage, type MessageKind } from './banner';
import { linkBase } from './link_base';
import { sidesForOpened } from '../app/compare/compare_sides';
import { tracewiseHook } from '../hook';

export interface ShareHook {
  mode: 'none' | 'view' | 'summary';
  readOnly: boolean; // a summary link's dashboard is shown without a trace
  payload: LinkPayload | null; // the decoded summary link
  match: 'none' | 'same' | 'different' | 'unknown'; // the open traces against the link's hashes
  stale: boolean; // 'different', and the trace came from ?url= (its content changed)
  error: string | null; // why the link could not be opened
  notes: string[]; // non-fatal problems (ignored view keys)
  lastLink: string | null; // the last link made by a Copy button
  lastLinkChars: number;
  ready: boolean; // the link has been handled (shown or refused)
}

export function pageBase(): string {
  return location.href.split('#')[0];
}

export function installShare(
  app: AppApi,
  banner: HTMLElement,
  actions: HTMLElement,
  opts: { trackFragment: boolean }
): ShareHook {
  const hook: ShareHook = {
    mode: 'none',
    readOnly: false,
    payload: null,
    match: 'none',
    stale: false,
    error: null,
    notes: [],
    lastLink: null,
    lastLinkChars: 0,
    ready: false,
  };
  tracewiseHook().share = hook;
  let pendingView: ViewState | null = null; // to apply once the trace is loaded
  let pendingTables: TableState[] | null = null; // to apply once the dashboard is rebuilt
  let expected: string[] = []; // content hashes the link was made on
  let expectedTraces: LinkTrace[] = []; // what the link says of its traces (names, sizes, hashes)
  let prompted = false; // the banner asks for the view link's traces
  let checking = false; // checkMatch is hashing the open traces
  let noteFor: string | null = null; // the traces the banner's match note is about
  let lastHash = '';
  let previewing = false; // the link's summary stands in for loading traces
  const opened = pageBase(); // before the address bar is rewritten below
  // The address links start with: `?url=` of the traces on screen when the page can re-open them.
  const base = () => linkBase(opened, readyNames(app));
  watchTraceInputs();

  const say = (kind: MessageKind, text: string, extra?: Node) => showMessage(banner, kind, text, extra);

  // The link's view on the loaded traces: tab, file and timeline through the app; tables directly,
  // or after the dashboard of the linked file is rebuilt.
  const applyView = (v: ViewState) => {
    const st = toAppView(v);
    if (v.compare)
      st.compare = sidesForOpened(
        v.compare,
        v.files?.map((f) => f?.name ?? null),
        readyNames(app)
      );
    app.setViewState(st);
    if (!v.tables?.length) return;
    if (dashboardShown()) applyTableStates(v.tables);
    else pendingTables = v.tables;
  };

  async function handleFragment(hash: string): Promise<void> {
    lastHash = hash;
    hook.ready = false;
    hook.error = null;
    hook.match = 'none';
    hook.stale = false;
    const frag = parseFragment(hash);
    hook.notes = frag.problems;
    if (frag.tooLong) {
      hook.error = frag.problems[0];
      say('error', frag.problems[0]);
      hook.ready = true;
      return;
    }
    expected = (frag.view.hashes ?? []).filter((x): x is string => x !== null);
    expectedTraces = viewTraces(frag.view);
    if (frag.summary !== null) {
      hook.mode = 'summary';
      try {
        const payload = await decodeSummaryLink(frag.summary);
        hook.payload = payload;
        expectedTraces = summaryTraces(payload.traces);
        expected = expectedTraces.flatMap((t) => (t.hash === null ? [] : [t.hash]));
        pendingView = isEmptyViewState(frag.view) ? null : frag.view;
        if (!liveTrace(app)) showLinkSummary(payload);
      } catch (e) {
        hook.payload = null;
        hook.error = e instanceof ShareError ? e.message : 'The link could not be read.';
        say('error', `This summary link cannot be opened: ${hook.error}`);
      }
    } else if (!isEmptyViewState(frag.view)) {
      hook.mode = 'view';
      pendingView = frag.view;
      // Nothing open and nothing on its way (no `?url=`): the view waits for a file the reader has.
      if (!hasTrace(app) && !addressUrls.length) {
        say('info', openTheseText(expectedTraces));
        prompted = true;
      }
    }
    if (!hook.error && frag.problems.length) say('warn', frag.problems.join(' '));
    // A link opened (hashchange) while its trace is already on screen applies at once.
    if (pendingView && traceReady(app)) {
      applyView(pendingView);
      pendingView = null;
      void checkMatch();
    }
    hook.ready = true;
  }

  // The link's dashboard, read-only: in place of the traces being opened (`?url=`) while they load,
  // else instead of whatever is open.
  function showLinkSummary(payload: LinkPayload): void {
    const doc = linkDocument(payload);
    const tables = pendingView?.tables?.length ? pendingView.tables : null;
    const want = expected;
    // The live dashboard gets the link's tables from pendingView once its trace is ready.
    const onShown = () => {
      if (tables && want === expected && hook.readOnly) applyTableStates(tables);
    };
    const compare = payload.compare ?? undefined;
    previewing = app.previewSummary(doc, 'the summary link', onShown, compare);
    if (!previewing) {
      app.showSummary(doc, 'the summary link', compare);
      if (tables) pendingTables = tables;
    }
    hook.readOnly = true;
    const names = payload.traces.map((t, i) => (t ? describeTrace(t) : String(payload.files[i]?.name ?? 'trace')));
    const rows = `tables show their first ${payload.trim.rows || 'few'} rows`;
    say(
      'info',
      previewing
        ? `Shared summary of ${names.join(', ')}, read-only while the trace loads (${rows}); the live view replaces it once it has loaded.`
        : `Shared summary of ${names.join(', ')}, read-only: ${rows}. Drop the same trace here to see the full view and the timeline.`
    );
  }

  // Compares the open traces with the hashes the link was made on (a `?url=` trace is fetched again
  // for that), and says so when they differ: for a `?url=` trace that means its content changed.
  async function checkMatch(): Promise<void> {
    if (hook.mode === 'summary' && hook.payload) hook.readOnly = false;
    previewing = false;
    if (!expected.length) {
      hook.match = 'unknown';
      return;
    }
    const want = expected;
    const names = traceNames(app);
    checking = true;
    const opened = await Promise.all(names.map((n) => hashOfTrace(n)));
    const hashes = opened.map((r) => r?.hash ?? null);
    checking = false;
    if (want !== expected) return; // another link arrived meanwhile
    hook.match = want.every((h) => hashes.includes(h))
      ? 'same'
      : hashes.some((h) => h !== null)
        ? 'different'
        : 'unknown';
    // The `?url=` traces whose content is not among the link's: those changed behind their URL.
    const urls = names
      .filter((_, i) => hashes[i] !== null && !want.includes(hashes[i]!))
      .map((n) => traceSource(n))
      .flatMap((s) => (s && 'url' in s ? [s.url] : []));
    hook.stale = hook.match === 'different' && urls.length > 0;
    if (hook.match !== 'unknown') noteFor = names.join('\n');
    const what = hook.mode === 'summary' ? 'summary link' : 'link';
    if (hook.match === 'same' && hook.mode === 'summary')
      say('info', 'This is the trace the link was made from: the full view is restored.');
    else if (hook.stale) {
      say(
        'warn',
        `This ${what} is stale: the trace at ${urls.join(', ')} has changed since the link was made (its content hash differs). ` +
          `Showing the trace as it is now${hook.mode === 'view' ? '; the linked view may not fit it' : ''}.`
      );
    } else if (hook.match === 'different') {
      const traces = names.map((name, i): LinkTrace => ({ name, bytes: opened[i]?.bytes ?? null, hash: hashes[i] }));
      say('warn', differentText(what, expectedTraces, traces));
    }
  }

  app.onLoaded(() => {
    if (pendingTables && dashboardShown()) {
      applyTableStates(pendingTables);
      pendingTables = null;
    }
    // Other traces than the ones a link was compared with: its note no longer applies.
    if (noteFor !== null && hook.mode === 'none' && noteFor !== traceNames(app).join('\n')) {
      banner.replaceChildren();
      noteFor = null;
    }
    if (!hasTrace(app)) return; // a summary shown without its trace (this link's, or a saved JSON)
    if (prompted) {
      banner.replaceChildren(); // a trace is open: checkMatch says whether it is the link's
      prompted = false;
    }
    // Hash dropped files now (two small reads) so the address bar's link can carry them.
    for (const n of traceNames(app)) {
      const s = traceSource(n);
      if (s && 'blob' in s) void hashOfTrace(n);
    }
    if (pendingView) {
      applyView(pendingView);
      pendingView = null;
    }
    if (hook.mode !== 'none') void checkMatch();
  });

  // The link to what is on screen; per file, its trace's name, size and hash when known.
  const currentView = (refs: (TraceRef | null)[]): ViewState => ({
    ...toLinkView(app.getViewState()),
    tables: tableStates(),
    hashes: refs.map((r) => r?.hash ?? null),
    files: refs.map((r) => (r ? { name: r.name, bytes: r.bytes } : null)),
  });

  // Keep the fragment current while a trace is open, so the address bar always links to this view.
  // (Polled: the view state lives in several components; one comparison a second costs nothing.)
  if (opts.trackFragment) {
    setInterval(() => {
      if (!traceReady(app) || pendingView || pendingTables || checking) return;
      const known = readyNames(app).map((n) => {
        const h = n === null ? null : knownHash(n);
        return h && n !== null ? { name: n, ...h } : null;
      });
      const link = buildLink(base(), currentView(known));
      if (new URL(link).href === new URL(location.href.replace(/#$/, '')).href) return;
      lastHash = new URL(link).hash;
      // From now on the address bar is this page's own link: traces opened later are not compared
      // with the one that was opened.
      hook.payload = null;
      hook.mode = 'none';
      expected = [];
      history.replaceState(history.state, '', link);
    }, 1000);
  }

  // The traces the page's address downloads (`?url=`): the ones a summary link's dashboard stands in
  // for. (A name with no source at all is one of them too: a `?url=` too broken to be remembered.)
  const addressUrls = new URL(opened).searchParams.getAll('url').flatMap((u) => {
    try {
      return [new URL(u, opened).href];
    } catch {
      return [];
    }
  });
  const fromAddress = (name: string) => {
    const s = traceSource(name);
    return !s || ('url' in s && addressUrls.includes(s.url));
  };

  // A file failed while the link's dashboard was on screen. If it is a trace the dashboard stood in
  // for, the dashboard stays: say why. Any other file was opened since (dropped, picked, the sample):
  // the app replaced the link's dashboard with it (and stopped the link's download), so say that.
  app.onError((name, message) => {
    if (!hook.readOnly || liveTrace(app)) return;
    if (previewing && fromAddress(name)) {
      say('warn', `${name} could not be loaded (${message}); the summary link's dashboard stays, read-only.`);
      return;
    }
    const stopped = previewing ? "opening it stopped the download of the link's trace, and " : '';
    previewing = false;
    hook.readOnly = false;
    say(
      'error',
      `${name} could not be loaded (${message}); ${stopped}the summary link's read-only dashboard is no longer shown (reload the page to see it again).`
    );
  });

  window.addEventListener('hashchange', () => {
    if (location.hash !== lastHash) void handleFragment(location.hash);
  });

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
    b.addEventListener('click', () => {
      fn().catch((e) =>
        say(
          'error',
          e instanceof ShareError ? e.message : `Could not make the link: ${String((e as Error)?.message ?? e)}`
        )
      );
    });
    actions.append(b);
    return b;
  };
  // Per file of the summary document: its trace's name, hash and size (null when it has none).
  // (While the link's summary stands in for loading traces, no file is ready: the link's own refs.)
  const traceRefs = async (): Promise<(TraceRef | null)[]> =>
    previewing && hook.payload
      ? hook.payload.traces
      : Promise.all(
          readyNames(app).map(async (n, i) => {
            const h = n === null ? null : await hashOfTrace(n);
            return h && n !== null ? { name: n, bytes: h.bytes, hash: h.hash } : (hook.payload?.traces[i] ?? null);
          })
        );
  button(
    'Copy link',
    'A link to this view (tab, time range, search, table filters); it opens the same view once the same trace is open',
    async () => {
      await copy(buildLink(base(), currentView(await traceRefs())), 'Link to this view');
    }
  );
  button(
    'Copy summary link',
    'A link that carries the analysis itself (headline numbers, top tables, recommendations): no trace, no upload',
    async () => {
      const doc = app.getSummary() ?? (hook.payload ? linkDocument(hook.payload) : null);
      if (!doc) {
        say('warn', 'Open a trace first.');
        return;
      }
      const refs = await traceRefs();
      // The view part shares the link's 8 KB budget (the traces are in the summary already).
      const view = { ...currentView([]), hashes: undefined, files: undefined };
      const at = base();
      const budget = Math.max(1000, kTargetLinkChars - buildLink(at, view).length - 4);
      // A comparison carries each file's side and its diff (trimmed with the summaries).
      const sides = app.getViewState().compare ?? hook.payload?.compare?.sides ?? null;
      const diff = app.getDiff();
      const compare = sides && diff ? { sides, diff: diff as unknown as Record<string, unknown> } : null;
      const enc = await encodeSummaryLink(doc, refs, budget, compare);
      await copy(buildLink(at, view, enc.value), 'Summary link');
    }
  );

  void handleFragment(location.hash);
  return hook;
}
