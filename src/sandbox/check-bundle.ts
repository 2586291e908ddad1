// Whether a workspace bundle can be loaded whole, checked before anything of it is loaded: what it is (format,
// version, contract, seed scheme, seed), its shape, then each record against its schema and against the seeded
// base. Each refusal is a 422 (413 for uploads past the quota) naming what is wrong, at most MAX_PROBLEMS of them.
// The work pauses between records, files and journal entries (src/sandbox/time-slices.ts): no step of it holds the
// event loop for long, whatever the bundle.
import { formatBytes, MAX_FILE_BYTES } from '../http/body-limits.js';
import { httpError, unprocessable, type FieldErrors } from '../http/errors.js';
import type { WorldStore } from '../world.js';
import type { BundleContract } from './bundle-contract.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, SEED_SCHEME, type WorkspaceBundle } from './bundle-format.js';
import { bundleFrame, bundleItems, RECORD_KINDS } from './bundle-parts.js';
import { BUNDLE_COLLECTIONS, KEPT_COLLECTIONS } from './bundle-records.js';
import type { TimeSlices } from './time-slices.js';
import { uploadProblems } from './bundle-uploads.js';
import { MAX_DEPTH } from '../observe/redact.js';
import { passesRecordQuota } from '../store/quota-exceeded.js';

/** Problems named in one refusal; a bundle broken everywhere is refused with the first of them. */
export const MAX_PROBLEMS = 20;

/** What the loading sandbox expects of a bundle. */
export interface BundleExpectations {
  /** The contract of the loading sandbox (its runtime's): identity, operations, compiled checks. */
  contract: BundleContract;
  /** The seed of the world it loads into (a workspace's is the server's). */
  seed: number;
  /** The seeded base of that seed: changed and deleted records must be in it, added ones must not. */
  base: WorldStore;
  /** Records the world may add (a workspace's WORKSPACE_MAX_RECORDS); none for the default world. */
  maxAddedRecords?: number;
  /** Bytes its uploads may hold (a workspace's WORKSPACE_MAX_UPLOAD_MB). */
  maxUploadBytes?: number;
  /** Journal entries the world keeps (JOURNAL_SIZE). */
  journalSize: number;
}

/**
 * How deep any value of a bundle may nest: a journaled body is cut at the journal's depth (observe/redact.ts), and
 * sits 4 levels down (journal, entry, request, body); records nest less. Deeper values would make an export's
 * JSON.stringify overflow the stack.
 */
export const BUNDLE_MAX_DEPTH = MAX_DEPTH + 8;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Collects problems up to MAX_PROBLEMS, by field path. */
class Problems {
  readonly errors: FieldErrors = {};
  count = 0;
  add(path: string, message: string): void {
    if (this.count >= MAX_PROBLEMS) return;
    (this.errors[path] ??= []).push(message);
    this.count++;
  }
  get full(): boolean {
    return this.count >= MAX_PROBLEMS;
  }
  refuseIfAny(message: string): void {
    if (this.count > 0) unprocessable(this.errors, message);
  }
}

/**
 * Checks a bundle, in `slices`; answers it typed when it can be loaded whole, else rejects with the HttpError that
 * says why.
 */
export async function checkBundle(value: unknown, expect: BundleExpectations, slices: TimeSlices): Promise<WorkspaceBundle> {
  checkIdentity(value, expect.contract);
  checkCounts(value as Obj, expect);
  // What the checks below run, compiled before they run (once per process), a schema per slice.
  await expect.contract.prepare(() => slices.yield());
  await checkDepth(value, slices);
  const bundle = await checkShape(value as Obj, expect.contract, slices);
  if (bundle.seed !== expect.seed) {
    unprocessable(
      {
        seed: [
          `The bundle's world was seeded with seed ${bundle.seed}; this sandbox's worlds are seeded with ${expect.seed}. Start a sandbox with --seed ${bundle.seed}, or load the file with --load.`,
        ],
      },
      'The bundle was seeded with another seed; nothing was loaded.',
    );
  }
  await checkRecords(bundle, expect, slices);
  await checkUploads(bundle, expect, slices);
  checkCoverage(bundle, expect.contract);
  return bundle;
}

