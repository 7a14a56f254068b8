// The one error type of web/share: a code for tests and callers, and a plain sentence for the page.
export type ShareErrorCode =
  | 'bad_encoding' // base64url or percent-encoding is broken
  | 'bad_data' // decompression failed or the JSON is not what a tracewise link carries
  | 'too_large' // over a size limit (fragment, compressed or decompressed bytes)
  | 'unsupported'; // a newer link version, or a browser without CompressionStream

export class ShareError extends Error {
  constructor(
    readonly code: ShareErrorCode,
    message: string
  ) {
    super(message);
    this.name = 'ShareError';
  }
}
