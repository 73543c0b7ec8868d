/** What to run and for how long: `--quick` (CI: every benchmark once, tiny durations) or the full measurement. */
export type SuiteName = "verify" | "http" | "memory" | "instructions" | "hostile";

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

export interface Options {
  quick: boolean;
  suites: ReadonlySet<SuiteName>;
  /** Framework ids the HTTP and memory suites run (`--frameworks=koa,fastify`); all by default. */
  frameworks: readonly string[];
  /** Where the Markdown report goes; undefined: print it only. */
  out: string | undefined;
  verify: VerifySettings;
  http: HttpSettings;
  memory: MemorySettings;
  instructions: InstructionSettings;
}

const SUITES: readonly SuiteName[] = ["verify", "http", "memory", "instructions", "hostile"];
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

export function parseOptions(args: readonly string[], defaultOut: string, frameworkIds: readonly string[]): Options {
  const known = /^--(quick|only=.+|frameworks=.+|rounds=.+|out=.+)$/;
  const unknown = args.filter((arg) => !known.test(arg));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown argument(s) ${unknown.join(" ")}; use --quick, --only=${SUITES.join(",")}, --frameworks=${frameworkIds.join(",")}, --rounds=N, --out=FILE`,
    );
  }
  const quick = args.includes("--quick");
  const only = value(args, "only")?.split(",") ?? SUITES;
  for (const name of only) if (!SUITES.includes(name as SuiteName)) throw new Error(`--only: unknown suite ${name}`);
  const frameworks = value(args, "frameworks")?.split(",") ?? frameworkIds;
  for (const id of frameworks) if (!frameworkIds.includes(id)) throw new Error(`--frameworks: unknown framework ${id}`);
  const rounds = positiveInteger(value(args, "rounds"), "rounds");
  const out = value(args, "out") ?? (quick ? undefined : defaultOut);
  return {
    quick,
    suites: new Set(only as SuiteName[]),
    frameworks,
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
      ? {
          bodyBytes: 64 * KIB,
          inFlight: 4,
          rounds: rounds ?? 1,
          loadRequests: 8,
          freshServers: false,
        }
      : {
          bodyBytes: 1024 * KIB,
          inFlight: 50,
          rounds: rounds ?? 3,
          loadRequests: 250,
          freshServers: true,
        },
    instructions: instructionSettings(quick),
  };
}
