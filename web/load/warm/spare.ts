// A spare trace worker's side of the page's `warm` request (../page/spare.ts): before any file, it
// starts the nested workers the next open would use (a feed worker, and part workers by the page's
// mode) and runs its warm-up. The open takes what it uses (../trace/open.ts) and lets the rest go.
import type { WarmReply, WarmRequest } from '../../worker/protocol';
import type { CoreModule } from '../../core/bindings';
import { startFeedWorkerAhead } from '../feed/client';
import { startPartWorkersAhead } from '../parts/client';
import { partsFor } from '../trace/open_plan';
import { warmedUp, warmUp } from './warm_up';
import { without } from '../switches';

export async function warmSpare(req: WarmRequest, loadCore: () => Promise<CoreModule>): Promise<WarmReply> {
  startFeedWorkerAhead();
  startPartWorkersAhead(partsFor(req.workers ?? 'auto', false) - 1);
  // Without the warm-up (comparison builds only), the spare just loads the module.
  await (without('warm-up') ? loadCore() : warmUp(loadCore));
  return { warmed: warmedUp() };
}
