import { readFileSync, writeFileSync } from "node:fs";

/** Server-side memory readings, in bytes. */
export interface MemoryReading {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
  external: number;
}

export interface PeakReading {
  baseline: MemoryReading;
  peak: MemoryReading;
  /** How peak RSS was read: the kernel's high-water mark (reset before the run) or sampling. */
  rssSource: "VmHWM" | "sampled";
}

/**
 * Full GCs until nothing more is freed: V8 releases ArrayBuffer backing stores (where Buffers live) after the
 * collection itself, so one `gc()` can leave freed bodies counted for a moment.
 */
async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the server needs --expose-gc");
  let before = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 10; pass++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    const now = process.memoryUsage().arrayBuffers;
    if (now >= before) return;
    before = now;
  }
}

function reading(): MemoryReading {
  const { rss, heapUsed, arrayBuffers, external } = process.memoryUsage();
  return { rss, heapUsed, arrayBuffers, external };
}

/** Linux: writing 5 to clear_refs resets the peak-RSS high-water mark (VmHWM) to the current RSS. */
function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

function peakRss(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Peak memory during a load phase: RSS from the kernel's high-water mark, heap and ArrayBuffers (where Buffers
 * live, off the V8 heap) sampled every 2 ms. The baseline is taken after a full GC.
 */
export class PeakProbe {
  #baseline: MemoryReading | undefined;
  #peak: MemoryReading = { rss: 0, heapUsed: 0, arrayBuffers: 0, external: 0 };
  #timer: NodeJS.Timeout | undefined;
  #kernelPeak = false;

  async begin(): Promise<MemoryReading> {
    await collectGarbage();
    this.#kernelPeak = resetPeakRss();
    this.#baseline = reading();
    this.#peak = { ...this.#baseline };
    this.#timer = setInterval(() => this.#sample(), 2);
    return this.#baseline;
  }

  end(): PeakReading {
    clearInterval(this.#timer);
    this.#sample();
    if (!this.#baseline) throw new Error("PeakProbe.end() before begin()");
    const kernel = this.#kernelPeak ? peakRss() : undefined;
    const peak = kernel === undefined ? this.#peak : { ...this.#peak, rss: kernel };
    return { baseline: this.#baseline, peak, rssSource: kernel === undefined ? "sampled" : "VmHWM" };
  }

  #sample(): void {
    const now = reading();
    const peak = this.#peak;
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    peak.external = Math.max(peak.external, now.external);
  }
}

export interface HeldReading {
  /** After a full GC with nothing in flight. */
  idle: MemoryReading;
  /** After a full GC with `held` requests parked inside their handler. */
  held: MemoryReading;
  count: number;
}

/**
 * Holds handlers until `target` of them are inside at once, then collects garbage and reads memory: what stays
 * live is what each in-flight delivery retains (the body copies a route keeps, the parsed event), not garbage.
 */
export class HoldGate {
  #target = 0;
  #waiting: (() => void)[] = [];
  /** What the parked handlers hold, kept reachable until they resume. */
  #holding: unknown[] = [];
  #idle: MemoryReading | undefined;
  #result: Promise<HeldReading> | undefined;
  #resolve: ((reading: HeldReading) => void) | undefined;

  /** Starts holding; returns once the idle baseline is read. */
  async arm(target: number): Promise<void> {
    await collectGarbage();
    this.#idle = reading();
    this.#target = target;
    this.#waiting = [];
    this.#holding = [];
    this.#result = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** undefined when not holding: the caller goes on without awaiting anything. */
  arrive(holding: unknown): Promise<void> | undefined {
    if (this.#target === 0) return undefined;
    this.#holding.push(holding);
    const parked = new Promise<void>((resolve) => this.#waiting.push(resolve));
    if (this.#waiting.length === this.#target) void this.#release();
    return parked;
  }

  result(): Promise<HeldReading> {
    if (!this.#result) throw new Error("HoldGate.result() before arm()");
    return this.#result;
  }

  async #release(): Promise<void> {
    await collectGarbage();
    const held = reading();
    const waiting = this.#waiting;
    this.#target = 0;
    this.#waiting = [];
    this.#holding = [];
    this.#resolve?.({ idle: this.#idle as MemoryReading, held, count: waiting.length });
    for (const resume of waiting) resume();
  }
}
