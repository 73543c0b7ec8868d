import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../../src/entries";
import {
  calendly,
  clerk,
  dropbox,
  github,
  intercom,
  lemonSqueezy,
  line,
  liveblocks,
  meta,
  mux,
  paddle,
  polar,
  resend,
  type Scheme,
  sentry,
  serviceSignature,
  shopify,
  slack,
  standardWebhooks,
  stripe,
  svix,
  typeform,
  vercel,
  workos,
} from "../../src/entries/schemes";

const SCHEMES: readonly [Scheme, string][] = [
  [serviceSignature(), "whsec_service"],
  [standardWebhooks(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [svix(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [stripe(), "whsec_stripe"],
  [github(), "github secret"],
  [shopify(), "shpss_secret"],
  [slack(), "slack signing secret"],
  [paddle(), "pdl_ntfset_01hv8x29kz0t586xy6zn1a62ky"],
  [mux(), "mux signing secret"],
  [workos(), "workos webhook secret"],
  [calendly(), "calendly signing key"],
  [lemonSqueezy(), "lemon squeezy secret"],
  [sentry(), "sentry client secret"],
  [typeform(), "typeform secret"],
  [intercom(), "intercom client secret"],
  [vercel(), "vercel webhook secret"],
  [clerk(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [resend(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [polar(), "polar_whs_PC8ViaeyUNK7tJMWr8IImhf1Uhjcnqn1lxZnm1BrbGg"],
  [liveblocks(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [line(), "line channel secret"],
  [meta(), "meta app secret"],
  [dropbox(), "dropbox app secret"],
];

const NOW = 1_800_000_000;
const at = { now: () => NOW * 1000 };
const NUM_RUNS = 150;

/** The code a WebhookVerificationError carries; anything else thrown fails the property. */
async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return error.code;
  }
}

describe.each(SCHEMES.map(([scheme, secret]) => ({ name: scheme.name, scheme, secret })))(
  "$name",
  ({ name, scheme, secret }) => {
    // A second secret written the scheme's way (a Standard Webhooks secret must be base64).
    const other = secret.startsWith("whsec_M") ? "whsec_b3RoZXI=" : "other";

    it(`${name}: verifies every body it signed, sync and async, within the window`, async () => {
      // The sender's own window where it documents one, else the default 5 minutes.
      const window = (scheme.toleranceSeconds ?? 300) - 1;
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 512 }),
          fc.integer({ min: -window, max: window }),
          async (body, skew) => {
            const headers = scheme.sign(body, secret, { timestamp: NOW + skew });
            expect(scheme.verify(body, headers, secret, at).secretIndex).toBe(0);
            expect((await scheme.verifyAsync(body, headers, [other, secret], at)).secretIndex).toBe(1);
          },
        ),
        { numRuns: NUM_RUNS },
      );
    });

    it(`${name}: refuses any change to the signed body with signature_mismatch`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 256 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (body, at0, flip) => {
            const headers = scheme.sign(body, secret, { timestamp: NOW });
            const changed = body.slice();
            const index = at0 % changed.length;
            changed[index] = (changed[index] as number) ^ flip;
            expect(await codeOf(() => scheme.verify(changed, headers, secret, at))).toBe("signature_mismatch");
            expect(await codeOf(() => scheme.verifyAsync(changed, headers, secret, at))).toBe("signature_mismatch");
          },
        ),
        { numRuns: NUM_RUNS },
      );
    });

    it(`${name}: any value of its signature header is refused with a typed 400, never accepted or crashed on`, async () => {
      const base = scheme.sign("{}", secret, { timestamp: NOW });
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.string(), fc.stringMatching(/^[tv01a=,sha256 +/A-Za-z0-9]*$/)), async (value) => {
          const headers = { ...base, [scheme.signatureHeader]: value };
          for (const run of [
            () => scheme.verify("{}", headers, secret, at),
            () => scheme.verifyAsync("{}", headers, secret, at),
          ]) {
            try {
              await run();
              // A header that still carries the right signature (the property may rebuild it) is the only acceptance.
              expect(value).toContain(base[scheme.signatureHeader]?.split(/[=,]/).pop());
            } catch (error) {
              expect(error).toBeInstanceOf(WebhookVerificationError);
              expect((error as WebhookVerificationError).status).toBe(400);
              expect((error as Error).message).not.toContain(secret);
            }
          }
        }),
        { numRuns: NUM_RUNS },
      );
    });
  },
);
