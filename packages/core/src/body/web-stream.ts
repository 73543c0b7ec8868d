import { concatBytes, payloadTooLarge } from "./limits";

/** Reads a Web stream to the end, cancelling it as soon as it passes `maxBodyBytes`. */
export async function readStreamWithin(stream: ReadableStream<Uint8Array>, maxBodyBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBodyBytes) {
      await reader.cancel();
      throw payloadTooLarge(maxBodyBytes);
    }
    chunks.push(read.value);
  }
  return concatBytes(chunks, total);
}
