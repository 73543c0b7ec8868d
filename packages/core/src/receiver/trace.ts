import type { RequestTarget } from "../endpoint/request-target";
import type { DeliveryInfo } from "./handlers";
import { type HandlerRun, preciseNow } from "./outcome";

/** What one traced delivery learns on its way, for its outcome (only while something listens for outcomes). */
export interface Trace {
  startedAt: number;
  target: RequestTarget | undefined;
  endpoint: string | undefined;
  delivery: DeliveryInfo | undefined;
  handlers: HandlerRun[];
  retiredSecretIndex: number | undefined;
}

export function startTrace(): Trace {
  return {
    startedAt: preciseNow(),
    target: undefined,
    endpoint: undefined,
    delivery: undefined,
    handlers: [],
    retiredSecretIndex: undefined,
  };
}
