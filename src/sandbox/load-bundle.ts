// Loads a checked workspace bundle into a world built aside (a new workspace's, or the default world's at start):
// its records, clock, id sequence and uploads; a record left referring to one the world does not have refuses the
// whole bundle before the world is served. Its journal and coverage join the world's once it is registered. Each
// step pauses between records, files and journal entries (src/sandbox/time-slices.ts).
import type { UploadStorage } from '../areas/products/uploads.js';
import { unprocessable } from '../http/errors.js';
import { applyChanges } from '../store/store-changes.js';
import { WORLD_RULES } from '../areas/world-rules.js';
import type { World } from '../world.js';
import type { WorkspaceBundle } from './bundle-format.js';
import { REFERENCES } from './bundle-records.js';
import { MAX_PROBLEMS } from './check-bundle.js';
import type { TimeSlices } from './time-slices.js';
import type { WorldObservations } from '../observe/world-observations.js';

type Rec = Record<string, unknown> & { id: string };
type Lookup = { has(id: string): boolean; all(): Rec[] };

/**
 * Puts a checked bundle into a world nobody is served yet: its records, then its references are checked (422
 * naming each dangling one), then its clock, ids and uploaded files. A refusal leaves the world to be dropped.
 */
export async function loadIntoWorld(world: World, bundle: WorkspaceBundle, uploads: () => UploadStorage, slices: TimeSlices): Promise<void> {
  const { store } = world;
  await applyInSlices(store, bundle.changes, slices);
  // A view counts the records it added against its quota, as if they had been added one by one.
  if (store.base) for (const changes of Object.values(bundle.changes)) store.addedRecords += changes.added.length;
  store.version++;
  await checkReferences(world, bundle, slices);
  world.clock.advance(bundle.clock.offset_ms);
  await checkWorldRules(world, bundle, slices);
  world.ids?.restore(bundle.ids);
  const storage = bundle.uploads.length > 0 ? uploads() : undefined;
  await slices.each(bundle.uploads, ({ key, base64 }) => storage!.write(key, Buffer.from(base64, 'base64')));
}

/** Records applied between two looks at the slice's time. */
const RECORDS_PER_STEP = 256;

/** The bundle's changes applied as applyChanges applies them (per collection: deleted, changed, added), a few records per step. */
async function applyInSlices(store: World['store'], changes: WorkspaceBundle['changes'], slices: TimeSlices): Promise<void> {
  const none: never[] = [];
  for (const [name, { added, changed, deleted }] of Object.entries(changes)) {
    for (const [kind, items] of [
      ['deleted', deleted],
      ['changed', changed],
      ['added', added],
    ] as const) {
      for (let at = 0; at < items.length; at += RECORDS_PER_STEP) {
        const part = { added: none, changed: none, deleted: none, [kind]: items.slice(at, at + RECORDS_PER_STEP) };
        applyChanges(store, { [name]: part } as WorkspaceBundle['changes']);
        await slices.pause();
      }
    }
  }
}

/** Every reference of the loaded world resolves, and every uploaded file is named by an image. */
async function checkReferences(world: World, bundle: WorkspaceBundle, slices: TimeSlices): Promise<void> {
  const collections = world.store.collections as unknown as Record<string, Lookup>;
  // Where each record of the bundle sits in it, to name the field that refers to nothing.
  const placeOf = new Map<string, string>();
  for (const [name, changes] of Object.entries(bundle.changes)) {
    for (const [i, r] of changes.added.entries()) placeOf.set(`${name}/${r.id}`, `changes.${name}.added.${i}`);
    for (const [i, r] of changes.changed.entries()) placeOf.set(`${name}/${r.id}`, `changes.${name}.changed.${i}`);
  }
  const errors: Record<string, string[]> = {};
  let count = 0;
  for (const [name, fields] of Object.entries(REFERENCES)) {
    await slices.each(collections[name]!.all(), (record) => {
      for (const [field, target] of Object.entries(fields)) {
        const value = record[field];
        if (value === null || value === undefined || (typeof value === 'string' && collections[target]!.has(value))) continue;
        if (count++ >= MAX_PROBLEMS) break;
        const place = placeOf.get(`${name}/${record.id}`);
        const path = place ? `${place}.${field}` : `changes.${target}.deleted`;
        const why = place ? '' : ' (the bundle deletes it, but keeps a record that refers to it)';
        (errors[path] ??= []).push(`${name} ${record.id} refers to ${target} ${String(value)}, which the world would not have${why}.`);
      }
    });
  }
  const images = new Set(collections.product_images!.all().map((image) => image.storage_key));
  bundle.uploads.forEach(({ key }, i) => {
    if (!images.has(key) && count++ < MAX_PROBLEMS) (errors[`uploads.${i}.key`] ??= []).push(`No image of the world names the file ${key}.`);
  });
  if (count > 0) unprocessable(errors, 'A record of the bundle refers to a record the world would not have; nothing was loaded.');
}

