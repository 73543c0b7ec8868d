import { createHandler } from "./app";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error("WEBHOOK_SECRET is not set: give the function the webhook endpoint's secret.");

export const handler = createHandler({ secret });
