export type { RetryPolicy } from "./emulator/rules";
export { DEFAULT_RETRY, FAILING_RECIPIENTS, TEST_KEY_PREFIX } from "./emulator/rules";
export { type Emulator, type EmulatorOptions, startEmulator } from "./emulator/server";
