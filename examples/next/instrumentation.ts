import { MISSING_SECRET } from "./lib/secret";

// Runs once when a server starts, not during `next build`. A throw here would only fail every request, so a
// missing secret stops the Node.js server instead.
export function register(): void {
  if (process.env.WEBHOOK_SECRET) return;
  console.error(MISSING_SECRET);
  if (process.env.NEXT_RUNTIME === "nodejs") process.exit(1);
}
