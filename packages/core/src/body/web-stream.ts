import { type BodyLimits, bodyTimedOut, concatBytes, DEFAULT_BODY_TIMEOUT_MS, payloadTooLarge } from "./limits";

/** Rejects with 408 `body_timeout` when `reading` has not settled within `bodyTimeoutMs`. One promise, one timer. */
export function withinDeadline<T>(reading: Promise<T>, limits: BodyLimits, onTimeout?: () => void): Promise<T> {
  const bodyTimeoutMs = limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(bodyTimedOut(bodyTimeoutMs));
    }, bodyTimeoutMs);
    reading.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Reads a Web stream to the end, cancelling it as soon as it passes `maxBodyBytes` or `bodyTimeoutMs`. Never reads
 * more than one chunk past the limit, whatever the headers announced. The stream's own errors propagate as they are.
 */
export function readStreamWithin(stream: ReadableStream<Uint8Array>, limits: BodyLimits): Promise<Uint8Array> {
  const { maxBodyBytes } = limits;
  const reader = stream.getReader();
  // Not awaited: a stalled source may never settle its cancel, and the answer must not wait for it.
  const cancel = () => void reader.cancel().catch(() => {});
  const collect = async () => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      total += read.value.byteLength;
      if (total > maxBodyBytes) {
        cancel();
        throw payloadTooLarge(maxBodyBytes);
      }
      chunks.push(read.value);
    }
    return concatBytes(chunks, total);
  };
  return withinDeadline(collect(), limits, cancel);
}
