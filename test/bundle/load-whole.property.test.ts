// Any bundle a client can send either loads whole or is refused whole: mutations of a valid bundle (fields dropped
// or altered, records corrupted, references left dangling, another hash or version) answer 201 with a world whose
// own export carries exactly the bundle's changes, clock and uploads, or a 400/413/422 that leaves the workspaces,
// the journal rings and the coverage as they were.
import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { bearer, exported, newWorkspace, scriptedSession, type Bundle } from './session.js';

type Obj = Record<string, unknown>;
type Mutation = { name: string; apply: (b: Bundle) => void };

const junk = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -5, max: 5 }),
  fc.string({ maxLength: 5 }),
  fc.constant({}),
  fc.constant([]),
  fc.boolean(),
  fc.uuid({ version: 4 }),
);
const TOP = [
  'format',
  'format_version',
  'contract',
  'seed',
  'seed_scheme',
  'clock',
  'ids',
  'changes',
  'uploads',
  'journal',
  'coverage',
  'workspace',
  'exported_at',
];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The bundle's collection changes that a mutation can still reach (an earlier one may have replaced `changes`). */
function listsOf(b: Bundle): Bundle['changes'][string][] {
  return isObj(b.changes) ? Object.values(b.changes).filter((c) => isObj(c) && Array.isArray(c.added) && Array.isArray(c.changed)) : [];
}

/** Every record of the bundle that a mutation can reach. */
function recordsOf(b: Bundle): Obj[] {
  return listsOf(b)
    .flatMap((c) => [...c.added, ...c.changed])
    .filter(isObj);
}

