// Suites that need a program from the system (chromium, nginx): skipped with a visible reason where it is missing,
// never in CI, where the caller's skip reason is undefined so a missing program fails the build instead.
import { describe } from 'vitest';

/** A describe() that skips with `reason` (printed once, tagged `[<what> tests skipped]`) or runs when it is undefined. */
export function skippableDescribe(what: string, reason: string | undefined): (name: string, body: () => void) => void {
  let warned = false;
  return (name, body) => {
    if (!reason) return describe(name, body);
    if (!warned) {
      warned = true;
      console.warn(`[${what} tests skipped] ${reason}`);
    }
    describe.skip(`${name} (skipped: ${reason})`, body);
  };
}
