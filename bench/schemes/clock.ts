let frozen = false;

/**
 * `Date.now()` and `new Date()` both read `at` from now on (some SDKs read the one, some the other): a counting
 * process under callgrind runs for minutes, past the window every timed scheme and SDK accepts. Once per process.
 */
export function freezeClock(at: number): void {
  if (frozen) return;
  frozen = true;
  const RealDate = Date;
  class FrozenDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(at);
      else super(...(args as [string]));
    }
    static override now(): number {
      return at;
    }
  }
  globalThis.Date = FrozenDate as DateConstructor;
}
