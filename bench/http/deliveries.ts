import { sign } from "@tidings/core";
import { type Delivery, eventBody, nowSeconds, SECRET } from "../lib/deliveries";

const COUNTER_DIGITS = 9;

/**
 * Distinct signed deliveries of one size: a body template whose id digits are patched per delivery (so every
 * event id, hence every dedup key, is new), signed with a timestamp that varies within the last minute.
 */
export class DeliveryFactory {
  readonly #template: Buffer;
  readonly #slots: number[];
  #count = 0;

  constructor(size: number, tag: string) {
    const id = `evt_${tag}_${"0".repeat(COUNTER_DIGITS)}`;
    this.#template = eventBody(size, id);
    const text = this.#template.toString("latin1");
    this.#slots = [];
    for (let at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) {
      this.#slots.push(at + id.length - COUNTER_DIGITS);
    }
  }

  next(): Delivery {
    const count = this.#count++;
    const digits = String(count).padStart(COUNTER_DIGITS, "0");
    if (digits.length > COUNTER_DIGITS) throw new Error("DeliveryFactory: counter overflow");
    const body = Buffer.from(this.#template);
    for (const slot of this.#slots) body.write(digits, slot, "latin1");
    const timestamp = nowSeconds() - (count % 60);
    return { body, header: sign(body, SECRET, { timestamp }), timestamp };
  }
}

/** Signed ahead of the run, so the client spends its time sending. */
export function presignedPool(size: number, tag: string, count: number): Delivery[] {
  const factory = new DeliveryFactory(size, tag);
  return Array.from({ length: count }, () => factory.next());
}
