// Loads a checked workspace bundle into a world built aside (a new workspace's, or the default world's at start):
// its records, clock, id sequence and uploads; a record left referring to one the world does not have refuses the
// whole bundle before the world is served. Its journal and coverage join the world's once it is registered.
import type { UploadStorage } from '../areas/products/uploads.js';
import { unprocessable } from '../http/errors.js';
import { applyChanges } from '../store/store-changes.js';
import { worldRuleBreaches } from '../areas/world-rules.js';
import { MAX_CLOCK_OFFSET_MS } from '../world.js';
import type { World } from '../world.js';
import type { WorkspaceBundle } from './bundle-format.js';
import { REFERENCES } from './bundle-records.js';
import { MAX_PROBLEMS } from './check-bundle.js';
import type { WorldObservations } from '../observe/world-observations.js';

type Rec = Record<string, unknown> & { id: string };
type Lookup = { has(id: string): boolean; all(): Rec[] };

/**
 * Puts a checked bundle into a world nobody is served yet: its records, then its references are checked (422
 * naming each dangling one), then its clock, ids and uploaded files. A refusal leaves the world to be dropped.
 */
export function loadIntoWorld(world: World, bundle: WorkspaceBundle, uploads: () => UploadStorage): void {
  const { store } = world;
  applyChanges(store, bundle.changes);
  // A view counts the records it added against its quota, as if they had been added one by one.
  if (store.base) for (const changes of Object.values(bundle.changes)) store.addedRecords += changes.added.length;
  store.version++;
  checkReferences(world, bundle);
  world.clock.advance(bundle.clock.offset_ms);
  checkWorldRules(world, bundle);
  world.ids?.restore(bundle.ids);
  const storage = bundle.uploads.length > 0 ? uploads() : undefined;
  for (const { key, base64 } of bundle.uploads) storage!.write(key, Buffer.from(base64, 'base64'));
}

/** Every reference of the loaded world resolves, and every uploaded file is named by an image. */
function checkReferences(world: World, bundle: WorkspaceBundle): void {
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
    for (const record of collections[name]!.all()) {
      for (const [field, target] of Object.entries(fields)) {
        const value = record[field];
        if (value === null || value === undefined || (typeof value === 'string' && collections[target]!.has(value))) continue;
        if (count++ >= MAX_PROBLEMS) break;
        const place = placeOf.get(`${name}/${record.id}`);
        const path = place ? `${place}.${field}` : `changes.${target}.deleted`;
        const why = place ? '' : ' (the bundle deletes it, but keeps a record that refers to it)';
        (errors[path] ??= []).push(`${name} ${record.id} refers to ${target} ${String(value)}, which the world would not have${why}.`);
      }
    }
  }
  const images = new Set(collections.product_images!.all().map((image) => image.storage_key));
  bundle.uploads.forEach(({ key }, i) => {
    if (!images.has(key) && count++ < MAX_PROBLEMS) (errors[`uploads.${i}.key`] ??= []).push(`No image of the world names the file ${key}.`);
  });
  if (count > 0) unprocessable(errors, 'A record of the bundle refers to a record the world would not have; nothing was loaded.');
}

/** The earliest time a record may name: the seeded worlds start in 2020, and no API call writes an earlier one. */
const EARLIEST_RECORD_TIME = Date.parse('2000-01-01T00:00:00Z');

/** The times a client names (a scraping request's start, a token's expiry): any the contract's date-time allows. */
const TIMES_A_CLIENT_SETS: Readonly<Record<string, readonly string[]>> = {
  scraping_requests: ['starts_at'],
  channel_connections: ['access_token_expires_at'],
  retailer_grants: ['access_token_expires_at'],
};

/**
 * The loaded world keeps the rules the API keeps across records (src/areas/world-rules.ts), and every time the
 * sandbox itself stamps on a record (its `*_at` fields but those a client names) lies within the clock's reach:
 * between EARLIEST_RECORD_TIME and the wall clock plus the clock's largest offset.
 */
function checkWorldRules(world: World, bundle: WorkspaceBundle): void {
  const errors: Record<string, string[]> = {};
  let count = 0;
  const add = (path: string, message: string) => {
    if (count++ < MAX_PROBLEMS) (errors[path] ??= []).push(message);
  };
  for (const breach of worldRuleBreaches(world.store.collections)) add(`changes.${breach.collection}`, breach.message);
  const latest = world.clock.now().getTime() - world.clock.offset + MAX_CLOCK_OFFSET_MS;
  for (const [name, changes] of Object.entries(bundle.changes)) {
    for (const kind of ['added', 'changed'] as const) {
      const clientTimes = new Set(TIMES_A_CLIENT_SETS[name] ?? []);
      changes[kind].forEach((record: Rec, i) => {
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
export function restoreObservations(observations: WorldObservations, name: string, bundle: WorkspaceBundle): void {
  // Oldest first, so the ring keeps the bundle's order (and drops the oldest past its bounds, as it always does).
  for (const entry of [...bundle.journal].reverse()) {
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
  }
  const coverage = observations.coverageOf(name);
  for (const op of bundle.coverage.operations) for (const status of [...op.answered, ...op.undocumented]) coverage?.record(op.operation_id, Number(status));
}
