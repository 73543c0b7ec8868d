/** What the runner, the load client (client.ts) and the servers (server.ts) exchange over IPC. */
import type { Route } from "./routes";

export interface LoadRun {
  port: number;
  path: string;
  connections: number;
  /** Requests to send; the run ends when all are answered. */
  amount: number;
  bodyBytes: number;
  /** Unique per run: part of every event id. */
  tag: string;
  /** "pool": signed before the run starts; "on-demand": signed as sent (1 MiB bodies would not fit a pool). */
  source: "pool" | "on-demand";
}

export interface LoadResult {
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Answers other than `{"received":true}`: a duplicate or an error body. */
  mismatches: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMeanMs: number;
  latencyP99Ms: number;
  /** When the first request was built: ms since the epoch, to compare with other processes' clocks. */
  startedAt: number;
  /** The client's CPU time over the run / wall time: near 1 means the client, not the server, was the limit. */
  clientCpuShare: number;
}

export interface RunStats {
  /** User + system CPU time of this process between measure-begin and measure-end, µs. */
  cpuMicros: number;
  /** Handler calls per route: each must equal the requests answered, or some were not fully processed. */
  handled: Record<Route, number>;
}
