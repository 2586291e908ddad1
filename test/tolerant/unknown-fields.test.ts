import { describe, expect, it } from 'vitest';
import type { ContractDocument } from '../../src/contract/document/load-contract.js';
import { derefIn, unknownFields, withoutPaths } from '../../src/pipeline/tolerant-reader.js';

const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {},
  components: {
    schemas: {
      Money: {
        type: 'object',
        additionalProperties: false,
        required: ['value', 'currency'],
        properties: { value: { type: 'number' }, currency: { type: 'string' } },
      },
      Tier: { type: 'object', properties: { quantity: { type: 'integer' }, cost: { $ref: '#/components/schemas/Money' } } },
      Named: { type: 'object', properties: { name: { type: 'string' } } },
      Stamped: { type: 'object', properties: { id: { type: 'string', readOnly: true }, note: { type: 'string' } } },
    },
  },
} as unknown as ContractDocument;
const deref = derefIn(doc);
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const paths = (found: string[][]) => found.map((p) => p.join('.'));

describe('unknown fields of a value against its schema', () => {
  it('When an object described field by field has other fields, then each is found, at any depth and in arrays', () => {
    const schema = { type: 'object', properties: { tiers: { type: 'array', items: ref('Tier') }, name: { type: 'string' } } };
    const value = { name: 'a', extra: 1, tiers: [{ quantity: 1, cost: { value: 1, currency: 'USD' }, note: 'x' }] };
    expect(paths(unknownFields(value, [schema], deref))).toEqual(['extra', 'tiers.0.note']);
  });

  it('When a closed shape (money) has another field, then it is not found: the validator answers 422 for it', () => {
    expect(unknownFields({ quantity: 1, cost: { value: 1, currency: 'USD', tax: 0 } }, [ref('Tier')], deref)).toEqual([]);
  });

  it('When an object is free-form (additionalProperties true, a schema, or no properties), then nothing is found but its schema is followed', () => {
    expect(unknownFields({ any: 1 }, [{ type: 'object', additionalProperties: true }], deref)).toEqual([]);
    expect(unknownFields({ any: 1 }, [{ type: 'object' }], deref)).toEqual([]);
    expect(paths(unknownFields({ a: { name: 'x', b: 2 } }, [{ type: 'object', additionalProperties: ref('Named') }], deref))).toEqual(['a.b']);
  });

  it('When the schema combines members (allOf, a nullable oneOf), then a field any member names is known', () => {
    const both = { allOf: [ref('Named'), { type: 'object', properties: { age: { type: 'integer' } } }] };
    expect(paths(unknownFields({ name: 'x', age: 1, other: 2 }, [both], deref))).toEqual(['other']);
    const nullable = { oneOf: [ref('Named'), { type: 'null' }] };
    expect(paths(unknownFields({ name: 'x', other: 2 }, [nullable], deref))).toEqual(['other']);
  });

  it('When a readOnly property is sent, then it counts as not named (it belongs to answers)', () => {
    expect(paths(unknownFields({ id: '1', note: 'n' }, [ref('Stamped')], deref))).toEqual(['id']);
  });

  it('When the found fields are dropped, then the copy keeps the rest and the original is untouched', () => {
    const value = JSON.parse('{"name":"x","extra":1,"constructor":1,"items":[{"keep":1,"drop":2}]}') as Record<string, unknown>;
    const found = [['extra'], ['constructor'], ['items', '0', 'drop']];
    expect(withoutPaths(value, found)).toEqual(JSON.parse('{"name":"x","items":[{"keep":1}]}'));
    expect(Object.keys(value)).toEqual(['name', 'extra', 'constructor', 'items']);
  });

  it('When an ignored field nests thousands of levels deep, then dropping it does not walk it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [{ a: deep }];
    expect(withoutPaths({ name: 'x', deep }, [['deep']])).toEqual({ name: 'x' });
  });

  it('When many records of one shape are walked, then what a schema says of each key is worked out once and still found in every record, and a free-form object of many keys is walked whole', () => {
    const schema = {
      type: 'object',
      properties: { list: { type: 'array', items: ref('Named') }, bag: { type: 'object', additionalProperties: ref('Named') } },
    };
    const list = Array.from({ length: 2000 }, (_, i) => (i % 500 === 0 ? { name: `n${i}`, extra: i } : { name: `n${i}` }));
    const bag = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i === 999 ? { name: 'x', late: 1 } : { name: 'x' }]));
    expect(paths(unknownFields({ list, bag }, [schema], deref))).toEqual([
      'list.0.extra',
      'list.500.extra',
      'list.1000.extra',
      'list.1500.extra',
      'bag.k999.late',
    ]);
    // The same schema object walked again finds the same (the remembered plans change nothing).
    expect(paths(unknownFields({ list: [{ name: 'a', other: 1 }] }, [schema], deref))).toEqual(['list.0.other']);
  });
});
