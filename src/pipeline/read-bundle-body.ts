// A workspace bundle's JSON body (BUNDLE_MAX_BYTES, megabytes): read as the JSON parser reads a body (inflated, its
// limit counted after decompression, a UTF charset, decoded as it streams), then parsed in a turn of its own from
// the sandbox's turn queue (src/http/turn-queue.ts). Parsed where it is read, several large bodies that end together
// would each be parsed in the same turn, holding the loop for the sum of their parses. Its refusals are the JSON
// parser's: 415 for another charset, 400 for text that is not JSON, 413 past the limit.
import type { RequestHandler } from 'express';
import express from 'express';
import type { TurnQueue } from '../http/turn-queue.js';

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
function parseJson(text: string): unknown {
  if (text.length === 0) return {};
  try {
    const first = /\S/.exec(text)?.[0];
    if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token ${first ?? 'end of input'} in JSON: an object or an array is expected`);
    return JSON.parse(text);
  } catch (error) {
    throw Object.assign(error as Error, { status: 400, statusCode: 400, expose: true, body: text, type: 'entity.parse.failed' });
  }
}

/** Reads a bundle's body of at most `limit` bytes (inflated) and parses it in a turn of `turns`. */
export function bundleBodyReader(limit: number, turns: TurnQueue): RequestHandler {
  // Decoded as the bytes come (a `verify` hook would have it decoded whole at the end, in one piece).
  const read = express.text({ limit, type: () => true });
  return (req, res, next) => {
    const refused = unsupportedCharset(req.headers['content-type']);
    if (refused) return next(refused);
    read(req, res, (error?: unknown) => {
      if (error !== undefined) return next(error);
      if (typeof req.body !== 'string') return next();
      const text = req.body;
      turns.next().then(() => {
        try {
          req.body = parseJson(text);
        } catch (failure) {
          return next(failure);
        }
        next();
      }, next);
    });
  };
}
