// The Google Cloud Functions recipe of packages/core/README.md ("Recipes"), as its test runs it.
import { http } from "@google-cloud/functions-framework";
import type { EventMap, Receiver } from "@tidings/core";
import { handleNodeRequest, writeNodeResponse } from "@tidings/core/node";

export function registerWebhookFunction<Events extends EventMap>(name: string, receiver: Receiver<Events>): void {
  http(name, async (req, res) => {
    // The Functions Framework parses every body and keeps the bytes it read (gzip undone) in req.rawBody.
    const result = await handleNodeRequest(receiver, req, {
      decodedBody: req.rawBody,
      consumedFix: "In Google Cloud Functions, pass req.rawBody.",
    });
    writeNodeResponse(res, result);
  });
}
