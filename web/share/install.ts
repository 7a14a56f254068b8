// Installs share links, the postMessage API, embed mode and the exports on the page. Called once by
// web/app/main.ts after its first render, with the AppApi (web/app/app_api.ts) and two containers.
import type { AppApi } from '../app/app_api';
import './share.css';
import { installShare } from './share_ui';
import { linkDocument } from './summary_link';
import { showMessage } from './banner';
import { installMessageApi } from '../embed/message_api';
import { installEmbedMode, isEmbedMode } from '../embed/embed_mode';
import { installExport } from '../export/export_ui';

export function installIntegrations(app: AppApi, where: { main: HTMLElement; actions: HTMLElement }): void {
  const banner = document.createElement('div');
  banner.id = 'share-banner';
  banner.className = 'share-banner';
  banner.setAttribute('aria-live', 'polite');
  where.main.prepend(banner);
  const say = (text: string, extra?: Node) => showMessage(banner, 'info', text, extra);
  const actions = document.createElement('div');
  actions.id = 'share-actions';
  actions.className = 'share-actions';
  where.actions.prepend(actions);

  const embed = isEmbedMode();
  const share = installShare(app, banner, actions, { trackFragment: !embed });
  installExport(app, actions, say, () => (share.payload ? linkDocument(share.payload) : null));
  installMessageApi(app, (t) => say(t));
  if (embed) installEmbedMode(app);
}
