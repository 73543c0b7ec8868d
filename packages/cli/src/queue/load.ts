import { CliError } from "../io";

/** Loads an engine's package only when its option is used: the CLI depends on none of them. */
export async function loadEngine<Module>(specifier: string, install: string): Promise<Module> {
  try {
    return (await import(/* @vite-ignore */ specifier)) as Module;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
      throw new CliError(`${specifier} is not installed here: ${install}`);
    }
    throw error;
  }
}
