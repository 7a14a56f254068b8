// The worker's answers to the timeline's 'event' and 'aggregate' requests
// (web/worker/timeline_handlers.ts), with the JSON the core writes in them: an event's details
// (core/timeline/event_details.cc) and its args re-read from the file, and an area's aggregate
// (core/timeline/area_aggregate.cc). Times are float64 ns relative to the trace origin; lanes are
// timeline track ids.
import type { EventReply } from '../worker/timeline_handlers';

export interface SliceRef {
  id: number;
  name: string;
  lane: number;
  depth: number;
  startNs: number;
  durNs: number;
}
export interface Link {
  dir: string;
  to: SliceRef;
  rank?: string; // a peer's rank label ("rank 2")
} // dir: kernel, launch, flow_out or flow_in; the aligned view of a job adds peer (./aligned/peers.ts)

type EventCommon = {
  id: number;
  name: string;
  cat: string;
  lane: number;
  depth: number;
  laneName: string;
  startNs: number;
  startAbsNs: string; // startAbsNs: the absolute timestamp as a decimal string
  durNs: number;
  srcOffset: number;
  srcLength: number; // srcOffset, srcLength: the event's bytes in the file
  links: Link[]; // none for an instant
};

// A GPU op's fields from its args (ids, sizes, collective, launch shape), when the trace has them.
export type GpuFields = {
  device: number;
  stream: number;
  bytes?: number;
  collective?: string;
  inNelems?: number;
  outNelems?: number;
  groupSize?: number;
  dtype?: string;
  pgName?: string;
  grid?: number[];
  block?: number[];
};

// What a slice has and an instant has not (so either's keys can be read on the union).
type SliceOnly = {
  kind: string;
  class: string;
  selfNs: number;
  correlation: string;
  externalId: string; // '' when the event has none
  unclosed: boolean;
  overlapping: boolean;
  gpu?: GpuFields;
};
export type SliceDetails = EventCommon & SliceOnly & { instant?: undefined; scope?: undefined };
export type InstantDetails = EventCommon & { [K in keyof SliceOnly]?: undefined } & {
  instant: true;
  scope: 'thread' | 'process' | 'global';
};
export type EventDetails = SliceDetails | InstantDetails;

// An event's args, and its other fields, as the file has them: [key, text, the value was not a string].
export interface EventArgs {
  args: Array<[string, string, boolean]>;
  fields: Array<[string, string, boolean]>;
}

// The 'event' reply (EventReply) with its details and args as the core writes them.
export type EventView = Omit<EventReply, 'details' | 'args'> & { details: EventDetails; args: EventArgs | null };

export interface AggregateReply {
  slices: number;
  names: number;
  truncated: boolean; // rows lists the names with the most time only
  rows: Array<{ name: string; count: number; totalNs: number; selfNs: number; inRangeNs: number }>;
}

// The 'search' reply, by op: run { count, names, error? } (error: the pattern was refused); next and
// prev { index (-1: no match that way), count, event? }; page { count, offset, matches }; clear { count: 0 }.
export interface SearchReply {
  count: number;
  error?: string;
  names?: number;
  index?: number;
  event?: EventDetails;
  offset?: number;
  matches?: SliceRef[];
}
