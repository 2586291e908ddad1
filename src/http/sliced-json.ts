// JSON.parse of a text of megabytes (a workspace bundle) in pieces, with the event loop free between them. One
// JSON.parse call over 8 MiB holds the loop for 12-30 ms on a quiet core, and ten bodies that end together hold it
// ten times as long. Here the text is read in two passes, each pausing between bounded steps: the first finds where
// each large array or object ends (one that spans PIECE_CHARS or more, down to SPLIT_DEPTH levels), the second
// builds the value, each large container member by member and everything else (a record, a journal entry, a file's
// base64 string) by one JSON.parse call over its own text. What comes out is what JSON.parse makes of the text:
// the same values, duplicate keys resolved the same way (the last wins), `__proto__` an own key like any other,
// and a SyntaxError for any text JSON.parse refuses.

/** Values of at most this many characters are parsed by one JSON.parse call: well under a millisecond. */
export const PIECE_CHARS = 64 * 1024;

/**
 * How deep large containers are split. A bundle's items sit five levels down (changes, collection, kind, record);
 * a large value deeper than this (only a hostile text has one) is parsed by one call, as a whole body was before.
 */
const SPLIT_DEPTH = 16;

/** Structural characters between two looks at the clock in the first pass. */
const STEPS_PER_LOOK = 2048;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const syntaxError = (what: string, at: number) => new SyntaxError(`${what} in JSON at position ${at}`);

/** The index of the quote that closes the string opened at `open`. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  throw syntaxError('Unterminated string', open);
}

/** The index after the whitespace at `at`. */
function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
    at++;
  }
}

const STRUCTURE = /["[\]{}]/g;

/**
 * The end (exclusive) of each array or object opened at an index, for those that span PIECE_CHARS or more within
 * SPLIT_DEPTH levels. Strings are skipped whole (indexOf finds their end); brackets are matched by depth only, the
 * second pass (JSON.parse) refusing mismatched kinds.
 */
async function largeContainers(text: string, pause: () => Promise<void>): Promise<Map<number, number>> {
  const ends = new Map<number, number>();
  const opened: number[] = [];
  let depth = 0;
  let steps = 0;
  const structure = new RegExp(STRUCTURE);
  for (let match = structure.exec(text); match !== null; match = structure.exec(text)) {
    const at = match.index;
    const c = text.charCodeAt(at);
    if (c === QUOTE) structure.lastIndex = closingQuote(text, at) + 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth <= SPLIT_DEPTH) opened.push(at);
    } else {
      if (depth === 0) throw syntaxError('Unexpected token', at);
      if (depth-- <= SPLIT_DEPTH) {
        const start = opened.pop()!;
        if (at + 1 - start >= PIECE_CHARS) ends.set(start, at + 1);
      }
    }
    if (++steps % STEPS_PER_LOOK === 0) {
      const next = structure.lastIndex;
      await pause();
      structure.lastIndex = next;
    }
  }
  if (depth !== 0) throw syntaxError('Unexpected end of input', text.length);
  return ends;
}

/**
 * The end (exclusive) of the array or object opened at `start`: one shorter than PIECE_CHARS (the first pass
 * recorded the others), or a large one deeper than SPLIT_DEPTH.
 */
function containerEnd(text: string, start: number): number {
  const structure = new RegExp(STRUCTURE);
  structure.lastIndex = start;
  let depth = 0;
  for (let match = structure.exec(text); match !== null; match = structure.exec(text)) {
    const at = match.index;
    const c = text.charCodeAt(at);
    if (c === QUOTE) structure.lastIndex = closingQuote(text, at) + 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (--depth === 0) return at + 1;
  }
  throw syntaxError('Unexpected end of input', text.length);
}

const SCALAR_END = /[\s,\]}]|$/g;

/** One JSON.parse call over text[start, end), its errors placed in the whole text. */
function parsePiece(text: string, start: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(start, end));
  } catch (error) {
    throw new SyntaxError(`${(error as Error).message} (in the value at position ${start} of the text)`);
  }
}

type Container = Record<string, unknown> | unknown[];
interface Frame {
  value: Container;
  /** The key it goes under in its parent (an object's member). */
  key: string | undefined;
  close: number;
  /** How many members it has (an array's next index). */
  members: number;
}

/** Sets an object's member as JSON.parse does: `__proto__` an own property, never the prototype. */
function setMember(target: Container, key: string | undefined, value: unknown): void {
  if (Array.isArray(target)) target.push(value);
  else if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key!] = value;
}

/**
 * What JSON.parse(text) answers, built in steps with `pause()` awaited between them (it yields once its slice of
 * the event loop has run its time).
 */
export async function parseJsonInSlices(text: string, pause: () => Promise<void>): Promise<unknown> {
  const first = skipSpace(text, 0);
  const c = text.charCodeAt(first);
  if (text.length < PIECE_CHARS || (c !== OPEN_BRACE && c !== OPEN_BRACKET)) return JSON.parse(text);
  const ends = await largeContainers(text, pause);
  if (!ends.has(first)) return JSON.parse(text);
  const open = (at: number, key: string | undefined): Frame => ({
    value: text.charCodeAt(at) === OPEN_BRACE ? {} : [],
    key,
    close: text.charCodeAt(at) === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET,
    members: 0,
  });
  const stack: Frame[] = [open(first, undefined)];
  let at = first + 1;
  for (;;) {
    await pause();
    const frame = stack.at(-1)!;
    at = skipSpace(text, at);
    const next = text.charCodeAt(at);
    if (next === frame.close) {
      stack.pop();
      at++;
      const parent = stack.at(-1);
      if (!parent) {
        at = skipSpace(text, at);
        if (at !== text.length) throw syntaxError('Unexpected non-whitespace character after JSON', at);
        return frame.value;
      }
      setMember(parent.value, frame.key, frame.value);
      parent.members++;
      continue;
    }
    // After the first member, a comma, then a member (a closing bracket right after the comma fails below).
    if (frame.members > 0) {
      if (next !== COMMA) throw syntaxError('Unexpected token', at);
      at = skipSpace(text, at + 1);
    }
    let key: string | undefined;
    if (!Array.isArray(frame.value)) {
      if (text.charCodeAt(at) !== QUOTE) throw syntaxError('Unexpected token', at);
      const keyEnd = closingQuote(text, at) + 1;
      key = parsePiece(text, at, keyEnd) as string;
      at = skipSpace(text, keyEnd);
      if (text.charCodeAt(at) !== COLON) throw syntaxError('Unexpected token', at);
      at = skipSpace(text, at + 1);
    }
    const v = text.charCodeAt(at);
    const container = v === OPEN_BRACE || v === OPEN_BRACKET;
    if (container && ends.has(at)) {
      stack.push(open(at, key));
      at++;
      continue;
    }
    let end: number;
    if (container) end = containerEnd(text, at);
    else if (v === QUOTE) end = closingQuote(text, at) + 1;
    else {
      SCALAR_END.lastIndex = at;
      end = SCALAR_END.exec(text)!.index;
    }
    if (end === at) throw syntaxError('Unexpected token', at);
    setMember(frame.value, key, parsePiece(text, at, end));
    frame.members++;
    at = end;
  }
}
