/**
 * Deadlines on one timer per duration: for bodies read off Node's servers, and for handing a job to a queue engine.
 * A `setTimeout` and `clearTimeout` per request cost Node more than the timer: it keeps one timer list per duration
 * and drops it whenever it empties, so at a few requests in flight most reads rebuild the list and its place in the
 * timer queue. (Web streams, read wherever a Request comes from, keep a timer of their own.)
 *
 * Each duration gets a lane whose timer ticks every `timeoutMs / SLICES` (rounded up to a whole ms) while deadlines
 * are pending. A deadline joins the lane's current bucket, and the bucket expires SLICES + 1 ticks after it opened:
 * from `timeoutMs` to one tick more after the deadline started. Clearing removes the deadline from its bucket in
 * constant time (the bucket's last deadline takes its place), so nothing is held after a read ends. A bucket that
 * expires is detached first: each deadline leaves it just before its `expire` runs, so an `expire` that clears its own
 * deadline (as a read's does) or another one of the same bucket never moves a deadline past the sweep.
 *
 * The timer is unreferenced: it never keeps a process alive by itself (a server's socket does). Node, Bun and Deno
 * run a timer whatever request set it; workerd drops a request's timers when its requests end, which would leave a
 * lane that believes it ticks, so there each deadline keeps a timer of its own.
 */
const SLICES = 8;

export interface Deadline {
  /** The read ended: the deadline will not expire. Safe to call more than once, and after it expired. */
  clear(): void;
}

interface Lane {
  readonly tickMs: number;
  readonly buckets: SharedDeadline[][];
  current: number;
  ticking: boolean;
}

/** Where a deadline that expired points: clearing it finds nothing to remove. */
const EXPIRED: SharedDeadline[] = [];

class SharedDeadline implements Deadline {
  constructor(
    private bucket: SharedDeadline[],
    private index: number,
    private readonly expire: () => void,
  ) {}

  /** Leaves its bucket (being swept), then expires. */
  run(): void {
    this.bucket = EXPIRED;
    this.expire();
  }

  clear(): void {
    const { bucket, index } = this;
    if (bucket[index] !== this) return;
    const last = bucket.pop() as SharedDeadline;
    if (last === this) return;
    bucket[index] = last;
    last.index = index;
  }
}

const lanes = new Map<number, Lane>();
let lastLane: Lane | undefined;
let lastTimeoutMs = 0;

function laneFor(timeoutMs: number): Lane {
  if (timeoutMs === lastTimeoutMs && lastLane) return lastLane;
  let lane = lanes.get(timeoutMs);
  if (!lane) {
    const buckets = Array.from({ length: SLICES + 1 }, () => []);
    lane = { tickMs: Math.ceil(timeoutMs / SLICES), buckets, current: 0, ticking: false };
    lanes.set(timeoutMs, lane);
  }
  lastTimeoutMs = timeoutMs;
  lastLane = lane;
  return lane;
}

function tick(lane: Lane): void {
  lane.current = (lane.current + 1) % lane.buckets.length;
  const expired = lane.buckets[lane.current] as SharedDeadline[];
  lane.buckets[lane.current] = [];
  // By index, reading the length each time: an `expire` may clear a deadline further on, whose place the bucket's
  // last deadline then takes.
  for (let i = 0; i < expired.length; i++) (expired[i] as SharedDeadline).run();
  lane.ticking = lane.buckets.some((bucket) => bucket.length > 0);
  if (lane.ticking) startTicking(lane);
}

function startTicking(lane: Lane): void {
  lane.ticking = true;
  const timer = setTimeout(() => tick(lane), lane.tickMs) as { unref?: () => void };
  timer.unref?.();
}

const TIMERS_PER_REQUEST =
  (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === "Cloudflare-Workers";

/** Calls `expire` once `timeoutMs` (up to one tick more) have passed, unless the deadline is cleared first. */
export function startSharedDeadline(timeoutMs: number, expire: () => void): Deadline {
  if (TIMERS_PER_REQUEST) {
    const timer = setTimeout(expire, timeoutMs);
    return { clear: () => clearTimeout(timer) };
  }
  const lane = laneFor(timeoutMs);
  const bucket = lane.buckets[lane.current] as SharedDeadline[];
  const deadline = new SharedDeadline(bucket, bucket.length, expire);
  bucket.push(deadline);
  if (!lane.ticking) startTicking(lane);
  return deadline;
}
