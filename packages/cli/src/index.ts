export type { SkippedProbe } from "./check/probes";
export type { CheckOptions, CheckReport, ProbeResult } from "./check/run-check";
export { runCheck } from "./check/run-check";
export type { ChaosSettings } from "./emulator/chaos";
export type { AttemptRecord, EventRecord, MessageRecord } from "./emulator/journal";
export type { RetryPolicy } from "./emulator/rules";
export { DEFAULT_RETRY, FAILING_RECIPIENTS, TEST_KEY_PREFIX } from "./emulator/rules";
export { type Emulator, type EmulatorOptions, startEmulator } from "./emulator/server";
export { FIXTURES } from "./fixtures";
