import { FRAMEWORKS } from "../http/apps";
import type { Route } from "../http/routes";
import type { InstructionSettings } from "../lib/options";
import { type Pair, pairOf } from "../lib/stats";
import { measureInstructions } from "./measure";

/** The HTTP target is decided here: the adapter's instructions per request against the ideal route's. */
const ROUTES: readonly Route[] = ["ideal", "adapter"];

/** Instructions per request over the windows: the ideal route (base) and the adapter (ours), unless it failed. */
export interface InstructionResult extends Partial<Pair> {
  id: string;
  label: string;
  adapter: string;
  error?: string;
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
      const counts = pairOf(windows.get("ideal") ?? [], windows.get("adapter") ?? []);
      log(
        `instructions ${id}: adapter ÷ ideal ${counts.ratio.toFixed(3)} (minima), ${counts.medianRatio.toFixed(3)} (medians)`,
      );
      frameworks.push({ id, label, adapter, ...counts });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`instructions ${id} FAILED: ${message}`);
      frameworks.push({ id, label, adapter, error: message });
    }
  }
  return { settings, frameworks };
}
