import type { PGlite } from "@electric-sql/pglite";
import type { SimEvent } from "./model";

/**
 * The reference model of transactional handlers: what was acknowledged, and what the database holds, read after every
 * step. Each event's effect (its row in the app's table) is applied at most once, and exactly once once acknowledged;
 * a committed row never stands without its done mark (and, with `order`, its object's position), nor a done mark
 * without its row, but for an event the store judged stale (marked done, never run).
 */
export class EffectsModel {
  readonly violations: string[] = [];
  readonly log: string[] = [];
  /** Events acknowledged (a 2xx answer, a job completed), and how. */
  readonly #acknowledged = new Map<string, string>();
  /** Events the store judged stale: marked done, never run. */
  readonly #stale = new Set<string>();
  readonly #byId: Map<string, SimEvent>;
  /** Effects applied so far, per event, as the last check counted them. */
  readonly applied = new Map<string, number>();

  constructor(
    readonly db: PGlite,
    readonly tables: { store: string; app: string },
    readonly events: SimEvent[],
    /** What the store's keys start with before the delivery key (a worker's `job:<queue>:`). */
    readonly keyPrefix: string,
  ) {
    this.#byId = new Map(events.map((event) => [event.id, event]));
  }

  eventOf(id: string): SimEvent {
    const event = this.#byId.get(id);
    if (!event) throw new Error(`an event the schedule never sent: ${id}`);
    return event;
  }

  note(line: string): void {
    this.log.push(line);
  }

  violation(message: string): void {
    this.note(`VIOLATION ${message}`);
    this.violations.push(message);
  }

  acknowledged(eventId: string, how: string): void {
    if (how.endsWith("stale")) this.#stale.add(eventId);
    if (!this.#acknowledged.has(eventId)) this.#acknowledged.set(eventId, how);
  }

  /** After the last delivery of every event with no fault: each was acknowledged. */
  checkAllAcknowledged(): void {
    for (const event of this.events) {
      if (!this.#acknowledged.has(event.id)) this.violation(`${event.id} was never acknowledged`);
    }
  }

  /** Reads the app's table and the store's, and checks every invariant against them. */
  async check(): Promise<void> {
    const rows = await this.db.query<{ event_id: string; n: number; last: number }>(
      `SELECT event_id, count(*)::int AS n, max(seq) AS last FROM ${this.tables.app} GROUP BY event_id`,
    );
    const marks = await this.db.query<{ key: string; done: boolean }>(
      `SELECT key, done FROM ${this.tables.store}_deliveries WHERE expires_at > now()`,
    );
    const positions = await this.db.query<{ object: string; position: number | null }>(
      `SELECT object, position FROM ${this.tables.store}_positions WHERE position IS NOT NULL`,
    );
    const count = new Map(rows.rows.map((row) => [row.event_id, row.n]));
    const done = new Map(
      marks.rows.filter((mark) => mark.done).map((mark) => [mark.key.slice(this.keyPrefix.length), mark]),
    );
    for (const event of this.events) {
      const n = count.get(event.id) ?? 0;
      const before = this.applied.get(event.id) ?? 0;
      this.applied.set(event.id, n);
      const key = `event:${event.id}`;
      const mark = done.get(key);
      if (n > 1) this.violation(`${event.id}'s effect was applied ${n} times`);
      if (n < before) this.violation(`${event.id}'s committed effect disappeared`);
      if (n === 1 && !mark) this.violation(`${event.id}'s row committed without its done mark`);
      // A stale verdict marks the key done and runs nothing.
      const stale = this.#stale.has(event.id);
      if (n === 0 && mark && !stale) this.violation(`${event.id} is marked done, but its row never committed`);
      if (n > 0 && stale) this.violation(`${event.id} was judged stale, yet its effect was applied`);
      const how = this.#acknowledged.get(event.id);
      if (how !== undefined && n !== 1 && !stale) {
        this.violation(`${event.id} was acknowledged (${how}), but its effect was applied ${n} times`);
      }
    }
    // With `order`: each object's position is the highest of its events whose rows committed.
    const highest = new Map<string, number>();
    for (const event of this.events) {
      if ((count.get(event.id) ?? 0) === 0 || event.position === undefined) continue;
      highest.set(event.object, Math.max(highest.get(event.object) ?? Number.NEGATIVE_INFINITY, event.position));
    }
    for (const { object, position } of positions.rows) {
      const written = highest.get(object.slice(this.keyPrefix.length)) ?? highest.get(object);
      if (written !== position) {
        this.violation(`${object}'s position is ${position}, but its highest committed row is at ${written}`);
      }
    }
  }
}
