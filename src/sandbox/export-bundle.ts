// A world as one JSON bundle (GET /_sandbox/workspaces/{workspace}/export): its changes against the seeded base,
// clock, id sequence, uploaded files, journal and coverage, with what identifies the sandbox that can load it.
import type { UploadStorage } from '../areas/products/uploads.js';
import { storeChanges } from '../store/store-changes.js';
import { seededBase, type World } from '../world.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, contractIdentity, SEED_SCHEME, UNEXPORTED_COLLECTIONS, type WorkspaceBundle } from './bundle-format.js';
import type { WorldObservations } from '../observe/world-observations.js';

/** What an export reads: the world, the name it goes by, and what is kept about it beside its store. */
export interface ExportSource {
  world: World;
  name: string;
  observations: WorldObservations;
  uploads: UploadStorage;
}

/** The bundle of a world as it is now. Reading its uploaded files is the only wait. */
export async function exportBundle({ world, name, observations, uploads }: ExportSource): Promise<WorkspaceBundle> {
  const { store, clock } = world;
  const changes = storeChanges(store, store.base ?? seededBase(store.seed), UNEXPORTED_COLLECTIONS);
  return {
    format: BUNDLE_FORMAT,
    format_version: BUNDLE_FORMAT_VERSION,
    contract: contractIdentity(),
    seed: store.seed,
    seed_scheme: SEED_SCHEME,
    workspace: name,
    exported_at: clock.nowIso(),
    clock: { offset_ms: clock.offset },
    // A world made without a sequence (none today) would have given random ids: a fresh sequence is as good.
    ids: world.ids?.state ?? { salt: '0000000000000000', issued: 0 },
    changes,
    uploads: await uploadsOf(world, uploads),
    journal: observations.journal.list({ workspace: name }),
    coverage: { operations: answeredOperations(observations, name) },
  };
}

/** Every uploaded file an image record of the world names, in the records' order. */
async function uploadsOf(world: World, uploads: UploadStorage): Promise<WorkspaceBundle['uploads']> {
  const out: WorkspaceBundle['uploads'] = [];
  for (const image of world.store.collections.product_images.all()) {
    if (!image.storage_key) continue;
    const bytes = await uploads.read(image.storage_key);
    if (bytes) out.push({ key: image.storage_key, base64: bytes.toString('base64') });
  }
  return out;
}

/** The operations the world answered, with the statuses it answered (documented or not). */
function answeredOperations(observations: WorldObservations, name: string): WorkspaceBundle['coverage']['operations'] {
  const report = observations.coverageOf(name)?.report();
  return (report?.operations ?? [])
    .filter((op) => op.answered.length + op.undocumented.length > 0)
    .map((op) => ({ operation_id: op.operation_id, answered: op.answered, undocumented: op.undocumented }));
}
