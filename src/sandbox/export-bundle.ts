// A world as one JSON bundle (GET /_sandbox/workspaces/{workspace}/export): its changes against the seeded base,
// clock, id sequence, uploaded files, journal and coverage, with what identifies the sandbox that can load it.
// The bundle is built as pieces of JSON text, a few hundred records or one file at a time, in slices of the event
// loop (src/sandbox/time-slices.ts), and counted as it grows: a bundle past its limit is refused as soon as it
// passes it, and no piece holds the loop for long (a world's whole bundle serialised at once held it for seconds).
// It is sent without res.json, so the response validator never sees it: each piece is checked here instead, against
// its part of the contract's SandboxWorkspaceBundle (src/sandbox/bundle-parts.ts), and each record against its
// collection's schema as a load checks it. A piece that breaks the contract is a bug: nothing is sent, and the
// error handler answers 500 and logs it.
import type { UploadStorage } from '../areas/products/uploads.js';
import type { TurnQueue } from '../http/turn-queue.js';
import { storeChanges } from '../store/store-changes.js';
import type { SeededBases } from '../world.js';
import type { World } from '../world.js';
import type { BundleContract } from './bundle-contract.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, SEED_SCHEME, UNEXPORTED_COLLECTIONS, type WorkspaceBundle } from './bundle-format.js';
import { bundleFrame, type BundlePart } from './bundle-parts.js';
import type { RecordCheck } from './bundle-records.js';
import { TimeSlices } from './time-slices.js';
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
  /** The sandbox's turn queue, which every load and export takes its turns from. */
  turns: TurnQueue;
}

/** A piece of an export that breaks the contract: a bug of the sandbox (the error handler answers 500 and logs it). */
export class ExportBreaksContract extends Error {
  constructor(problems: Record<string, string[]>) {
    const list = Object.entries(problems).flatMap(([path, messages]) => messages.map((m) => `${path}: ${m}`));
    super(`An exported bundle breaks the contract's SandboxWorkspaceBundle: ${list.slice(0, 5).join('; ')}`);
  }
}

/**
 * Records (or journal entries) checked and serialised in one piece: well under a millisecond of work on a quiet
 * core (100 of them took 4-10 ms on a loaded one), so that the slice that takes one more piece stays near its time.
 */
const ITEMS_PER_PIECE = 25;

/** The bundle's bytes as pieces of JSON text, in order; `tooLarge` is called (and must throw) once they pass `maxBytes`. */
export async function exportPieces(source: ExportSource, maxBytes: number, tooLarge: () => never): Promise<Buffer[]> {
  const { world, name, observations, uploads, contract, seeded } = source;
  const { store, clock } = world;
  const slices = new TimeSlices(source.turns);
  // What each piece is checked with, compiled before the first piece (once per process), a schema per slice.
  await contract.prepare(() => slices.yield());
  const recordChecks = contract.checks.recordChecks();
  const pieces: Buffer[] = [];
  let bytes = 0;
  const add = (text: string, encoding: BufferEncoding = 'utf8') => {
    const piece = Buffer.from(text, encoding);
    bytes += piece.length;
    if (bytes > maxBytes) tooLarge();
    pieces.push(piece);
  };
  /** Checks one piece against its part of the bundle's schema (and a record against its collection's), at `at` (a JSON pointer). */
  const check = (part: BundlePart, value: unknown, at: string, record?: RecordCheck) => {
    const problems: Record<string, string[]> = {};
    const note = (path: string, message: string) => void (problems[path] ??= []).push(message);
    contract.parts.conforms(part, value, at, note);
    const prefix = at.slice(1).replaceAll('/', '.');
    if (record) for (const [field, messages] of Object.entries(record(value))) for (const m of messages) note(`${prefix}.${field}`, m);
    if (Object.keys(problems).length > 0) throw new ExportBreaksContract(problems);
  };
  /** A JSON array of `items` (each checked as `part`), a piece per ITEMS_PER_PIECE of them, a slice paused after each. */
  const addArray = async (items: readonly unknown[], part: BundlePart, at: string, close: string, record?: RecordCheck) => {
    add('[');
    for (let from = 0; from < items.length; from += ITEMS_PER_PIECE) {
      const slice = items.slice(from, from + ITEMS_PER_PIECE).map((item, i) => {
        check(part, item, `${at}/${from + i}`, record);
        return JSON.stringify(item);
      });
      add((from > 0 ? ',' : '') + slice.join(','));
      await slices.pause();
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
  const coverage = { operations: answeredOperations(observations, name) };
  // The frame: the bundle but for its records, files and journal entries, which are checked one by one below.
  check('frame', bundleFrame({ ...head, changes, uploads: [], journal: [], coverage }), '');
  add(`${JSON.stringify(head).slice(0, -1)},"changes":{`);
  await slices.pause();
  for (const [i, [collection, { added, changed, deleted }]] of Object.entries(changes).entries()) {
    add(`${i > 0 ? ',' : ''}${JSON.stringify(collection)}:{"added":`);
    const record = recordChecks.get(collection);
    await addArray(added, 'record', `/changes/${collection}/added`, ',"changed":', record);
    await addArray(changed, 'record', `/changes/${collection}/changed`, `,"deleted":${JSON.stringify(deleted)}}`, record);
  }
  add('},"uploads":[');
  let count = 0;
  // Every uploaded file an image record of the world names, in the records' order.
  for (const image of store.collections.product_images.all()) {
    if (!image.storage_key) continue;
    const file = await slices.after(uploads.read(image.storage_key));
    if (!file) continue;
    const upload = { key: image.storage_key, base64: file.toString('base64') };
    check('upload', upload, `/uploads/${count}`);
    // Its base64 text (no character of which JSON escapes) goes into a piece as it is: serialised inside the
    // file's JSON, each file's megabytes were copied twice more on the heap.
    add(`${count > 0 ? ',' : ''}{"key":${JSON.stringify(upload.key)},"base64":"`);
    add(upload.base64, 'latin1');
    add('"}');
    count++;
    await slices.pause();
  }
  add('],"journal":');
  await addArray(observations.journal.list({ workspace: name }), 'journalEntry', '/journal', `,"coverage":${JSON.stringify(coverage)}}`);
  return pieces;
}

/** The operations the world answered, with the statuses it answered (documented or not). */
function answeredOperations(observations: WorldObservations, name: string): WorkspaceBundle['coverage']['operations'] {
  const report = observations.coverageOf(name)?.report();
  return (report?.operations ?? [])
    .filter((op) => op.answered.length + op.undocumented.length > 0)
    .map((op) => ({ operation_id: op.operation_id, answered: op.answered, undocumented: op.undocumented }));
}
