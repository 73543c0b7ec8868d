import { type BodyLimits, bodyTimedOut, concatBytes, DEFAULT_BODY_TIMEOUT_MS, payloadTooLarge } from "./limits";

/**
 * Reads a Web stream to the end, cancelling it as soon as it passes `maxBodyBytes` or `bodyTimeoutMs`. Never reads
 * more than one chunk past the limit, whatever the headers announced. The stream's own errors propagate as they are.
 */
export async function readStreamWithin(stream: ReadableStream<Uint8Array>, limits: BodyLimits): Promise<Uint8Array> {
  const { maxBodyBytes } = limits;
  const bodyTimeoutMs = limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const reader = stream.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(bodyTimedOut(bodyTimeoutMs)), bodyTimeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), deadline]);
      if (read.done) return concatBytes(chunks, total);
      total += read.value.byteLength;
      if (total > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
      chunks.push(read.value);
    }
  } catch (error) {
    // Not awaited: a stalled source may never settle its cancel, and the answer must not wait for it.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
