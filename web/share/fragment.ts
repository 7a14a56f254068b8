// The URL fragment of a tracewise page: an optional summary link (`s=`) and the view state, both in
// URLSearchParams form. Reading never throws: a fragment that is too long or malformed is reported
// as a problem and the page carries on as if it were empty.
import { readViewState, writeViewState, type ViewState } from './view_state';
import { kMaxDecodeChars } from './summary_link';

export interface ParsedFragment {
  summary: string | null; // the raw `s=` value (decode with decodeSummaryLink)
  view: ViewState;
  problems: string[]; // plain sentences
  tooLong: boolean;
}

const kMaxFragmentChars = kMaxDecodeChars + 4096;

export function parseFragment(hash: string): ParsedFragment {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.length > kMaxFragmentChars) {
    return {
      summary: null,
      view: {},
      problems: [`The link is too long (${text.length} characters after '#'); it was ignored.`],
      tooLong: true,
    };
  }
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(text);
  } catch {
    return {
      summary: null,
      view: {},
      problems: ['The part of the link after # could not be read; it was ignored.'],
      tooLong: false,
    };
  }
  const { state, problems } = readViewState(params);
  const out: ParsedFragment = { summary: params.get('s'), view: state, problems: [], tooLong: false };
  if (problems.length)
    out.problems.push(`Some view settings in the link were invalid and ignored: ${problems.join(', ')}.`);
  return out;
}

// `base` is the page address without fragment (keeps `?url=` so a link to a fetched trace re-opens it).
export function buildLink(base: string, view: ViewState, summaryValue?: string): string {
  const params = new URLSearchParams();
  if (summaryValue) params.set('s', summaryValue);
  writeViewState(view, params);
  const frag = params.toString();
  const noHash = base.split('#')[0];
  return frag ? `${noHash}#${frag}` : noHash;
}
