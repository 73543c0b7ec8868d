export { type Instrumentable, instrument } from "./instrument";
export type { InstrumentOptions } from "./telemetry";
