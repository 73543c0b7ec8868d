export const MISSING_SECRET =
  "WEBHOOK_SECRET is not set. Start Next.js with the webhook endpoint's secret, e.g. WEBHOOK_SECRET=whsec_test";

/** The endpoint secret, read when a request needs it: `next build` loads the route modules without it. */
export function webhookSecret(): string {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error(MISSING_SECRET);
  return secret;
}
