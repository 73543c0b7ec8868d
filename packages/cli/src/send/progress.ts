import cliProgress from "cli-progress";

export interface Progress {
  tick(): void;
  stop(): void;
}

/** A progress bar on `stream` (stderr); `forced` draws it even when the stream is not a terminal. */
export function createProgress(stream: NodeJS.WritableStream, total: number, forced: boolean): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      noTTYOutput: forced,
      format: "sending [{bar}] {value}/{total} {percentage}% | {duration_formatted}",
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { tick: () => bar.increment(), stop: () => bar.stop() };
}
