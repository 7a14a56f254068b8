// window.__tracewise: the page's state for tests, benchmarks and embedders (read-only by contract).
// Each part of the page installs its own member; this is the one declaration of its shape.
import type { ExportHook } from './export/export_ui';
import type { MessageHook } from './embed/message_api';
import type { ShareHook } from './share/share_ui';
import type { CompareHook } from './app/compare/compare_diff';

export interface TracewiseHook {
  ready?: boolean;
  summary?: unknown; // the summary document on screen (docs/summary-schema.md)
  error?: string | null;
  timeline?: { view: unknown; [k: string]: unknown }; // web/timeline/test_hook.ts
  share?: ShareHook;
  compare?: CompareHook | null; // Compare mode: the diff's state, its document and the files' sides
  export?: ExportHook;
  messages?: MessageHook;
  [k: string]: unknown;
}

declare global {
  interface Window {
    __tracewise?: TracewiseHook;
  }
}

// The hook, made on first use.
export function tracewiseHook(): TracewiseHook {
  return (window.__tracewise ??= {});
}
