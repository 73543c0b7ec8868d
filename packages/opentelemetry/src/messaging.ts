import type { Attributes } from "@opentelemetry/api";

/** What messaging semantic conventions put on both the spans and the metrics of a send or a process. */
export function messagingAttributes(
  operation: "send" | "process",
  system: string | undefined,
  queue: string | undefined,
): Attributes {
  const attributes: Attributes = { "messaging.operation.type": operation, "messaging.operation.name": operation };
  if (system !== undefined) attributes["messaging.system"] = system;
  if (queue !== undefined) attributes["messaging.destination.name"] = queue;
  return attributes;
}

/** `{operation} {destination}`, as messaging semantic conventions name spans. */
export function messagingSpanName(operation: "send" | "process", queue: string | undefined): string {
  return queue === undefined ? operation : `${operation} ${queue}`;
}