/** The format, its version, the contract and the seed scheme: each refused on its own, before the shape is read. */
function checkIdentity(value: unknown, contract: BundleContract): void {
  if (!isObj(value)) unprocessable({ body: ['The bundle must be a JSON object.'] }, 'The bundle is not a workspace bundle; nothing was loaded.');
  if (value.format !== BUNDLE_FORMAT) {
    unprocessable({ format: [`The format field must be ${BUNDLE_FORMAT}.`] }, 'The body is not a workspace bundle; nothing was loaded.');
  }
  if (value.format_version !== BUNDLE_FORMAT_VERSION) {
    unprocessable(
      {
        format_version: [`The bundle format version ${JSON.stringify(value.format_version)} is unknown; this sandbox reads version ${BUNDLE_FORMAT_VERSION}.`],
      },
      "The bundle's format version is unknown; nothing was loaded.",
    );
  }
  const ours = contract.identity;
  const theirs = isObj(value.contract) ? value.contract.sha256 : undefined;
  if (theirs !== ours.sha256) {
    unprocessable(
      {
        'contract.sha256': [
          `The bundle was exported against openapi.yaml with SHA-256 ${String(theirs)}; this sandbox serves ${ours.sha256} (version ${ours.version}). Load it with the sandbox version that exported it.`,
        ],
      },
      'The bundle was exported against another contract; nothing was loaded.',
    );
  }
  if (value.seed_scheme !== SEED_SCHEME) {
    unprocessable(
      { seed_scheme: [`The bundle was seeded by seed scheme ${String(value.seed_scheme)}; this sandbox seeds with ${SEED_SCHEME}.`] },
      'The bundle was seeded by another seed scheme; nothing was loaded.',
    );
  }
}

const lengthOf = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/**
 * What the bundle holds, counted before any record is read: collections this sandbox loads, records added within
 * the record quota, no more changed or deleted than the seeded collection holds, journal entries within
 * JOURNAL_SIZE, each operation's coverage at most once, uploads within the upload quota.
 */
function checkCounts(value: Obj, expect: BundleExpectations): void {
  const problems = new Problems();
  let added = 0;
  const changes = isObj(value.changes) ? value.changes : {};
  const base = expect.base.collections as unknown as Record<string, { size: number }>;
  for (const [name, collection] of Object.entries(changes)) {
    if (!BUNDLE_COLLECTIONS.has(name)) {
      problems.add(`changes.${name}`, `The bundle names a collection ${name} this sandbox does not load.`);
      continue;
    }
    if (!isObj(collection)) continue;
    added += lengthOf(collection.added);
    const seeded = base[name]!.size;
    for (const kind of ['changed', 'deleted'] as const) {
      const count = lengthOf(collection[kind]);
      if (count > seeded) problems.add(`changes.${name}.${kind}`, `The bundle lists ${count} ${name} as ${kind}; the seeded world holds ${seeded}.`);
    }
  }
  const journal = lengthOf(value.journal);
  if (journal > expect.journalSize) {
    problems.add('journal', `The bundle carries ${journal} journal entries; this sandbox keeps ${expect.journalSize} per world (JOURNAL_SIZE).`);
  }
  const operations = lengthOf(isObj(value.coverage) ? value.coverage.operations : undefined);
  if (operations > expect.contract.operationIds.size) {
    problems.add('coverage.operations', `The bundle's coverage lists ${operations} operations; the contract has ${expect.contract.operationIds.size}.`);
  }
  problems.refuseIfAny('The bundle holds more than a world can; nothing was loaded.');
  if (expect.maxAddedRecords !== undefined && passesRecordQuota(0, added, expect.maxAddedRecords)) {
    const message = `The bundle adds ${added} records, more than the ${expect.maxAddedRecords} a workspace may add (WORKSPACE_MAX_RECORDS); nothing was loaded.`;
    unprocessable({ quota: [message] }, message);
  }
}

/** Values walked between two looks at the slice's time. */
const NODES_PER_LOOK = 4096;

/** No value of the bundle nests deeper than BUNDLE_MAX_DEPTH (walked without recursion, so any depth is safe to walk). */
async function checkDepth(value: unknown, slices: TimeSlices): Promise<void> {
  const stack: [unknown, number][] = [[value, 1]];
  let walked = 0;
  while (stack.length > 0) {
    if (++walked % NODES_PER_LOOK === 0) await slices.pause();
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > BUNDLE_MAX_DEPTH) {
      unprocessable(
        { body: [`A value of the bundle nests deeper than ${BUNDLE_MAX_DEPTH} levels.`] },
        `The bundle nests deeper than ${BUNDLE_MAX_DEPTH} levels; nothing was loaded.`,
      );
    }
    for (const inner of Array.isArray(item) ? item : Object.values(item)) if (typeof inner === 'object' && inner !== null) stack.push([inner, depth + 1]);
  }
}

/**
 * The bundle against the contract's SandboxWorkspaceBundle (a loaded file meets no request validator), part by part:
 * its frame, then each record, file and journal entry (src/sandbox/bundle-parts.ts).
 */
async function checkShape(value: Obj, contract: BundleContract, slices: TimeSlices): Promise<WorkspaceBundle> {
  const problems = new Problems();
  const add = (path: string, message: string) => problems.add(path, message);
  contract.parts.conforms('frame', bundleFrame(value), '', add);
  for (const { part, item, at } of bundleItems(value)) {
    if (problems.full) break;
    contract.parts.conforms(part, item, at, add);
    await slices.pause();
  }
  problems.refuseIfAny("The bundle's shape breaks the contract; nothing was loaded.");
  return value as WorkspaceBundle;
}

