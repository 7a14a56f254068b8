// Entry point of the timeline component: import { TimelineView } from '../timeline/index'.
export { TimelineView } from './timeline_view';
export type { TimeLike } from './timeline_view';
export type { TimelineClient } from '../worker/protocol';
