// What can be wrong with a gzip file that still inflates in part, and how the page words it. The
// CLI (cli/file_reader.cc) reports the same damage in the same words on stderr, so that a user
// comparing the two sees one story; neither changes the summary, which is the same in both.

export type GzipDamage =
  // A member's trailer (CRC-32 or size) does not match its data: every byte of it was inflated and
  // is kept, and the next member, if any, is read.
  | { kind: 'trailer'; member: number }
  // The file ends inside a member: what was inflated before is kept.
  | { kind: 'truncated' }
  // The deflate data is invalid (or not gzip where a member should start): what was inflated
  // before is kept, nothing after it.
  | { kind: 'corrupt' };

export function gzipWarning(d: GzipDamage): string {
  switch (d.kind) {
    case 'trailer':
      return (
        `gzip member ${d.member}: the CRC-32 or size in its trailer does not match its data; ` +
        'all of its data is loaded.'
      );
    case 'truncated':
      return 'The gzip data ends early (truncated); what was decompressed before that point is loaded.';
    case 'corrupt':
      return 'The gzip data is corrupt; what was decompressed before that point is loaded.';
  }
}
