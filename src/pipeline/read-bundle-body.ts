// A workspace bundle's JSON body (BUNDLE_MAX_BYTES, megabytes): read as the JSON parser reads a body (inflated, its
// limit counted after decompression, a UTF charset, decoded as it streams), then parsed in slices of the event loop
// (src/http/sliced-json.ts), each waiting for a turn of the sandbox's turn queue (src/http/turn-queue.ts). One
// JSON.parse call over 8 MiB held the loop 12-30 ms, and several bodies that end together would each be parsed in
// the same turn. Its refusals are the JSON parser's: 415 for another charset, 400 for text that is not JSON, 413
// past the limit.
import type { RequestHandler } from 'express';
import express from 'express';
import { parseJsonInSlices } from '../http/sliced-json.js';
import { holdLaneUntilAnswered, type Lanes } from '../http/heavy-lanes.js';
import type { TurnQueue } from '../http/turn-queue.js';
import { TimeSlices } from '../sandbox/time-slices.js';

/** The charset a Content-Type names (lower-cased), if any. */
const charsetOf = (contentType: string | undefined): string | undefined => /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();

/**
 * The charsets JSON comes in (RFC 8259: UTF-8; the JSON parser admits any UTF): another is refused before a byte is
 * read, as the JSON parser refuses it (415).
 */
function unsupportedCharset(contentType: string | undefined): Error | undefined {
  const charset = charsetOf(contentType);
  if (charset === undefined || charset.slice(0, 4) === 'utf-') return undefined;
  return Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), {
    status: 415,
    statusCode: 415,
    expose: true,
    charset,
    type: 'charset.unsupported',
  });
}

/**
 * The JSON parser's strict parse (an object or an array; no bytes read as `{}`), failing as it fails: a 400 of type
 * `entity.parse.failed` that carries the text.
 */
async function parseJson(text: string, slices: TimeSlices): Promise<unknown> {
  if (text.length === 0) return {};
  try {
    // A turn of its own first: several bodies that end together are never parsed in the same turn, and the text
    // (read as one string per chunk) is joined by the first look at it, in that turn.
    await slices.yield();
    const first = /\S/.exec(text)?.[0];
    if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token ${first ?? 'end of input'} in JSON: an object or an array is expected`);
    return await parseJsonInSlices(text, () => slices.pause());
  } catch (error) {
    throw Object.assign(error as Error, { status: 400, statusCode: 400, expose: true, body: text, type: 'entity.parse.failed' });
  }
}

/**
 * Reads a bundle's body of at most `limit` bytes (inflated); then, in one of `lanes` (held until the answer is
 * sent), parses it in slices, turns of `turns`. The lane is taken once the bytes are all in: a client that sends
 * slowly holds none.
 */
export function bundleBodyReader(limit: number, turns: TurnQueue, lanes: Lanes): RequestHandler {
  // Decoded as the bytes come (a `verify` hook would have it decoded whole at the end, in one piece).
  const read = express.text({ limit, type: () => true });
  return (req, res, next) => {
    const refused = unsupportedCharset(req.headers['content-type']);
    if (refused) return next(refused);
    read(req, res, (error?: unknown) => {
      if (error !== undefined) return next(error);
      if (typeof req.body !== 'string') return next();
      const text = req.body;
      holdLaneUntilAnswered(lanes, res)
        .then(() => parseJson(text, new TimeSlices(turns)))
        .then((parsed) => {
          req.body = parsed;
          next();
        }, next);
    });
  };
}
