import { execFileSync } from "node:child_process";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  date: string;
  loadAverage: string;
}

function kernel(): string {
  try {
    return execFileSync("uname", ["-sr"], { encoding: "utf8" }).trim();
  } catch {
    return process.platform;
  }
}

/** Recorded at start and end: a high load average says other processes shared the cores. */
export function currentLoad(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(" ");
}

export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: kernel(),
    date: new Date().toISOString(),
    loadAverage: currentLoad(),
  };
}
