// The checks every sender's scheme passes against the sender's own SDK (or, where the SDK only verifies or does not
// exist, the sender's documented algorithm written out in the test): each sender's file describes how its SDK signs
// and verifies, and calls `describeSender`.
import { createReceiver, type EventMap, WebhookVerificationError } from "@tidings/core";
import { type JobRun, QueueWorker, toQueuedDelivery } from "@tidings/core/dispatch";
import type { Scheme, SignedRequest } from "@tidings/core/schemes";
import { describe, expect, it } from "vitest";

export interface SenderUnderTest {
  scheme: Scheme;
  secret: string;
  /** A secret of the same kind that did not sign: the one a rotation replaces, or a wrong one. */
  otherSecret: string;
  /** The body the sender sends: as its users see it, so the scheme's `typeOf` and `idOf` read it. */
  body: string;
  /** The event type and dedup id the scheme reads from `body` and the headers `sign` gives. */
  type: string;
  /** Whether the scheme signs a time, so that an old delivery is refused (`timestamp_too_old`). */
  timed: boolean;
  /** For a scheme that signs the request's URL (and method). */
  request?: SignedRequest;
  /** Headers the SDK (or documented algorithm) sends with `body`, signed at `timestamp` (Unix seconds). */
  sign(body: string, secret: string, timestamp: number): Promise<Record<string, string>> | Record<string, string>;
  /** Whether the SDK accepts a delivery: undefined where the SDK cannot verify (then only one direction is proved). */
  accepts?(body: string, headers: Record<string, string>, secret: string): Promise<boolean> | boolean;
  /** Secrets for Tidings' own `sign`, where signing needs a private key the receiver does not hold. */
  signingSecret?: string;
  /**
   * False for a sender whose deliveries carry nothing that tells a retry from the next notification (Dropbox): each
   * delivery runs. Default true: a second delivery of one event is a duplicate.
   */
  dedup?: boolean;
}

const now = () => Math.floor(Date.now() / 1000);

/** A worker whose engine is a list: core's QueueWorker, run as BullMQ's and pg-boss's workers run it. */
class ListWorker extends QueueWorker<EventMap> {
  constructor() {
    super({}, { system: "list", queue: "deliveries" });
  }

  take(data: unknown, job: JobRun) {
    return this.run(data, job);
  }

  async close(): Promise<void> {}
}

/** The code of the WebhookVerificationError `run` throws (a 400), or undefined when it verifies. */
export async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    expect(error.status).toBe(400);
    return error.code;
  }
}

export function describeSender(name: string, sender: SenderUnderTest): void {
  const { scheme, secret, otherSecret, body, request } = sender;
  const options = request && { request };

  describe(`${name} (${scheme.name})`, () => {
    it("verifies what the sender signs, sync and async, and says which secret of a rotation signed it", async () => {
      const headers = await sender.sign(body, secret, now());
      expect(scheme.verify(body, headers, secret, options)).toMatchObject({ secretIndex: 0 });
      expect(
        await scheme.verifyAsync(Buffer.from(body), new Headers(headers), [otherSecret, secret], options),
      ).toMatchObject({
        secretIndex: 1,
      });
    });

    if (sender.accepts) {
      const accepts = sender.accepts.bind(sender);
      it("signs what the sender's SDK verifies, and the SDK refuses it changed", async () => {
        const headers = scheme.sign(body, sender.signingSecret ?? secret, { ...request, timestamp: now() });
        expect(await accepts(body, headers, secret)).toBe(true);
        expect(await accepts(`${body} `, headers, secret)).toBe(false);
      });
    }

    it("refuses a tampered body and a wrong secret with signature_mismatch", async () => {
      const headers = await sender.sign(body, secret, now());
      expect(await codeOf(() => scheme.verify(`${body} `, headers, secret, options))).toBe("signature_mismatch");
      expect(await codeOf(() => scheme.verifyAsync(body, headers, otherSecret, options))).toBe("signature_mismatch");
    });

    if (request) {
      it("refuses a delivery whose URL changed on the way", async () => {
        const headers = await sender.sign(body, secret, now());
        const moved = { request: { ...request, url: `${request.url.replace(/\/$/, "")}x` } };
        expect(await codeOf(() => scheme.verify(body, headers, secret, moved))).toBe("signature_mismatch");
      });
    }

    it(sender.timed ? "refuses an old delivery" : "signs no time: an old delivery still verifies", async () => {
      const headers = await sender.sign(body, secret, now() - 3600);
      const code = await codeOf(() => scheme.verify(body, headers, secret, options));
      expect(code).toBe(sender.timed ? "timestamp_too_old" : undefined);
    });

    it("answers missing_header without its signature header, and a typed 400 for a broken one", async () => {
      const headers = await sender.sign(body, secret, now());
      const without = Object.fromEntries(Object.entries(headers).filter(([key]) => key !== scheme.signatureHeader));
      expect(await codeOf(() => scheme.verify(body, without, secret, options))).toBe("missing_header");
      for (const broken of ["garbage", "v1=zz", "sha256=", "t=1", ",,,", "x".repeat(9000)]) {
        const code = await codeOf(() =>
          scheme.verify(body, { ...headers, [scheme.signatureHeader]: broken }, secret, options),
        );
        expect(["malformed_header", "no_supported_signature", "signature_mismatch"]).toContain(code);
      }
    });

    const dedup = sender.dedup ?? true;
    it(`is handled through a Receiver: its type routed, a second delivery of it ${dedup ? "a duplicate" : "run too"}`, async () => {
      const seen: string[] = [];
      // Behind a proxy: the app sees an internal address, and `publicUrl` says what the sender called.
      const publicUrl = request && new URL(request.url).origin;
      const internal = request?.url.replace(/^https?:\/\/[^/?]+/, "http://10.0.0.7:3000");
      const receiver = createReceiver({ scheme, secret, publicUrl }).onAny((_event, ctx) => {
        seen.push(ctx.type);
      });
      const headers = await sender.sign(body, secret, now());
      const delivery = { rawBody: Buffer.from(body), headers, url: internal, method: request?.method };
      expect((await receiver.receive(delivery)).code).toBe("accepted");
      expect((await receiver.receive(delivery)).code).toBe(dedup ? "duplicate" : "accepted");
      expect(seen).toEqual(dedup ? [sender.type] : [sender.type, sender.type]);
    });

    it("crosses the queue hand-off: the job a receiver enqueues reaches a worker's handler of its type", async () => {
      const jobs: unknown[] = [];
      const publicUrl = request && new URL(request.url).origin;
      const receiver = createReceiver({ scheme, secret, publicUrl }).onAny((event, ctx) => {
        // What an engine stores and hands back: the job's JSON.
        jobs.push(JSON.parse(JSON.stringify(toQueuedDelivery(event as object, ctx, false))));
      });
      const headers = await sender.sign(body, secret, now());
      const answer = await receiver.receive({
        rawBody: Buffer.from(body),
        headers,
        url: request?.url,
        method: request?.method,
      });
      expect(answer.status).toBe(200);
      const handled: string[] = [];
      const worker = new ListWorker().on(sender.type, (_event, context) => {
        handled.push(context.type);
      });
      for (const [index, job] of jobs.entries()) await worker.take(job, { id: `job-${index}`, attempt: 1 });
      expect(handled).toEqual([sender.type]);
    });

    it("describes its sender for the catalogue", () => {
      expect(scheme.about).toMatchObject({ sender: expect.any(String), testedAgainst: expect.any(String) });
      expect(scheme.about?.headers).toContain(scheme.signatureHeader);
    });
  });
}
