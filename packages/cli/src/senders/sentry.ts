import { iso, json, numberOf, type SenderSample } from "./sample";

/**
 * An issue created, as Sentry's integration platform sends it (trimmed), with the resource in `Sentry-Hook-Resource`;
 * `Request-ID` is `id`, but the scheme dedups by the signature, as `Request-ID` is not signed.
 */
export const sentry: SenderSample = (id, now) =>
  json(
    {
      action: "created",
      installation: { uuid: "7a485448-a9e2-4c85-8a3c-4f44175783c9" },
      data: {
        issue: {
          id: String(numberOf(id, 10)),
          shortId: "IPE-1",
          title: "Error: Unhandled rejection",
          culprit: "src/index.ts in main",
          level: "error",
          status: "unresolved",
          project: { id: "1", name: "ipe", slug: "ipe" },
          firstSeen: iso(now),
          lastSeen: iso(now),
        },
      },
      actor: { type: "application", id: "sentry", name: "Sentry" },
    },
    { "sentry-hook-resource": "issue", "sentry-hook-timestamp": String(now), "request-id": id },
  );
