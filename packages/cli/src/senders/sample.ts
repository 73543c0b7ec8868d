/** One delivery as a sender sends it: its body, content type, and the headers it sends besides the signature. */
export interface SampleDelivery {
  body: string;
  contentType: string;
  headers: Record<string, string>;
}

/**
 * How a sender's deliveries look, for `send` and `check --scheme`: an event of a type its users handle, shaped as the
 * sender shapes it (a GitHub `issues` event has an `issue`), with `id` as its dedup id and `now` as its time.
 */
export type SenderSample = (id: string, now: number) => SampleDelivery;

export const JSON_TYPE = "application/json";

/** A JSON delivery: `body` serialized, with the sender's other headers. */
export const json = (body: object, headers: Record<string, string> = {}): SampleDelivery => ({
  body: JSON.stringify(body),
  contentType: JSON_TYPE,
  headers,
});
