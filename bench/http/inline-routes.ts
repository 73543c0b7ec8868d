import { verifyInline } from "./ideal";
import { claimId, settleId } from "./inline-dedup";
import type { RouteHooks } from "./routes";

/** The hand-written routes: verify inline and call the handler; `idealDedup` also deduplicates by event id. */
export const INLINE_ROUTES = ["ideal", "idealDedup"] as const;
export type InlineRoute = (typeof INLINE_ROUTES)[number];

/**
 * A hand-written route's work between reading the body and answering: the status to answer, 200 with the Receiver's
 * answer body, anything else empty. A number unless the handler returned a promise (the memory benchmark parks it),
 * so the routes await what they awaited before: one tick.
 */
export function answerInline(
  route: InlineRoute,
  body: Uint8Array,
  header: string | undefined,
  hooks: RouteHooks,
): number | Promise<number> {
  const event = verifyInline(body, header) as { id?: unknown } | undefined;
  if (event === undefined) return 400;
  if (route === "ideal") {
    const arrival = hooks.arrive(route, { body, event });
    return arrival === undefined ? 200 : arrival.then(() => 200);
  }
  const { id } = event;
  if (typeof id !== "string") return 400;
  const claim = claimId(id);
  if (claim !== "claimed") return claim === "done" ? 200 : 409;
  let arrival: Promise<void> | undefined;
  try {
    arrival = hooks.arrive(route, { body, event });
  } catch (error) {
    settleId(id, false);
    throw error;
  }
  if (arrival === undefined) {
    settleId(id, true);
    return 200;
  }
  return arrival.then(
    () => {
      settleId(id, true);
      return 200;
    },
    (error: unknown) => {
      settleId(id, false);
      throw error;
    },
  );
}
