// Scenario knobs travel in the standard Prefer header (RFC 7240), as Prism does, so a client can ask for a
// 404 or a slow answer without any sandbox-specific API. A knob with a bad value is an error, never ignored:
// a test that silently got a 200 instead of the 503 it asked for would pass for the wrong reason.

/** Faults the simulated retailer can be asked to produce on a relayed call. */
export const RETAILER_FAULTS = ['throttle', 'timeout', 'error'] as const;
/** One of RETAILER_FAULTS. */
export type RetailerFault = (typeof RETAILER_FAULTS)[number];

/** The knobs a request asked for. */
export interface PreferKnobs {
  /** Answer this status (the lead checks the operation documents it). */
  code?: number;
  /** Wait this many milliseconds before answering. */
  delay?: number;
  /** Make the simulated retailer fail this way on a relayed call. */
  retailerFault?: RetailerFault;
  /** Refuse (422) query parameters and body fields the contract does not name, instead of ignoring them. */
  strict?: true;
  /** The honoured preferences, spelled for a Preference-Applied response header ('' when none). */
  applied: string;
}

/** Laravel-style field errors keyed 'Prefer.<knob>', ready to become a 422 body. */
export interface PreferError {
  message: string;
  errors: Record<string, string[]>;
}

/** Either the knobs or what was wrong with them (and whether the request asks for strict mode all the same). */
export type PreferResult = { ok: true; knobs: PreferKnobs } | { ok: false; error: PreferError; strict?: true };

/** Limits; the defaults suit an interactive sandbox. */
export interface PreferOptions {
  /** Largest accepted delay in ms; a CI job should not be able to park a request for minutes. */
  maxDelayMs?: number;
}

/** Default bound of `Prefer: delay`. */
export const DEFAULT_MAX_DELAY_MS = 10_000;

function unquote(value: string): string {
  const v = value.trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/** Splits Prefer header value(s) into name/value pairs; names lower-cased, first occurrence wins (RFC 7240 §2). */
export function preferencePairs(header: string | string[] | undefined): Map<string, string | undefined> {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  const pairs = new Map<string, string | undefined>();
  // Commas and semicolons both separate knobs (as in Prism); quoted values may contain neither.
  for (const part of raw.match(/(?:[^,;"]+|"(?:[^"\\]|\\.)*")+/g) ?? []) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (!name || pairs.has(name)) continue;
    pairs.set(name, eq < 0 ? undefined : unquote(part.slice(eq + 1)));
  }
  return pairs;
}

/** Whether the request asked for strict mode (`Prefer: strict`), whatever its other knobs say. */
export function prefersStrict(prefer: PreferResult | undefined): boolean {
  return (prefer?.ok ? prefer.knobs.strict : prefer?.strict) === true;
}

function integerIn(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

/** Parses the Prefer header into knobs, or names every knob whose value is bad. */
export function parsePrefer(header: string | string[] | undefined, options: PreferOptions = {}): PreferResult {
  const maxDelay = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const knobs: PreferKnobs = { applied: '' };
  const applied: string[] = [];
  const errors: Record<string, string[]> = {};
  const show = (v: string | undefined) => (v === undefined ? 'nothing' : `'${v}'`);

  for (const [name, value] of preferencePairs(header)) {
    switch (name) {
      case 'code': {
        const code = integerIn(value, 100, 599);
        if (code === undefined) errors['Prefer.code'] = [`The Prefer code must be an integer from 100 to 599, got ${show(value)}.`];
        else {
          knobs.code = code;
          applied.push(`code=${code}`);
        }
        break;
      }
      case 'delay': {
        const delay = integerIn(value, 0, maxDelay);
        if (delay === undefined)
          errors['Prefer.delay'] = [`The Prefer delay must be an integer number of milliseconds from 0 to ${maxDelay}, got ${show(value)}.`];
        else {
          knobs.delay = delay;
          applied.push(`delay=${delay}`);
        }
        break;
      }
      case 'retailer-fault': {
        const fault = value?.toLowerCase();
        if (!fault || !(RETAILER_FAULTS as readonly string[]).includes(fault))
          errors['Prefer.retailer-fault'] = [`The Prefer retailer-fault must be one of ${RETAILER_FAULTS.join(', ')}, got ${show(value)}.`];
        else {
          knobs.retailerFault = fault as RetailerFault;
          applied.push(`retailer-fault=${fault}`);
        }
        break;
      }
      case 'strict':
        knobs.strict = true;
        applied.push('strict');
        break;
      default:
        // Anything else (Prism's dynamic=true, RFC 7240's return/wait/respond-async, other servers' knobs) is
        // ignored, as RFC 7240 asks.
        break;
    }
  }

  const messages = Object.values(errors).flat();
  if (messages.length > 0) {
    const more = messages.length - 1;
    const message = more > 0 ? `${messages[0]} (and ${more} more error${more > 1 ? 's' : ''})` : messages[0]!;
    return knobs.strict ? { ok: false, error: { message, errors }, strict: true } : { ok: false, error: { message, errors } };
  }
  knobs.applied = applied.join(', ');
  return { ok: true, knobs };
}

/**
 * The hook for the channel relay: the retailer fault a request asked for with `Prefer: retailer-fault=<throttle|timeout|error>`,
 * or undefined. Call it with the handler's ctx; a bad value never gets here (the wrapper answered 422 already).
 * A relay that honours it should add `Preference-Applied: retailer-fault=<fault>` to its reply.
 */
export function retailerFaultOf(ctx: { readonly prefer: PreferResult }): RetailerFault | undefined {
  return ctx.prefer.ok ? ctx.prefer.knobs.retailerFault : undefined;
}
