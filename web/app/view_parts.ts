// A view built part by part (the Job and Compare tabs): a part whose data surprised it is said in
// place, the rest of the view stays.
import { h } from './dom';

export type ViewPart = () => HTMLElement | null;

export function appendParts(root: HTMLElement, parts: ViewPart[], view: string): void {
  for (const part of parts) {
    try {
      const el = part();
      if (el) root.append(el);
    } catch (e) {
      root.append(
        h(
          'p',
          { class: 'msg error' },
          `A part of the ${view} could not be shown: ${String((e as Error)?.message ?? e)}`
        )
      );
    }
  }
}
