// Requests for the contract fuzz (test/contract/contract-fuzz.test.ts), generated with fast-check from each
// operation's parameter and body schemas: valid values, boundary values (at and just past each bound) and hostile
// ones (wrong types, prototype-named keys, non-finite and huge numbers, long strings, deep nesting).
import fc from 'fast-check';
import type { ContractDocument, ContractOperation } from '../../src/contract/document/load-contract.js';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

/** One generated request: what the fuzz sends, and whom as. */
export interface FuzzRequest {
  operation: ContractOperation;
  user: 'owner' | 'rival' | 'anonymous';
  path: string;
  query: string;
  /** Raw body text, or undefined for no body at all. */
  body?: string;
  contentType?: string;
}

/**
 * Ids the generators pick from, by the name of the path parameter or body/query field that takes them: merchant A's
 * (`a`) and merchant B's (`b`); shared records (catalog items, marketplaces) are in both.
 */
export type IdPools = Record<string, { a: string[]; b: string[] }>;

type User = FuzzRequest['user'];

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
const UNKNOWN_ID = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
const HOSTILE_STRINGS = [
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00',
  '\u{1D54F}\u{1F642}',
  ...PROTOTYPE_KEYS,
  'NaN',
  '1e309',
  'Infinity',
  '-1',
  'null',
];
const HOSTILE_NUMBERS = [0, -0, -1, 1.5, 1e305, -1e305, 2 ** 53 + 1, Number.MAX_VALUE, 5e-324];
// JSON text a JSON.stringify of a JS value cannot produce: numbers that parse to +-Infinity.
const RAW_NUMBER = '\u0001raw:';
const RAW_NUMBERS = ['1e309', '-1e309', '1e400'];
const QUERY_HOSTILE = ['1e309', 'Infinity', '-Infinity', 'NaN', '-0', '0x10', ' 1', '1.5', '', 'x'.repeat(3000), ...PROTOTYPE_KEYS, '%', '\u0000'];
const ENDPOINTS = [
  'orders%2Fv0%2Forders',
  'listings%2F2021-08-01%2Fitems%2FSELLER%2FSKU-1',
  'catalog%2F2022-04-01%2Fitems',
  '..',
  '%2E%2E',
  'http%3A%2F%2Fevil.test',
  'x',
  '%2F',
];

