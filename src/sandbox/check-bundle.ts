// Whether a workspace bundle can be loaded whole, checked before anything of it is loaded: what it is (format,
// version, contract, seed scheme, seed), its shape, then each record against its schema and against the seeded
// base. Each refusal is a 422 (413 for uploads past the quota) naming what is wrong, at most MAX_PROBLEMS of them.
import { formatBytes, MAX_FILE_BYTES } from '../http/body-limits.js';
import { httpError, unprocessable, type FieldErrors } from '../http/errors.js';
import type { WorldStore } from '../world.js';
import type { BundleContract } from './bundle-contract.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, SEED_SCHEME, type WorkspaceBundle } from './bundle-format.js';
import { BUNDLE_COLLECTIONS, fieldProblems } from './bundle-records.js';
import { uploadProblems } from './bundle-uploads.js';

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
}

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

/** Checks a bundle; answers it typed when it can be loaded whole, else throws the HttpError that says why. */
export function checkBundle(value: unknown, expect: BundleExpectations): WorkspaceBundle {
  checkIdentity(value, expect.contract);
  const bundle = checkShape(value, expect.contract);
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
  checkRecords(bundle, expect);
  checkUploads(bundle, expect);
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

/** The bundle against the contract's SandboxWorkspaceBundle (a loaded file meets no request validator). */
function checkShape(value: unknown, contract: BundleContract): WorkspaceBundle {
  const shapeCheck = contract.shapeCheck();
  if (shapeCheck(value)) return value as WorkspaceBundle;
  const problems = new Problems();
  for (const [path, messages] of Object.entries(fieldProblems(shapeCheck.errors ?? [], 'body'))) for (const m of messages) problems.add(path, m);
  problems.refuseIfAny("The bundle's shape breaks the contract; nothing was loaded.");
  return value as WorkspaceBundle;
}

/** Each record against its collection's schema and the seeded base; the record quota. */
function checkRecords(bundle: WorkspaceBundle, expect: BundleExpectations): void {
  const problems = new Problems();
  const checks = expect.contract.checks.recordChecks();
  let added = 0;
  for (const [name, changes] of Object.entries(bundle.changes)) {
    if (!BUNDLE_COLLECTIONS.has(name)) {
      problems.add(`changes.${name}`, `The bundle names a collection ${name} this sandbox does not load.`);
      continue;
    }
    const check = checks.get(name)!;
    const base = (expect.base.collections as unknown as Record<string, { has(id: string): boolean }>)[name]!;
    const seen = new Set<string>();
    for (const kind of ['added', 'changed'] as const) {
      changes[kind].forEach((record, i) => {
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
    added += changes.added.length;
    changes.deleted.forEach((id, i) => {
      if (!base.has(id)) problems.add(`changes.${name}.deleted.${i}`, `${name} ${id} is no seeded record, so it cannot be deleted.`);
      else if (seen.has(id)) problems.add(`changes.${name}.deleted.${i}`, `${name} ${id} is both deleted and kept by the bundle.`);
    });
  }
  problems.refuseIfAny('A record of the bundle breaks the contract; nothing was loaded.');
  if (expect.maxAddedRecords !== undefined && added > expect.maxAddedRecords) {
    const message = `The bundle adds ${added} records, more than the ${expect.maxAddedRecords} a workspace may add (WORKSPACE_MAX_RECORDS); nothing was loaded.`;
    unprocessable({ quota: [message] }, message);
  }
}

/** Upload keys and their bytes: valid base64, within the upload quota, each file one the upload path would keep. */
function checkUploads(bundle: WorkspaceBundle, expect: BundleExpectations): void {
  const problems = new Problems();
  let bytes = 0;
  const keys = new Set<string>();
  bundle.uploads.forEach((upload, i) => {
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

/** Coverage names operations of this contract, and statuses. */
function checkCoverage(bundle: WorkspaceBundle, contract: BundleContract): void {
  const problems = new Problems();
  const { operationIds } = contract;
  bundle.coverage.operations.forEach((op, i) => {
    if (!operationIds.has(op.operation_id)) problems.add(`coverage.operations.${i}.operation_id`, `The contract has no operation ${op.operation_id}.`);
  });
  problems.refuseIfAny("The bundle's coverage names an operation the contract does not have; nothing was loaded.");
}
