// The postMessage API, for iframes (window.parent) and tabs opened with window.open (window.opener):
//
//   parent -> tracewise: {type: 'tracewise.open', name, buffer: ArrayBuffer}
//                        'PING' (Perfetto), then {perfetto: {buffer, title, fileName?}}: the trace
//                        is shown under its title (the dashboard's heading, the document title)
//   tracewise -> parent: {type: 'tracewise.ready'} once listening (to '*', carries nothing),
//                        'PONG' in answer to 'PING' (to the sender's origin, if allowed),
//                        {type: 'tracewise.progress', name, bytesRead, totalBytes, events, phase},
//                        {type: 'tracewise.loaded', summary} (the CLI's summary document),
//                        {type: 'tracewise.error', message}
// Progress, loaded and error go only to the origin that sent the trace, and only for that trace.
// Messages from other windows are ignored, and so is any value parse_message.ts does not read as
// one of the above. From origins not allowed (embed_config.ts), PING gets no PONG and a trace is not
// opened: the sender gets an error answer, the page a visible note.
import type { AppApi } from '../app/app_api';
import { rememberTrace } from '../share/trace_inputs';
import { loadEmbedConfig, originAllowed } from './embed_config';
import { parseMessage } from './parse_message';
import { messageBytes } from './message_bytes';
import { tracewiseHook } from '../hook';

export interface MessageHook {
  received: number;
  opened: string[];
  refused: string[];
}

export function installMessageApi(app: AppApi, notify: (text: string) => void): MessageHook {
  const hook: MessageHook = { received: 0, opened: [], refused: [] };
  tracewiseHook().messages = hook;
  // The window and origin that sent the trace now open: where progress and results go.
  let client: { win: MessageEventSource; origin: string } | null = null;
  const send = (msg: unknown) => {
    if (client) (client.win as Window).postMessage(msg, client.origin);
  };
  app.onProgress((name, p) =>
    send({
      type: 'tracewise.progress',
      name,
      phase: p.phase,
      bytesRead: p.bytesRead,
      totalBytes: p.totalBytes,
      events: p.events,
    })
  );
  // The document title names the trace a host sent (Perfetto's `title`), until other files replace it.
  const pageTitle = document.title;
  let titled: string | null = null;
  // One trace, one answer: after it, files the user opens by hand are not reported to the host.
  app.onLoaded((doc) => {
    if (titled !== null && !app.getFiles().some((f) => f.name === titled)) {
      document.title = pageTitle;
      titled = null;
    }
    if (!client || !app.getFiles().some((f) => f.hasTrace)) return;
    send({ type: 'tracewise.loaded', summary: doc });
    client = null;
  });
  app.onError((name, message) => {
    send({ type: 'tracewise.error', message: `${name}: ${message}` });
    client = null;
  });

  const fromHost = (ev: MessageEvent) =>
    ev.source !== null &&
    ev.source !== window &&
    (ev.source === window.parent || ev.source === window.opener || (ev.source as Window).opener === window);

  window.addEventListener('message', async (ev: MessageEvent) => {
    if (!fromHost(ev)) return;
    const src = parseMessage(ev.data);
    if (src.kind === 'ignored') return;
    hook.received++;
    const allowed = originAllowed(ev.origin, await loadEmbedConfig());
    if (src.kind === 'ping') {
      if (allowed) (ev.source as Window).postMessage('PONG', ev.origin);
      else if (!hook.refused.includes(ev.origin)) hook.refused.push(ev.origin);
      return;
    }
    const reply = (msg: unknown) => (ev.source as Window).postMessage(msg, ev.origin);
    if (!allowed) {
      hook.refused.push(ev.origin);
      notify(`A page at ${ev.origin} tried to open a trace here; that origin is not allowed (see embed-config.json).`);
      reply({
        type: 'tracewise.error',
        message: `Origin ${ev.origin} is not allowed to open traces in this tracewise page.`,
      });
      return;
    }
    const buffer = messageBytes(src.buffer);
    if (!buffer) {
      reply({ type: 'tracewise.error', message: 'The message has no trace: "buffer" must be an ArrayBuffer.' });
      return;
    }
    const name = src.name;
    client = { win: ev.source as MessageEventSource, origin: ev.origin };
    hook.opened.push(name);
    titled = name;
    document.title = `${name} – tracewise`; // text: a title is never markup
    rememberTrace(name, new Blob([buffer]));
    app.openBuffer(name, buffer);
  });

  // Tell a waiting parent we listen; PING/PONG covers parents that missed this.
  const ready = () => {
    for (const w of new Set([window.parent !== window ? window.parent : null, window.opener as Window | null])) {
      w?.postMessage({ type: 'tracewise.ready' }, '*');
    }
  };
  if (document.readyState === 'complete') ready();
  else window.addEventListener('load', ready, { once: true });
  return hook;
}