/** The earliest time a record may name: the seeded worlds start in 2020, and no API call writes an earlier one. */
const EARLIEST_RECORD_TIME = Date.parse('2000-01-01T00:00:00Z');

/**
 * The times a client names as they like (a token's expiry): any the contract's date-time allows. A scraping request's
 * start is not one: createScrapingRequest stores now for a past one and refuses one past the clock's reach.
 */
const TIMES_A_CLIENT_SETS: Readonly<Record<string, readonly string[]>> = {
  channel_connections: ['access_token_expires_at'],
  retailer_grants: ['access_token_expires_at'],
};

/**
 * The loaded world keeps the rules the API keeps across records (src/areas/world-rules.ts), and every time the
 * sandbox itself stamps on a record (its `*_at` fields but those a client names) lies within the clock's reach:
 * between EARLIEST_RECORD_TIME and the wall clock plus the clock's largest offset.
 */
async function checkWorldRules(world: World, bundle: WorkspaceBundle, slices: TimeSlices): Promise<void> {
  const errors: Record<string, string[]> = {};
  let count = 0;
  const add = (path: string, message: string) => {
    if (count++ < MAX_PROBLEMS) (errors[path] ??= []).push(message);
  };
  for (const rule of WORLD_RULES) {
    for (const breach of rule(world.store.collections)) add(`changes.${breach.collection}`, breach.message);
    await slices.pause();
  }
  const latest = world.clock.latestReach();
  for (const [name, changes] of Object.entries(bundle.changes)) {
    for (const kind of ['added', 'changed'] as const) {
      const clientTimes = new Set(TIMES_A_CLIENT_SETS[name] ?? []);
      await slices.each(changes[kind], (record: Rec, i) => {
        for (const [field, value] of Object.entries(record)) {
          if (!field.endsWith('_at') || clientTimes.has(field) || typeof value !== 'string') continue;
          const time = Date.parse(value);
          if (!(time >= EARLIEST_RECORD_TIME && time <= latest)) {
            add(
              `changes.${name}.${kind}.${i}.${field}`,
              `The ${field} field must lie between 2000-01-01T00:00:00Z and ${new Date(latest).toISOString()}, the latest time the clock can reach.`,
            );
          }
        }
      });
    }
  }
  if (count > 0) unprocessable(errors, "The bundle's world breaks a rule the API keeps; nothing was loaded.");
}

/** The bundle's journal (marked loaded) and coverage become the world's, under the name it now goes by. */
export async function restoreObservations(observations: WorldObservations, name: string, bundle: WorkspaceBundle, slices: TimeSlices): Promise<void> {
  // Oldest first, so the ring keeps the bundle's order (and drops the oldest past its bounds, as it always does).
  await slices.each([...bundle.journal].reverse(), (entry) => {
    observations.journal.record({
      id: entry.id,
      workspace: name,
      method: entry.method,
      path: entry.path,
      operationId: entry.operation_id,
      status: entry.status,
      durationMs: entry.duration_ms,
      query: entry.request.query,
      headers: entry.request.headers,
      requestBody: entry.request.body ?? undefined,
      responseBody: entry.response.body ?? undefined,
      ignored: entry.request.ignored,
      trail: entry.trail,
      at: new Date(entry.at),
      loaded: { requestTruncated: entry.request.body_truncated, responseTruncated: entry.response.body_truncated },
    });
  });
  const coverage = observations.coverageOf(name);
  for (const op of bundle.coverage.operations) for (const status of [...op.answered, ...op.undocumented]) coverage?.record(op.operation_id, Number(status));
}