export function fuzzRequests(doc: ContractDocument, operations: readonly ContractOperation[], ids: IdPools): fc.Arbitrary<FuzzRequest> {
  const deref = (s: unknown): Schema => {
    let schema = s as Schema;
    for (let i = 0; schema?.$ref && i < 10; i++)
      schema = schema.$ref
        .slice(2)
        .split('/')
        .reduce<any>((node, key) => node?.[key], doc) as Schema;
    return schema ?? {};
  };
  // Whose requests are being built: a caller mostly names its own merchant's ids, sometimes the other's or an unknown one.
  let caller: User = 'owner';
  const idsFor = (name: string): fc.Arbitrary<string> => {
    const pool = ids[name] ?? ids[name.replace(/_id$/, '')] ?? ids.any ?? { a: [], b: [] };
    const own = caller === 'owner' ? pool.a : caller === 'rival' ? pool.b : [...pool.a, ...pool.b];
    const other = caller === 'owner' ? pool.b : caller === 'rival' ? pool.a : own;
    return fc.oneof(
      { arbitrary: fc.constantFrom(...(own.length ? own : [UNKNOWN_ID])), weight: 16 },
      { arbitrary: fc.constantFrom(...(other.length ? other : [UNKNOWN_ID])), weight: 3 },
      { arbitrary: fc.constant(UNKNOWN_ID), weight: 1 },
    );
  };

  const merged = (s: Schema): Schema => {
    if (!s.allOf) return s;
    const parts = s.allOf.map((part) => merged(deref(part)));
    return {
      ...s,
      allOf: undefined,
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
      required: parts.flatMap((p) => p.required ?? []),
    };
  };

  function valid(raw: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
    const s = merged(deref(raw));
    if (s.enum) return fc.constantFrom(...s.enum);
    const choices = s.oneOf ?? s.anyOf;
    if (choices) return fc.oneof(...choices.map((c) => valid(c, name, depth)));
    const types = ([] as string[]).concat(s.type ?? (s.properties ? 'object' : s.items ? 'array' : 'string'));
    return fc.oneof(...types.map((type) => validOfType(s, type, name, depth)));
  }

  function validOfType(s: Schema, type: string, name: string, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = s.minimum ?? -1000;
        const max = Math.min(s.maximum ?? min + 1000, min + 1_000_000);
        return fc.integer({ min, max });
      }
      case 'number':
        return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
      case 'array': {
        const items = s.items ? valid(s.items, name, depth + 1) : fc.string();
        return fc.array(items, { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)) });
      }
      case 'object': {
        if (depth > 4 || !s.properties) return fc.constant({});
        const shape = Object.fromEntries(Object.entries(s.properties).map(([key, prop]) => [key, valid(prop, key, depth + 1)]));
        return fc.record(shape, { requiredKeys: (s.required ?? []).filter((key) => key in shape) });
      }
      default:
        return validString(s, name);
    }
  }

  function validString(s: Schema, name: string): fc.Arbitrary<string> {
    if (s.format === 'uuid' || (ids[name] && s.format === undefined && !s.pattern)) return idsFor(name);
    if (s.format === 'date-time') return fc.constantFrom('2024-09-01T00:00:00Z', '2031-01-01T12:00:00.000Z', '1999-12-31T23:59:59Z');
    if (s.format === 'date') return fc.constantFrom('2024-09-01', '2031-01-01');
    if (s.format === 'uri' || s.format === 'url')
      return fc.constantFrom('https://example.com/a.png', 'http://localhost/item', 'https://supplier.example/catalog?id=1');
    if (s.format === 'email') return fc.emailAddress();
    if (s.pattern === '^[A-Z]{3}$') return fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'XAU');
    const examples = [s.example, ...((s.examples as unknown[]) ?? [])].filter((e): e is string => typeof e === 'string');
    if (s.pattern) {
      const pattern = fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length <= (s.maxLength ?? 200));
      return examples.length ? fc.oneof(fc.constantFrom(...examples), pattern) : pattern;
    }
    const text = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.max(s.minLength ?? 0, Math.min(s.maxLength ?? 24, 24)) });
    return examples.length ? fc.oneof(fc.constantFrom(...examples), text) : text;
  }

  /** Values at and just past the schema's bounds. */
  function boundary(raw: Schema): fc.Arbitrary<unknown> {
    const s = deref(raw);
    const out: unknown[] = [];
    for (const bound of [s.minimum, s.maximum]) if (typeof bound === 'number') out.push(bound, bound - 1, bound + 1);
    if (typeof s.maxLength === 'number') out.push('a'.repeat(s.maxLength), 'a'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number') out.push('a'.repeat(s.minLength), s.minLength > 0 ? 'a'.repeat(s.minLength - 1) : '');
    if (typeof s.maxItems === 'number') out.push([]);
    return out.length ? fc.constantFrom(...out) : hostile();
  }

  function hostile(): fc.Arbitrary<unknown> {
    return fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.constantFrom(...HOSTILE_NUMBERS),
      fc.constantFrom(...RAW_NUMBERS.map((n) => RAW_NUMBER + n)),
      fc.constantFrom(null, true, [], {}),
      fc.constantFrom(...PROTOTYPE_KEYS).map((key) => Object.fromEntries([[key, { polluted: true }]])),
      fc.integer({ min: 50, max: 3000 }).map(nested),
    );
  }

  /** A valid object with one field replaced by a boundary or hostile value or dropped, or with a prototype-named key added. */
  function mutated(raw: Schema, name: string): fc.Arbitrary<unknown> {
    const s = merged(deref(raw));
    const keys = Object.keys(s.properties ?? {});
    if (!keys.length) return fc.oneof(boundary(s), hostile());
    const replacement = (key: string) => fc.oneof(boundary(s.properties![key]!), hostile(), fc.constant(undefined));
    return fc.tuple(valid(s, name, 0), fc.constantFrom(...keys, ...PROTOTYPE_KEYS)).chain(([base, key]) =>
      replacement(keys.includes(key) ? key : keys[0]!).map((v) => {
        const entries = Object.entries((base ?? {}) as object).filter(([k]) => k !== key);
        if (v !== undefined) entries.push([key, v]);
        return Object.fromEntries(entries);
      }),
    );
  }

  function value(s: Schema, name: string): fc.Arbitrary<unknown> {
    return fc.oneof({ arbitrary: valid(s, name, 0), weight: 7 }, { arbitrary: mutated(s, name), weight: 2 }, { arbitrary: hostile(), weight: 1 });
  }

  const requestsOf = (operation: ContractOperation, user: User): fc.Arbitrary<FuzzRequest> => {
    caller = user;
    const op = operation.operation as { parameters?: unknown[]; requestBody?: unknown };
    // Parameters of the path item apply to each of its operations, unless the operation redefines them.
    const own = (op.parameters ?? []).map((p) => deref(p) as unknown as Parameter);
    const inherited = ((doc.paths[operation.path]?.parameters as unknown[]) ?? []).map((p) => deref(p) as unknown as Parameter);
    const parameters = [...inherited.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
    const pathParams = parameters.filter((p) => p.in === 'path');
    const queryParams = parameters.filter((p) => p.in === 'query');
    const bodyContent = (deref(op.requestBody) as { content?: Record<string, { schema?: Schema }> }).content;
    const bodySchema = bodyContent?.['application/json']?.schema;

    const path = fc
      .tuple(
        ...pathParams.map((p) =>
          p.name === 'endpoint'
            ? fc.constantFrom(...ENDPOINTS)
            : fc.oneof({ arbitrary: idsFor(p.name), weight: 19 }, { arbitrary: fc.constantFrom('x', '%20', 'x'.repeat(300), '..', '1e309'), weight: 1 }),
        ),
      )
      .map((values: string[]) => pathParams.reduce((out, p, i) => out.replace(`{${p.name}}`, values[i]!), operation.path));

    // Valid (or left out when optional), then sometimes one parameter turned boundary or hostile, or a stray key added.
    const queryValues: fc.Arbitrary<unknown[]> = fc.tuple(
      ...queryParams.map((p) =>
        fc.oneof(
          { arbitrary: valid(p.schema ?? {}, p.name, 1), weight: 3 },
          { arbitrary: p.required ? valid(p.schema ?? {}, p.name, 1) : fc.constant(undefined), weight: 1 },
        ),
      ),
    );
    const spoiled = (p: Parameter) => fc.oneof(boundary(p.schema ?? {}), fc.constantFrom(...QUERY_HOSTILE));
    const spoil: fc.Arbitrary<[number, unknown] | null> = queryParams.length
      ? fc.oneof(
          { arbitrary: fc.constant(null), weight: 3 },
          { arbitrary: fc.nat(queryParams.length - 1).chain((i) => spoiled(queryParams[i]!).map((v): [number, unknown] => [i, v])), weight: 1 },
        )
      : fc.constant(null);
    const extraParam = fc.oneof(
      { arbitrary: fc.constant(null), weight: 9 },
      { arbitrary: fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, '_', 'page[x]'), fc.constantFrom(...QUERY_HOSTILE)), weight: 1 },
    );
    const query = fc.tuple(queryValues, spoil, extraParam).map(([values, spoilt, extra]) => {
      const pairs: [string, unknown][] = queryParams.map((p, i) => [p.name, spoilt && spoilt[0] === i ? spoilt[1] : values[i]]);
      if (extra) pairs.push(extra);
      return queryString(pairs);
    });

    const body: fc.Arbitrary<{ body?: string; contentType?: string }> =
      bodySchema === undefined
        ? fc.constant({})
        : fc.oneof(
            { arbitrary: value(bodySchema, 'body').map((v) => ({ body: toJson(v), contentType: 'application/json' })), weight: 18 },
            { arbitrary: fc.constant({}), weight: 1 },
            // "Nothing" typed as JSON: no bytes, `null`, whitespace (a required body's 422, an optional body's too).
            { arbitrary: fc.constantFrom('', 'null', ' \n').map((text) => ({ body: text, contentType: 'application/json' })), weight: 1 },
            { arbitrary: fc.constantFrom('name=x', '{"a":').map((text) => ({ body: text, contentType: 'text/plain' })), weight: 1 },
          );

    return fc.record({ path, query, body }).map(({ path: p, query: q, body: b }): FuzzRequest => ({ operation, user, path: p, query: q, ...b }));
  };
  const byUser = (user: User) => fc.oneof(...operations.map((operation) => requestsOf(operation, user)));
  return fc.oneof({ arbitrary: byUser('owner'), weight: 6 }, { arbitrary: byUser('rival'), weight: 6 }, { arbitrary: byUser('anonymous'), weight: 1 });
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

function toJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(/"\\u0001raw:([^"]+)"/g, '$1');
}

function queryString(pairs: [string, unknown][]): string {
  const params = new URLSearchParams();
  // Nesting past a few levels becomes plain text: qs reads five levels, and a URL has no room for thousands.
  const add = (key: string, v: unknown, depth = 0): void => {
    if (v === undefined) return;
    if (depth < 6 && Array.isArray(v)) for (const item of v) add(key, item, depth + 1);
    else if (depth < 6 && v !== null && typeof v === 'object') for (const [k, inner] of Object.entries(v)) add(`${key}[${k}]`, inner, depth + 1);
    else if (typeof v === 'object' && v !== null) params.append(key, 'nested');
    else params.append(key, typeof v === 'string' && v.startsWith(RAW_NUMBER) ? v.slice(RAW_NUMBER.length) : String(v ?? ''));
  };
  for (const [key, v] of pairs) add(key, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}
