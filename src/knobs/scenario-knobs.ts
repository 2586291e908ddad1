// Parses the Prefer knobs once per request, early, for everything after it: a bad knob becomes a 422 through the
// one error handler, and the delay (start-up latency plus Prefer: delay) is served before any work, so a slow
// answer cannot be told apart from a slow server. Strict mode is the tolerant reader's; honouring `code` and
// `retailer-fault` is left to the contract adapter and the relay, which know the operation. Each reads the parsed
// knobs through preferOf.
import type { Request, RequestHandler, Response } from 'express';
import { HttpError } from '../http/errors.js';
import { parsePrefer, type PreferResult } from './prefer-header.js';

/** Options of scenarioKnobs. */
export interface ScenarioKnobOptions {
  /** Added to every answer (--latency / LATENCY_MS). */
  latencyMs?: number;
  /** Bound of Prefer: delay. */
  maxDelayMs?: number;
  /** Which requests the knobs apply to; default: every request that reaches the step. */
  appliesTo?: (req: Request) => boolean;
  /** Which of those read Prefer (the rest only get the start-up latency); default: all of them. */
  readsPrefer?: (req: Request) => boolean;
  /**
   * Leave a bad knob for later instead of answering 422 here: the contract adapter, which knows the operation,
   * answers the 422 where the operation documents one (see src/pipeline/prefer-code.ts).
   */
  deferErrors?: boolean;
  /** Injected in tests. */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const PREFER = 'prefer';

/** The request's Prefer knobs as scenarioKnobs parsed them; undefined where Prefer is not read (tooling, the control plane). */
export function preferOf(res: Pick<Response, 'locals'>): PreferResult | undefined {
  return res.locals[PREFER] as PreferResult | undefined;
}

/** Middleware: parses Prefer for preferOf (422 on a bad knob unless deferred) and waits latency + delay. */
export function scenarioKnobs(options: ScenarioKnobOptions = {}): RequestHandler {
  const latency = options.latencyMs ?? 0;
  const appliesTo = options.appliesTo ?? (() => true);
  const sleep = options.sleep ?? realSleep;

  return (req, res, next) => {
    if (!appliesTo(req)) {
      next();
      return;
    }
    let delay = 0;
    if (options.readsPrefer?.(req) ?? true) {
      const parsed = parsePrefer(req.headers.prefer, { maxDelayMs: options.maxDelayMs });
      if (!parsed.ok && !options.deferErrors) {
        next(new HttpError(422, parsed.error.message, parsed.error.errors));
        return;
      }
      res.locals[PREFER] = parsed;
      if (parsed.ok) delay = parsed.knobs.delay ?? 0;
    }
    const wait = latency + delay;
    if (wait <= 0) {
      next();
      return;
    }
    sleep(wait).then(() => next(), next);
  };
}
