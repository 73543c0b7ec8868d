/** What to run and for how long: `--quick` (CI: every benchmark once, tiny durations) or the full measurement. */
export type SuiteName = "verify" | "http" | "memory" | "instructions" | "hostile" | "queue" | "schemes" | "secrets";

export interface VerifySettings {
  rounds: number;
  /** Each round is the median of this many short interleaved passes over every row. */
  passes: number;
  /** tinybench time budget per row per pass, ms. */
  timeMs: number;
  warmupMs: number;
  sizes: readonly number[];
}

export interface HttpSettings {
  rounds: number;
  /** Requests per route per round (each a distinct signed delivery), sent in `slices` runs alternating routes. */
  requests: number;
  slices: number;
  /** Requests per route before the first round, not measured. */
  warmupRequests: number;
  connections: number;
  bodyBytes: number;
}

export interface MemorySettings {
  bodyBytes: number;
  /** Concurrent connections, so requests in flight. */
  inFlight: number;
  /** Each round: a peak phase of `loadRequests` requests, then `inFlight` requests held inside the handler. */
  rounds: number;
  loadRequests: number;
  /**
   * A new server process per route and round, so the peak is measured from a process that never held a body
   * (quick mode shares one process per framework: its numbers are not meaningful, only the code path is).
   */
  freshServers: boolean;
}

export interface InstructionSettings {
  /** Requests per route before the first window, not counted. */
  warmupRequests: number;
  windows: number;
  windowRequests: number;
}

export interface QueueSettings {
  /** The receiver's instructions per request, its ideal and adapter routes taking turns. */
  enqueue: InstructionSettings;
  /** Worker instructions per job, the engine's own worker and ours taking turns (windows of `windowRequests` jobs). */
  worker: InstructionSettings;
  /** Jobs a worker process runs at once. */
  concurrency: number;
  bodyBytes: number;
  /** End to end: a run per number of worker processes in each round. */
  workerProcesses: readonly number[];
  rounds: number;
  /** Deliveries per run, after `warmupDeliveries` not measured. */
  deliveries: number;
  warmupDeliveries: number;
  connections: number;
  /**
   * Group commit's routes: warm-up deliveries per route (as many as the callgrind suites warm with: the adapter has
   * more code to tier up than a hand-written route), and rounds, enough that the per-round ratios' spread shows.
   */
  batching: { warmupDeliveries: number; rounds: number };
  /**
   * Group commit's routes under callgrind, where the targets are judged: the same warm-up per route, then windows
   * of deliveries, the routes taking turns.
   */
  batchingCount: InstructionSettings;
}

export interface Options {
  quick: boolean;
  /** Draw the report's sections and charts again from the results stored beside it; measure nothing. */
  rerender: boolean;
  suites: ReadonlySet<SuiteName>;
  /** Framework ids the HTTP and memory suites run (`--frameworks=koa,fastify`); all by default. */
  frameworks: readonly string[];
  /** Queue engines the queue suite runs (`--engines=bullmq`); all by default. */
  engines: readonly string[];
  /**
   * Schemes the schemes suite runs (`--schemes=twilio,plivo`); the whole catalogue by default. A run of some into a
   * report (`--out`) replaces their rows among the report's stored ones and names them as counted apart.
   */
  schemes: readonly string[] | undefined;
  /** Where the Markdown report goes; undefined: print it only. */
  out: string | undefined;
  verify: VerifySettings;
  http: HttpSettings;
  memory: MemorySettings;
  instructions: InstructionSettings;
  queue: QueueSettings;
}

export const SUITES: readonly SuiteName[] = [
  "verify",
  "http",
  "memory",
  "instructions",
  "hostile",
  "queue",
  "schemes",
  "secrets",
];
const KIB = 1024;
const SIZES = [256, 4 * KIB, 64 * KIB, 1024 * KIB] as const;

