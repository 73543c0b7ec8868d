/**
 * Where one scheme's verify spends its instructions beyond the floor, by function (callgrind, V8's names for JIT code):
 *   npm run profile:schemes --workspace @tidings/bench -- standard-webhooks 256
 */
import { printCounted } from "../instructions/print";
import { countSchemes, settingsFor } from "./suite";

const [scheme = "service-signature", size = "256"] = process.argv.slice(2);
const settings = settingsFor(Number(size), false);
const counts = await countSchemes([Number(size)], () => settings, { only: scheme, functions: true });
const { counted } = counts.get(Number(size)) ?? { counted: undefined };
if (!counted) throw new Error(`${scheme} was not counted at ${size} B`);
const windows = `${settings.windows} windows of ${settings.windowRequests} after ${settings.warmupRequests} warm-up`;
printCounted(`${scheme} at ${size} B, ${windows}`, "verification", counted);
