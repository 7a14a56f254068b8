// What web/share reads of the app shell (through AppApi, plus the dashboard's root): the view state
// in link form, which files have a trace behind them, whether the dashboard is on screen.
import type { AppApi, ViewState as AppViewState } from '../app/app_api';
import type { ViewState } from './view_state';

// The app's view state <-> the link's (the timeline's part is opaque to both).
export const toLinkView = (s: AppViewState): ViewState => {
  const v: ViewState = { tab: s.tab, file: s.file, tl: s.timeline };
  if (s.compare) v.compare = s.compare;
  if (s.compare && s.step !== undefined) v.step = s.step;
  return v;
};
export const toAppView = (v: ViewState): Partial<AppViewState> => {
  const out: Partial<AppViewState> = {};
  if (v.compare) out.compare = v.compare;
  if (v.step !== undefined) out.step = v.step;
  if (v.tab) out.tab = v.tab;
  if (v.file !== undefined) out.file = v.file;
  if (v.tl !== undefined) out.timeline = v.tl;
  return out;
};
export const hasTrace = (app: AppApi) => app.getFiles().some((f) => f.hasTrace);
// A trace has loaded (its live dashboard can be shown); loading or failed ones do not count.
export const liveTrace = (app: AppApi) => app.getFiles().some((f) => f.hasTrace && f.status === 'ready');
// Traces loaded and on screen (not still loading): a view can be applied to them.
export const traceReady = (app: AppApi) =>
  app.getFiles().every((f) => f.status !== 'loading') && app.getFiles().some((f) => f.hasTrace && f.status === 'ready');
// Per ready file (the summary document's order): its name when a trace is behind it, else null.
export const readyNames = (app: AppApi) =>
  app
    .getFiles()
    .filter((f) => f.status === 'ready')
    .map((f) => (f.hasTrace ? f.name : null));
export const traceNames = (app: AppApi) =>
  app
    .getFiles()
    .filter((f) => f.hasTrace && f.status === 'ready')
    .map((f) => f.name);
// The dashboard is rebuilt after a change of file; its tables exist again only at the next onLoaded.
// The page's hook turns `ready` false synchronously when a rebuild starts (its first panels may
// already be in the DOM then, its tables not yet), so the element count alone is not enough.
export const dashboardShown = () =>
  (document.getElementById('overview')?.childElementCount ?? 0) > 0 && window.__tracewise?.ready === true;
