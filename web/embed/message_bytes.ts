// The trace bytes a message carries in its `buffer`: an ArrayBuffer as it is, or exactly the bytes
// an ArrayBufferView (a typed array or a DataView) covers, from its byteOffset for its byteLength,
// not the whole buffer behind it. A view of part of a buffer (or of shared memory) is copied out;
// a view of a whole ArrayBuffer gives that buffer, uncopied. null for anything else.
export function messageBytes(value: unknown): ArrayBuffer | null {
  if (value instanceof ArrayBuffer) return value;
  if (!ArrayBuffer.isView(value)) return null;
  const { buffer, byteOffset, byteLength } = value;
  if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) return buffer;
  return new Uint8Array(buffer, byteOffset, byteLength).slice().buffer;
}
