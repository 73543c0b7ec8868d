import { BodyWatch, startOwnTimer } from "./body-watch";
import { type BodyLimits, concatBytes, payloadTooLarge } from "./limits";

/**
 * Reads a Web stream to the end, cancelling it as soon as it passes `maxBodyBytes`, `bodyTimeoutMs`, or arrives slower
 * than `minBodyBytesPerSecond` after its grace. Never reads more than one chunk past the limit, whatever the headers
 * announced. The stream's own errors propagate as they are. One promise, one timer at a time.
 */
export function readStreamWithin(stream: ReadableStream<Uint8Array>, limits: BodyLimits): Promise<Uint8Array> {
  const { maxBodyBytes } = limits;
  const reader = stream.getReader();
  return new Promise<Uint8Array>((resolve, reject) => {
    const watch = new BodyWatch(
      limits,
      (error) => {
        // Not awaited: a stalled source may never settle its cancel, and the answer must not wait for it.
        void reader.cancel().catch(() => {});
        reject(error);
      },
      startOwnTimer,
    );
    const collect = async () => {
      const chunks: Uint8Array[] = [];
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        watch.received += read.value.byteLength;
        if (watch.received > maxBodyBytes) {
          void reader.cancel().catch(() => {});
          throw payloadTooLarge(maxBodyBytes);
        }
        chunks.push(read.value);
      }
      return concatBytes(chunks, watch.received);
    };
    collect().then(
      (bytes) => {
        watch.clear();
        resolve(bytes);
      },
      (error: unknown) => {
        watch.clear();
        reject(error);
      },
    );
  });
}
