// The Prefer knobs' parse and delay, and the configured latency. A knob is parsed once per request, early, for
// everything after it; its delay (with the start-up latency) is served before any work, so a slow answer cannot be
// told apart from a slow server. Strict mode is the tolerant reader's; honouring `code` and `retailer-fault` is
// left to the knobs step before the handler and to the relay, which know the operation.
import type { RequestHandler } from 'express';
import { parsePrefer, type PreferResult } from './prefer-header.js';

/** How the knobs wait: the bound of Prefer: delay, and the timer (tests inject one). */
export interface KnobOptions {
  /** Bound of Prefer: delay. */
  maxDelayMs?: number;
  /** Added to every wait (--latency / LATENCY_MS). */
  latencyMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Parses a request's Prefer header and serves the delay it asks for (plus the latency). A bad knob waits nothing and
 * is answered later, where the operation is known (422 where it documents one, src/knobs/prefer-code.ts).
 */
export async function waitForKnobs(prefer: string | string[] | undefined, options: KnobOptions = {}): Promise<PreferResult> {
  const parsed = parsePrefer(prefer, { maxDelayMs: options.maxDelayMs });
  const wait = (options.latencyMs ?? 0) + (parsed.ok ? (parsed.knobs.delay ?? 0) : 0);
  if (wait > 0) await (options.sleep ?? realSleep)(wait);
  return parsed;
}

/** Middleware: the configured latency, before any work of every request that reaches it. */
export function latency(latencyMs: number, sleep: (ms: number) => Promise<void> = realSleep): RequestHandler {
  return (_req, _res, next) => {
    if (latencyMs <= 0) return next();
    sleep(latencyMs).then(() => next(), next);
  };
}