/** Each record against its collection's schema and the seeded base; the record quota. */
async function checkRecords(bundle: WorkspaceBundle, expect: BundleExpectations, slices: TimeSlices): Promise<void> {
  const problems = new Problems();
  const checks = expect.contract.checks.recordChecks();
  for (const [name, changes] of Object.entries(bundle.changes)) {
    const check = checks.get(name)!;
    const base = (expect.base.collections as unknown as Record<string, { has(id: string): boolean }>)[name]!;
    const seen = new Set<string>();
    for (const kind of RECORD_KINDS) {
      await slices.each(changes[kind], (record, i) => {
        if (problems.full) return;
        const at = `changes.${name}.${kind}.${i}`;
        for (const [field, messages] of Object.entries(check(record))) for (const m of messages) problems.add(`${at}.${field}`, m);
        if (seen.has(record.id)) problems.add(`${at}.id`, `${name} ${record.id} appears twice in the bundle.`);
        seen.add(record.id);
        if (kind === 'added' && base.has(record.id))
          problems.add(`${at}.id`, `${name} ${record.id} is a seeded record; the bundle must list it as changed, not added.`);
        if (kind === 'changed' && !base.has(record.id)) problems.add(`${at}.id`, `${name} ${record.id} is no seeded record; the bundle must list it as added.`);
      });
    }
    changes.deleted.forEach((id, i) => {
      if (KEPT_COLLECTIONS.has(name))
        problems.add(`changes.${name}.deleted.${i}`, `${name} ${id}: no request deletes ${name}, so a bundle deletes none either.`);
      else if (!base.has(id)) problems.add(`changes.${name}.deleted.${i}`, `${name} ${id} is no seeded record, so it cannot be deleted.`);
      else if (seen.has(id)) problems.add(`changes.${name}.deleted.${i}`, `${name} ${id} is both deleted and kept by the bundle.`);
    });
  }
  problems.refuseIfAny('A record of the bundle breaks the contract; nothing was loaded.');
}

/** Upload keys and their bytes: valid base64, within the upload quota, each file one the upload path would keep. */
async function checkUploads(bundle: WorkspaceBundle, expect: BundleExpectations, slices: TimeSlices): Promise<void> {
  const problems = new Problems();
  let bytes = 0;
  const keys = new Set<string>();
  await slices.each(bundle.uploads, (upload, i) => {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(upload.base64) || upload.base64.length % 4 !== 0)
      problems.add(`uploads.${i}.base64`, 'The base64 field must be base64.');
    if (keys.has(upload.key)) problems.add(`uploads.${i}.key`, `The file ${upload.key} appears twice in the bundle.`);
    keys.add(upload.key);
    bytes += Buffer.byteLength(upload.base64, 'base64');
  });
  problems.refuseIfAny('An upload of the bundle is malformed; nothing was loaded.');
  if (expect.maxUploadBytes !== undefined && bytes > expect.maxUploadBytes) {
    httpError(
      413,
      `The bundle's uploads hold ${bytes} bytes, past the workspace's upload quota of ${formatBytes(expect.maxUploadBytes)} (WORKSPACE_MAX_UPLOAD_MB); nothing was loaded.`,
    );
  }
  uploadProblems(bundle, (path, message) => problems.add(path, message));
  problems.refuseIfAny(
    `A file of the bundle is not one the upload path would keep (a png, jpeg, gif or webp image of at most ${formatBytes(MAX_FILE_BYTES)}); nothing was loaded.`,
  );
}

/**
 * Coverage names operations of this contract, each once; `answered` holds statuses the operation documents and
 * `undocumented` statuses it does not, as the coverage report sorts them.
 */
function checkCoverage(bundle: WorkspaceBundle, contract: BundleContract): void {
  const problems = new Problems();
  const seen = new Set<string>();
  bundle.coverage.operations.forEach((op, i) => {
    const at = `coverage.operations.${i}`;
    const documented = contract.documented.get(op.operation_id);
    if (!documented) {
      problems.add(`${at}.operation_id`, `The contract has no operation ${op.operation_id}.`);
      return;
    }
    if (seen.has(op.operation_id)) problems.add(`${at}.operation_id`, `The coverage lists ${op.operation_id} twice.`);
    seen.add(op.operation_id);
    for (const status of op.answered) {
      if (!documented.has(status)) problems.add(`${at}.answered`, `${op.operation_id} does not document ${status}; an answer of it is listed as undocumented.`);
    }
    for (const status of op.undocumented) {
      if (documented.has(status)) problems.add(`${at}.undocumented`, `${op.operation_id} documents ${status}; an answer of it is listed as answered.`);
    }
  });
  problems.refuseIfAny("The bundle's coverage does not match the contract's operations; nothing was loaded.");
}