function value(args: readonly string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  return args.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer`);
  return number;
}

/** Fewer warm-up requests left some servers still tiering up (Next.js Pages' counts moved by 15 % after 3,000). */
export function instructionSettings(quick: boolean): InstructionSettings {
  return quick
    ? { warmupRequests: 50, windows: 1, windowRequests: 20 }
    : { warmupRequests: 8_000, windows: 5, windowRequests: 1_000 };
}

/** Quick mode runs every step of the queue suite on a few requests and jobs: CI checks the code path, not figures. */
function queueSettings(quick: boolean, rounds: number | undefined): QueueSettings {
  const common = { concurrency: 8, bodyBytes: 2 * KIB, connections: 16 };
  return quick
    ? {
        ...common,
        workerProcesses: [1, 2],
        enqueue: { warmupRequests: 20, windows: 1, windowRequests: 10 },
        worker: { warmupRequests: 20, windows: 1, windowRequests: 10 },
        rounds: rounds ?? 1,
        deliveries: 40,
        warmupDeliveries: 10,
        batching: { warmupDeliveries: 10, rounds: rounds ?? 1 },
        batchingCount: { warmupRequests: 10, windows: 1, windowRequests: 32 },
      }
    : {
        ...common,
        workerProcesses: [1, 2, 4],
        enqueue: { warmupRequests: 6_000, windows: 10, windowRequests: 500 },
        worker: { warmupRequests: 6_000, windows: 12, windowRequests: 500 },
        rounds: rounds ?? 3,
        deliveries: 4_000,
        warmupDeliveries: 500,
        batching: { warmupDeliveries: 6_000, rounds: rounds ?? 9 },
        batchingCount: { warmupRequests: 6_000, windows: 9, windowRequests: 500 },
      };
}

export function parseOptions(
  args: readonly string[],
  defaultOut: string,
  frameworkIds: readonly string[],
  engineIds: readonly string[],
): Options {
  const known = /^--(quick|rerender|only=.+|frameworks=.+|engines=.+|schemes=.+|rounds=.+|out=.+)$/;
  const unknown = args.filter((arg) => !known.test(arg));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown argument(s) ${unknown.join(" ")}; use --quick, --rerender, --only=${SUITES.join(",")}, --frameworks=${frameworkIds.join(",")}, --engines=${engineIds.join(",")}, --schemes=NAME,…, --rounds=N, --out=FILE`,
    );
  }
  const quick = args.includes("--quick");
  const only = value(args, "only")?.split(",") ?? SUITES;
  for (const name of only) if (!SUITES.includes(name as SuiteName)) throw new Error(`--only: unknown suite ${name}`);
  const frameworks = value(args, "frameworks")?.split(",") ?? frameworkIds;
  for (const id of frameworks) if (!frameworkIds.includes(id)) throw new Error(`--frameworks: unknown framework ${id}`);
  const engines = value(args, "engines")?.split(",") ?? engineIds;
  for (const id of engines) if (!engineIds.includes(id)) throw new Error(`--engines: unknown engine ${id}`);
  const rounds = positiveInteger(value(args, "rounds"), "rounds");
  const schemes = value(args, "schemes")?.split(",");
  const out = value(args, "out") ?? (quick || schemes ? undefined : defaultOut);
  return {
    quick,
    rerender: args.includes("--rerender"),
    suites: new Set(only as SuiteName[]),
    frameworks,
    engines,
    schemes,
    out,
    verify: quick
      ? { rounds: rounds ?? 1, passes: 1, timeMs: 10, warmupMs: 2, sizes: SIZES }
      : { rounds: rounds ?? 5, passes: 12, timeMs: 25, warmupMs: 5, sizes: SIZES },
    http: quick
      ? { rounds: rounds ?? 1, requests: 200, slices: 1, warmupRequests: 50, connections: 8, bodyBytes: 2 * KIB }
      : {
          rounds: rounds ?? 5,
          // Slices are short (~0.2 s per route) and a route's CPU per request moves by up to 2x from one slice to the
          // next on this shared VM: 20 slices per round make each round's median steady enough to compare 5 %.
          requests: 40_000,
          slices: 20,
          warmupRequests: 5_000,
          connections: 16,
          bodyBytes: 2 * KIB,
        },
    memory: quick
      ? { bodyBytes: 64 * KIB, inFlight: 4, rounds: rounds ?? 1, loadRequests: 8, freshServers: false }
      : { bodyBytes: 1024 * KIB, inFlight: 50, rounds: rounds ?? 3, loadRequests: 250, freshServers: true },
    instructions: instructionSettings(quick),
    queue: queueSettings(quick, rounds),
  };
}
