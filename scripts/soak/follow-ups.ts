// What the effects mode counts on the emulator's side: the follow-up messages it created per event (not the requests
// it replayed under an idempotency key it had seen), through a pass-through in front of its `POST /v3/messages`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const REPLAYED = "idempotent-replayed";

export interface FollowUps {
  /** What the handlers POST to (`${url}/v3/messages`). */
  url: string;
  /** Where the emulator is: requests before it is set are answered 503, and the handler's run fails (retried). */
  emulatorUrl: string | undefined;
  /** Per event named in a follow-up's body (`follow-up <event id>`), the messages the emulator created for it. */
  readonly created: Map<string, number>;
  close(): void;
}

export async function countFollowUps(): Promise<FollowUps> {
  const created = new Map<string, number>();
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (!followUps.emulatorUrl) {
      outgoing.writeHead(503).end();
      return;
    }
    try {
      const answer = await fetch(`${followUps.emulatorUrl}${incoming.url}`, {
        method: "POST",
        headers: {
          authorization: String(incoming.headers.authorization),
          "content-type": String(incoming.headers["content-type"]),
          "idempotency-key": String(incoming.headers["idempotency-key"]),
        },
        body,
      });
      const text = await answer.text();
      if (answer.status === 202 && answer.headers.get(REPLAYED) !== "true") {
        const event = new URLSearchParams(body.toString()).get("body")?.replace(/^follow-up /, "") ?? "";
        created.set(event, (created.get(event) ?? 0) + 1);
      }
      outgoing.writeHead(answer.status, { "content-type": "application/json" }).end(text);
    } catch {
      outgoing.writeHead(502).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const followUps: FollowUps = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    emulatorUrl: undefined,
    created,
    close: () => server.close(),
  };
  return followUps;
}
