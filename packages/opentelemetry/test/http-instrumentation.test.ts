import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SpanKind } from "@opentelemetry/api";
import { expect, it } from "vitest";

interface ExportedSpan {
  name: string;
  kind: SpanKind;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

// In its own process: the instrumentation patches node:http as it is first loaded, which vitest has done already.
it("under OpenTelemetry's HTTP instrumentation, the delivery span is a child of its SERVER span", async () => {
  const fixture = fileURLToPath(new URL("fixtures/http-instrumented.ts", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [
    "--conditions=@tidings/source",
    "--import",
    "tsx",
    fixture,
  ]);
  const { answer, spans } = JSON.parse(stdout) as { answer: unknown; spans: ExportedSpan[] };

  expect(answer).toEqual({ status: 200, code: "accepted" });
  const server = spans.find((span) => span.kind === SpanKind.SERVER);
  const delivery = spans.find((span) => span.name === "tidings.delivery");
  const handler = spans.find((span) => span.name === "tidings.handler");
  expect(server?.scope).toBe("@opentelemetry/instrumentation-http");
  expect(delivery?.traceId).toBe(server?.traceId);
  expect(delivery?.parentSpanId).toBe(server?.spanId);
  expect(handler?.parentSpanId).toBe(delivery?.spanId);
});