const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom(...TOP).map((key) => ({ name: `drop ${key}`, apply: (b: Bundle) => void delete (b as Obj)[key] })),
  fc
    .tuple(fc.constantFrom(...TOP), junk)
    .map(([key, value]) => ({ name: `${key} = ${JSON.stringify(value)}`, apply: (b: Bundle) => void ((b as Obj)[key] = value) })),
  fc.tuple(fc.nat(), fc.nat(), junk).map(([r, f, value]) => ({
    name: `record field = ${JSON.stringify(value)}`,
    apply: (b: Bundle) => {
      const record = pick(recordsOf(b), r);
      const field = record && pick(Object.keys(record), f);
      if (record && field) record[field] = value;
    },
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([r, f]) => ({
    name: 'record field dropped',
    apply: (b: Bundle) => {
      const record = pick(recordsOf(b), r);
      const field = record && pick(Object.keys(record), f);
      if (record && field) delete record[field];
    },
  })),
  fc.tuple(fc.nat(), fc.uuid({ version: 4 })).map(([r, id]) => ({
    name: `dangling reference ${id}`,
    apply: (b: Bundle) => {
      const record = pick(
        recordsOf(b).filter((x) => Object.keys(x).some((k) => k.endsWith('_id') && k !== 'main_image_id' && k !== 'thumbnail_image_id')),
        r,
      );
      const field = record && Object.keys(record).find((k) => k.endsWith('_id') && k !== 'main_image_id' && k !== 'thumbnail_image_id');
      if (record && field) record[field] = id;
    },
  })),
  fc.constantFrom(demo.merchant, DEMO_PRODUCT_ID, demo.owner.id).map((id) => ({
    name: `delete seeded ${id}`,
    apply: (b: Bundle) => {
      const collection = id === demo.merchant ? 'merchants' : id === DEMO_PRODUCT_ID ? 'products' : 'users';
      if (!isObj(b.changes)) return;
      const changes = (b.changes[collection] ??= { added: [], changed: [], deleted: [] });
      if (Array.isArray(changes.deleted) && !changes.deleted.includes(id)) changes.deleted.push(id);
    },
  })),
  fc.nat().map((r) => ({
    name: 'added record removed',
    apply: (b: Bundle) => {
      const list = pick(
        listsOf(b).filter((c) => c.added.length > 0),
        r,
      );
      list?.added.splice(r % list.added.length, 1);
    },
  })),
  fc.nat().map((r) => ({
    name: 'record twice',
    apply: (b: Bundle) => {
      const list = pick(
        listsOf(b).filter((c) => c.added.length > 0),
        r,
      );
      if (list) list.added.push(structuredClone(list.added[r % list.added.length]!));
    },
  })),
  fc.constantFrom(
    { name: 'other hash', apply: (b: Bundle) => void (isObj(b.contract) && (b.contract.sha256 = 'f'.repeat(64))) },
    { name: 'version 2', apply: (b: Bundle) => void (b.format_version = 2) },
    { name: 'other scheme', apply: (b: Bundle) => void (b.seed_scheme = 'faker@1.0.0/seed-1') },
    { name: 'clock far ahead', apply: (b: Bundle) => void (isObj(b.clock) && (b.clock.offset_ms = 10 ** 15)) },
    { name: 'clock moved', apply: (b: Bundle) => void (isObj(b.clock) && (b.clock.offset_ms = 3_600_000)) },
    { name: 'upload not base64', apply: (b: Bundle) => void (Array.isArray(b.uploads) && isObj(b.uploads[0]) && (b.uploads[0].base64 = '@@@@')) },
    {
      name: 'coverage of no operation',
      apply: (b: Bundle) =>
        void (
          isObj(b.coverage) &&
          Array.isArray(b.coverage.operations) &&
          b.coverage.operations.push({ operation_id: 'nope', answered: ['200'], undocumented: [] })
        ),
    },
    { name: 'journal entry broken', apply: (b: Bundle) => void (Array.isArray(b.journal) && isObj(b.journal[0]) && (b.journal[0].status = 'ok')) },
    { name: 'nothing', apply: () => {} },
  ),
);

/** The parts a loaded world's own export must give back as the bundle had them. */
function loadedParts(b: Bundle) {
  const changes = Object.fromEntries(Object.entries(b.changes).filter(([, c]) => c.added.length + c.changed.length + c.deleted.length > 0));
  return { changes, clock: b.clock, uploads: b.uploads, ids: b.ids };
}

describe('a bundle loads whole or not at all', () => {
  let t: TestApp;
  let valid: Bundle;

  beforeAll(async () => {
    t = await testApp();
    const ws = await newWorkspace(t);
    await scriptedSession(t, ws);
    valid = await exported(t, ws);
  }, 60_000);

  it('When any mutation of a valid bundle is loaded, then it is loaded whole (its world exports what it carried) or refused whole (nothing created)', async () => {
    const outcomes = { loaded: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const b = structuredClone(valid);
        for (const m of mutations) m.apply(b);
        const names = mutations.map((m) => m.name).join(', ');
        const before = { workspaces: t.worlds.workspaceCount, rings: t.runtime.observations.journal.usage().workspaces.size };
        const res = await request(t.app).post('/_sandbox/workspaces').send(b);
        expect([201, 400, 413, 422], `${names}: ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
        if (res.status === 201) {
          outcomes.loaded++;
          expect(t.worlds.workspaceCount).toBe(before.workspaces + 1);
          const again = await exported(t, res.body.data);
          expect(loadedParts(again), names).toEqual(loadedParts(b));
          await request(t.app).delete(`/_sandbox/workspaces/${res.body.data.id}`).set(bearer(res.body.data.tokens.owner)).expect(204);
        } else {
          outcomes.refused++;
          expect(res.body.message, names).toEqual(expect.any(String));
          expect(t.worlds.workspaceCount, names).toBe(before.workspaces);
          expect(t.runtime.observations.journal.usage().workspaces.size, names).toBe(before.rings);
        }
      }),
      { numRuns: 60 },
    );
    // Both outcomes were exercised: the mutations are neither all harmless nor all fatal.
    expect(outcomes.loaded).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(t.errors).toEqual([]);
  }, 180_000);
});
