import { FRAMEWORKS } from "../http/apps";
import type { Route } from "../http/routes";
import type { InstructionSettings } from "../lib/options";
import { type Summary, summarize } from "../lib/stats";
import { measureInstructions } from "./measure";

/** The HTTP target is decided here: the adapter's instructions per request against the ideal route's. */
const ROUTES: readonly Route[] = ["ideal", "adapter"];

export interface InstructionResult {
  id: string;
  label: string;
  adapter: string;
  error?: string;
  /** Instructions per request, over the windows. */
  ideal?: Summary;
  adapterRoute?: Summary;
  /** Adapter ÷ ideal of the quietest windows (the minima: no full collection in them). The target is judged on it. */
  ratio?: number;
  /** Adapter ÷ ideal of the medians, collections included. */
  medianRatio?: number;
}

export interface InstructionResults {
  settings: InstructionSettings;
  frameworks: InstructionResult[];
}

/** Frameworks one after another, each in its own server process under callgrind; a failure is reported, not fatal. */
export async function runInstructionsSuite(
  settings: InstructionSettings,
  frameworkIds: readonly string[],
  log: (line: string) => void,
): Promise<InstructionResults> {
  const frameworks: InstructionResult[] = [];
  for (const { id, label, adapter } of FRAMEWORKS.filter((framework) => frameworkIds.includes(framework.id))) {
    try {
      const { windows } = await measureInstructions(id, ROUTES, settings);
      const ideal = windows.get("ideal") ?? [];
      const adapterRoute = windows.get("adapter") ?? [];
      const [idealCounts, adapterCounts] = [summarize(ideal), summarize(adapterRoute)];
      const ratio = adapterCounts.min / idealCounts.min;
      const medianRatio = adapterCounts.median / idealCounts.median;
      log(`instructions ${id}: adapter ÷ ideal ${ratio.toFixed(3)} (minima), ${medianRatio.toFixed(3)} (medians)`);
      frameworks.push({ id, label, adapter, ideal: idealCounts, adapterRoute: adapterCounts, ratio, medianRatio });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`instructions ${id} FAILED: ${message}`);
      frameworks.push({ id, label, adapter, error: message });
    }
  }
  return { settings, frameworks };
}
