// A world as one JSON bundle (GET /_sandbox/workspaces/{workspace}/export): its changes against the seeded base,
// clock, id sequence, uploaded files, journal and coverage, with what identifies the sandbox that can load it.
// The bundle is built as pieces of JSON text, a few hundred records or one file at a time, yielding to the event
// loop between pieces, and counted as it grows: a bundle past its limit is refused as soon as it passes it, and no
// piece holds the loop for long (a world's whole bundle serialised at once held it for seconds).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { UploadStorage } from '../areas/products/uploads.js';
import { storeChanges } from '../store/store-changes.js';
import type { SeededBases } from '../world.js';
import type { World } from '../world.js';
import type { BundleContract } from './bundle-contract.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, SEED_SCHEME, UNEXPORTED_COLLECTIONS, type WorkspaceBundle } from './bundle-format.js';
import type { WorldObservations } from '../observe/world-observations.js';

/** What an export reads: the world, the name it goes by, what is kept about it beside its store, and the sandbox's contract and seeded bases. */
export interface ExportSource {
  world: World;
  name: string;
  observations: WorldObservations;
  uploads: UploadStorage;
  contract: BundleContract;
  /** Where a world that is no view finds the seeded base its changes are taken against. */
  seeded: SeededBases;
}

/** Records (or journal entries) serialised in one piece: small enough that a piece takes a few milliseconds. */
const ITEMS_PER_PIECE = 500;

/** The bundle's bytes as pieces of JSON text, in order; `tooLarge` is called (and must throw) once they pass `maxBytes`. */
export async function exportPieces(source: ExportSource, maxBytes: number, tooLarge: () => never): Promise<Buffer[]> {
  const { world, name, observations, uploads, contract, seeded } = source;
  const { store, clock } = world;
  const pieces: Buffer[] = [];
  let bytes = 0;
  const add = (text: string) => {
    const piece = Buffer.from(text);
    bytes += piece.length;
    if (bytes > maxBytes) tooLarge();
    pieces.push(piece);
  };
  /** A JSON array of `items`, a piece per ITEMS_PER_PIECE of them, a turn of the event loop after each. */
  const addArray = async (items: readonly unknown[], close: string) => {
    add('[');
    for (let at = 0; at < items.length; at += ITEMS_PER_PIECE) {
      const slice = items.slice(at, at + ITEMS_PER_PIECE).map((item) => JSON.stringify(item));
      add((at > 0 ? ',' : '') + slice.join(','));
      await nextTurn();
    }
    add(`]${close}`);
  };

  const head: Omit<WorkspaceBundle, 'changes' | 'uploads' | 'journal' | 'coverage'> = {
    format: BUNDLE_FORMAT,
    format_version: BUNDLE_FORMAT_VERSION,
    contract: contract.identity,
    seed: store.seed,
    seed_scheme: SEED_SCHEME,
    workspace: name,
    exported_at: clock.nowIso(),
    clock: { offset_ms: clock.offset },
    // A world made without a sequence (none today) would have given random ids: a fresh sequence is as good.
    ids: world.ids?.state ?? { salt: '0000000000000000', issued: 0 },
  };
  const changes = storeChanges(store, store.base ?? seeded.of(store.seed), UNEXPORTED_COLLECTIONS);
  add(`${JSON.stringify(head).slice(0, -1)},"changes":{`);
  await nextTurn();
  for (const [i, [collection, { added, changed, deleted }]] of Object.entries(changes).entries()) {
    add(`${i > 0 ? ',' : ''}${JSON.stringify(collection)}:{"added":`);
    await addArray(added, ',"changed":');
    await addArray(changed, `,"deleted":${JSON.stringify(deleted)}}`);
  }
  add('},"uploads":[');
  let first = true;
  // Every uploaded file an image record of the world names, in the records' order.
  for (const image of store.collections.product_images.all()) {
    if (!image.storage_key) continue;
    const file = await uploads.read(image.storage_key);
    if (!file) continue;
    add(`${first ? '' : ','}{"key":${JSON.stringify(image.storage_key)},"base64":"${file.toString('base64')}"}`);
    first = false;
    await nextTurn();
  }
  add('],"journal":');
  await addArray(observations.journal.list({ workspace: name }), `,"coverage":${JSON.stringify({ operations: answeredOperations(observations, name) })}}`);
  return pieces;
}

/** The operations the world answered, with the statuses it answered (documented or not). */
function answeredOperations(observations: WorldObservations, name: string): WorkspaceBundle['coverage']['operations'] {
  const report = observations.coverageOf(name)?.report();
  return (report?.operations ?? [])
    .filter((op) => op.answered.length + op.undocumented.length > 0)
    .map((op) => ({ operation_id: op.operation_id, answered: op.answered, undocumented: op.undocumented }));
}
