// What reading a request's body will take of the memory budget, reserved before a byte of it is read: a
// workspace bundle (a load: its raw bytes, their text, the parsed tree and what is built from it are alive at once),
// a multipart upload (the file as read, then as stored) and any other JSON body (at most BODY_LIMIT_BYTES, but what
// it carries is kept: a workspace's record quota counts records, not their bytes, and every live workspace may keep
// writing while creations are refused for memory). A refusal (MemoryRefused) answers 503 with Retry-After, with the
// body unread. Operations without a body (reads, deletions, resets) free memory or hold none, and are never refused.
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.js';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import type { MemoryBudget, Reservation } from '../memory-reservations.js';
import { isMultipartBody, sendsNoBody } from './read-body.js';

/**
 * Bytes a load holds at its peak per byte of its JSON: the raw bytes, their text, the parsed tree (objects cost more
 * than their text) and the world built from it, before any of it can be collected.
 */
export const LOAD_BYTES_PER_BUNDLE_BYTE = 5;
/** Bytes an upload holds at its peak per byte of its body: the file as multer read it, and the stored copy. */
export const UPLOAD_BYTES_PER_BODY_BYTE = 2;
/** Bytes a JSON body holds at its peak per byte: its text and the parsed values kept in the store. */
export const JSON_BYTES_PER_BODY_BYTE = 2;

/** The cap of bundle loads in flight in one process. */
export const loadsCap = (config: Pick<Config, 'bundleLoadsInFlight'>) => ({ key: 'bundle loads', max: config.bundleLoadsInFlight, what: 'Bundle loads' });

/**
 * The most bytes a body can hold once read: its declared length when it is sent as it is, else its limit (a
 * compressed or chunked body inflates as it streams, and is refused past its limit, so the limit bounds it).
 */
export function bodyBytesAtMost(headers: IncomingHttpHeaders, limit: number): number {
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  const declared = headers['content-length'] === undefined ? Number.NaN : Number(headers['content-length']);
  const asSent = encoding === undefined || encoding === '' || encoding === 'identity';
  return asSent && Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, limit) : limit;
}

/**
 * Reserves what reading this operation's body will take, before it is read; undefined when it takes nothing worth
 * reserving. The caller releases the reservation once the request is answered.
 */
export function reserveForBody(
  headers: IncomingHttpHeaders,
  facts: Pick<OperationFacts, 'body' | 'bodyLimit'>,
  budget: MemoryBudget,
  config: Pick<Config, 'bundleMaxBytes' | 'bundleLoadsInFlight' | 'multipart' | 'bodyLimit'>,
): Reservation | undefined {
  if (!facts.body.any) return undefined;
  // Sent without a body, a write still stores what it makes (a user, a record with defaults): it reserves nothing
  // but is refused all the same once the budget is spent.
  if (sendsNoBody(headers)) return facts.bodyLimit === 'bundle' ? undefined : reserveJson(0, budget);
  if (facts.bodyLimit === 'bundle') {
    const bytes = LOAD_BYTES_PER_BUNDLE_BYTE * bodyBytesAtMost(headers, config.bundleMaxBytes);
    return budget.reserve(
      { bytes, caps: [loadsCap(config)] },
      { memory: 'The sandbox is short of memory to load this bundle; retry later, or load a smaller one.' },
    );
  }
  if (facts.body.multipart && isMultipartBody(headers)) {
    const bytes = UPLOAD_BYTES_PER_BODY_BYTE * bodyBytesAtMost(headers, config.multipart.maxTotalBytes);
    return budget.reserve({ bytes }, { memory: 'The sandbox is short of memory for this upload; retry later.' });
  }
  return reserveJson(JSON_BYTES_PER_BODY_BYTE * bodyBytesAtMost(headers, config.bodyLimit), budget);
}

const reserveJson = (bytes: number, budget: MemoryBudget): Reservation =>
  budget.reserve({ bytes }, { memory: "The sandbox is short of memory to take this request's body; retry later." });
