// base64url (RFC 4648 §5, no padding) for link fragments. Decoding is strict: any character outside
// the alphabet, or an impossible length, is an error rather than silently skipped, because a link
// that was cut or edited must say so instead of decoding into something else.
import { ShareError } from './share_error';

const kAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const kLookup = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < kAlphabet.length; i++) t[kAlphabet.charCodeAt(i)] = i;
  return t;
})();

export function encodeBase64url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += kAlphabet[n >> 18] + kAlphabet[(n >> 12) & 63] + kAlphabet[(n >> 6) & 63] + kAlphabet[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += kAlphabet[n >> 18] + kAlphabet[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += kAlphabet[n >> 18] + kAlphabet[(n >> 12) & 63] + kAlphabet[(n >> 6) & 63];
  }
  return out;
}

export function decodeBase64url(text: string, maxBytes: number): Uint8Array {
  if (text.length % 4 === 1)
    throw new ShareError('bad_encoding', 'The link is damaged (its data has an impossible length; was it cut?).');
  const outLen = Math.floor((text.length * 3) / 4);
  if (outLen > maxBytes)
    throw new ShareError(
      'too_large',
      `The link carries more data than tracewise accepts (${outLen} bytes; the limit is ${maxBytes}).`
    );
  const out = new Uint8Array(outLen);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? kLookup[c] : -1;
    if (v < 0) throw new ShareError('bad_encoding', 'The link is damaged (unexpected characters in its data).');
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1; // keep only the bits not yet emitted (at most 6)
  }
  return out.subarray(0, o);
}
