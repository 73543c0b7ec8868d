/** The most of a receiver's answer that is read: enough for its error code and the dashboard's excerpt. */
export const RESPONSE_READ_BYTES = 4096;

/**
 * The first `maxBytes` of a response body as text; the rest is never read: the body is cancelled, which closes the
 * connection, so a receiver that streams an endless answer costs nothing.
 */
export async function readStart(response: Response, maxBytes = RESPONSE_READ_BYTES): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, maxBytes - size);
      chunks.push(part);
      size += part.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
