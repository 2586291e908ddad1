// A bundle's body is parsed in slices (src/http/sliced-json.ts): whatever the text, what comes out is what
// JSON.parse makes of it (the same value, `__proto__` an own key, the last of duplicate keys), a text JSON.parse
// refuses is refused, and no single JSON.parse call covers more than PIECE_CHARS of a large text.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseJsonInSlices, PIECE_CHARS } from '../../src/http/sliced-json.js';

const noPause = async () => {};

/** What JSON.parse answers for `text`, or 'refused'. */
function parsed(text: string): { value: unknown } | 'refused' {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return 'refused';
  }
}

async function slicedOf(text: string): Promise<{ value: unknown } | 'refused'> {
  try {
    return { value: await parseJsonInSlices(text, noPause) };
  } catch (error) {
    expect(error).toBeInstanceOf(SyntaxError);
    return 'refused';
  }
}

/** A text past PIECE_CHARS, so that it is split: `value` beside padding, nested a few levels, spaced or not. */
const largeText = (value: unknown, spaced: boolean) => {
  const wrapped = { pad: 'p'.repeat(PIECE_CHARS), list: [value, { inner: [value, 'q'.repeat(PIECE_CHARS)] }], value };
  return spaced ? `\n ${JSON.stringify(wrapped, null, 1)}\t` : JSON.stringify(wrapped);
};

describe('a large JSON text parsed in slices', () => {
  afterEach(() => vi.restoreAllMocks());

  it('When any JSON value sits in a large text, then the slices make what JSON.parse makes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.boolean(), async (value, spaced) => {
        const text = largeText(value, spaced);
        expect(await slicedOf(text)).toEqual(parsed(text));
      }),
      { numRuns: 60 },
    );
  });

  it('When a large text is broken anywhere (a character dropped, doubled or changed), then the slices refuse exactly what JSON.parse refuses', async () => {
    const text = largeText({ a: [1, 'two', { three: null, four: [true, false] }], b: 'x\\"y' }, false);
    const points = fc.integer({ min: 0, max: text.length - 1 });
    const edit = fc.oneof(
      points.map((at) => text.slice(0, at) + text.slice(at + 1)),
      points.map((at) => text.slice(0, at) + text[at] + text.slice(at)),
      fc.tuple(points, fc.constantFrom(...'{}[]",:\\ 0a-'.split(''))).map(([at, c]) => text.slice(0, at) + c + text.slice(at + 1)),
    );
    // Most edits fall in the padding: the structural characters are where the two could differ.
    const near = [...text.matchAll(/[{}[\]",:\\]/g)].map((m) => m.index);
    const nearEdit = fc
      .tuple(fc.constantFrom(...near), fc.constantFrom(...'{}[]",:\\ 0'.split('')))
      .map(([at, c]) => text.slice(0, at) + c + text.slice(at + 1));
    await fc.assert(
      fc.asyncProperty(fc.oneof(edit, nearEdit, nearEdit), async (broken) => {
        expect(await slicedOf(broken)).toEqual(parsed(broken));
      }),
      { numRuns: 300 },
    );
  });

  it('When a key is __proto__ or appears twice, then it is an own key and the last value wins, as JSON.parse has it', async () => {
    // Members of a large object, which the slices set one by one.
    const text = `{"__proto__":{"polluted":true},"twice":1,"pad":"${'p'.repeat(PIECE_CHARS)}","twice":2}`;
    const value = (await parseJsonInSlices(text, noPause)) as Record<string, unknown>;
    expect(value).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.keys(value)).toEqual(Object.keys(JSON.parse(text)));
    expect(value.twice).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('When a bundle-shaped text of megabytes is parsed, then no JSON.parse call covers more than PIECE_CHARS of it, and the slices pause between pieces', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({ id: `r-${i}`, title: `Record ${i}`, tags: ['a', 'b'], nested: { n: i } }));
    const text = JSON.stringify({
      changes: { products: { added: records, changed: [], deleted: [] } },
      uploads: [{ key: 'k', base64: 'A'.repeat(PIECE_CHARS * 4) }],
    });
    expect(text.length).toBeGreaterThan(PIECE_CHARS * 20);
    const parse = vi.spyOn(JSON, 'parse');
    let pauses = 0;
    const value = await parseJsonInSlices(text, async () => void pauses++);
    const pieces = parse.mock.calls.map(([piece]) => piece.length);
    parse.mockRestore();
    const longest = Math.max(...pieces);
    expect(value).toEqual(JSON.parse(text));
    // The base64 string is one piece (a string is one value); every record is one of its own.
    expect(longest).toBe(PIECE_CHARS * 4 + 2);
    expect(pieces.filter((length) => length > PIECE_CHARS)).toHaveLength(1);
    expect(pauses).toBeGreaterThan(records.length);
  });
});
