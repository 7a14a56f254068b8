// The component's own styles, injected once (class names start with twtl- so they never clash with
// the page's). Colours follow the page's text colour so light and dark schemes both work.
const kCss = `
.twtl-root { position: absolute; inset: 0; display: flex; flex-direction: column; font: 12px system-ui, sans-serif; }
.twtl-bar { display: flex; gap: 6px; align-items: center; padding: 4px 6px; flex-wrap: wrap; border-bottom: 1px solid rgba(128,128,128,.3); }
.twtl-bar input[type=search] { width: 220px; padding: 2px 6px; font: inherit; }
.twtl-bar button, .twtl-bar select { font: inherit; padding: 1px 8px; cursor: pointer; }
.twtl-hint { margin-left: auto; opacity: .6; font-size: 11px; }
.twtl-count { min-width: 70px; opacity: .8; }
.twtl-stage { position: relative; flex: 1; min-height: 120px; overflow: hidden; outline: none; }
.twtl-stage canvas { position: absolute; left: 0; top: 0; cursor: grab; touch-action: none; }
.twtl-tip { position: absolute; pointer-events: none; background: rgba(20,20,20,.9); color: #fff; padding: 3px 6px;
  border-radius: 4px; font-size: 11px; max-width: 480px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; z-index: 2; }
.twtl-panel { position: relative; max-height: 38%; overflow: auto; border-top: 1px solid rgba(128,128,128,.35); padding: 6px 10px; }
.twtl-panel[hidden] { display: none; }
.twtl-close { position: sticky; float: right; top: 0; border: none; background: none; font-size: 18px; cursor: pointer; color: inherit; }
.twtl-title { font-weight: 600; font-family: ui-monospace, monospace; word-break: break-all; margin-bottom: 4px; }
.twtl-subtitle { font-weight: 600; margin: 6px 0 2px; }
.twtl-kv { border-collapse: collapse; }
.twtl-kv th { text-align: left; font-weight: normal; opacity: .7; padding: 1px 12px 1px 0; vertical-align: top; white-space: nowrap; }
.twtl-kv td { font-family: ui-monospace, monospace; word-break: break-all; padding: 1px 0; }
.twtl-agg { border-collapse: collapse; width: 100%; }
.twtl-agg th { text-align: left; opacity: .7; font-weight: normal; border-bottom: 1px solid rgba(128,128,128,.35); }
.twtl-agg td { padding: 1px 8px 1px 0; }
.twtl-agg td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.twtl-agg td.twtl-name { font-family: ui-monospace, monospace; max-width: 640px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.twtl-muted { opacity: .65; }
.twtl-error { color: #d32f2f; }
.twtl-link { color: #1e88e5; cursor: pointer; }
.twtl-cpu { position: relative; }
.twtl-cpu summary { cursor: pointer; padding: 3px 8px; border: 1px solid rgba(128,128,128,.5); border-radius: 4px; list-style: none; white-space: nowrap; }
.twtl-cpu summary::after { content: ' ▾'; opacity: .7; }
.twtl-cpu-list { position: absolute; z-index: 5; top: calc(100% + 2px); left: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(110px, 1fr));
  gap: 2px 10px; width: max-content; max-width: 560px; max-height: 320px; overflow: auto; padding: 6px 10px; background: Canvas; color: CanvasText;
  border: 1px solid rgba(128,128,128,.5); border-radius: 4px; box-shadow: 0 4px 14px rgba(0,0,0,.18); }
.twtl-cpu-list label { white-space: nowrap; cursor: pointer; }
`;

let injected = false;
export function injectStyle(): void {
  if (injected || typeof document === 'undefined') return;
  injected = true;
  const s = document.createElement('style');
  s.textContent = kCss;
  document.head.append(s);
}
