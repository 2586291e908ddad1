// The contract's SandboxWorkspaceBundle in parts: its frame (the bundle with its long arrays left empty), and the
// schema of one item of each long array (a record, an uploaded file, a journal entry). A bundle checked part by
// part is checked against the whole schema, yet each step is one item, so the work can pause between items: a load
// checks its body this way, and an export checks each piece it streams against the part it is.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ContractChecks } from './bundle-records.js';
import { fieldProblems } from './bundle-records.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const BUNDLE = 'contract.json#/components/schemas/SandboxWorkspaceBundle';

/** Each part's schema, as a reference into the contract. */
const PART_REFS = {
  frame: BUNDLE,
  // What SandboxBundleCollectionChanges' `added` and `changed` hold.
  record: 'contract.json#/components/schemas/SandboxBundleRecord',
  upload: `${BUNDLE}/properties/uploads/items`,
  journalEntry: `${BUNDLE}/properties/journal/items`,
} as const;

export type BundlePart = keyof typeof PART_REFS;

/** The kinds of a collection's changes that hold whole records (`deleted` holds ids, and stays in the frame). */
export const RECORD_KINDS = ['added', 'changed'] as const;

/** Problems of one part, by field path of the whole bundle (`journal.3.status`), handed to `add`. */
export type AddProblem = (path: string, message: string) => void;

/** The compiled parts of one contract's bundle schema. */
export class BundleParts {
  private readonly compiled = new Map<BundlePart, ValidateFunction>();

  constructor(private readonly checks: ContractChecks) {}

  /** Compiles every part not compiled yet, `between` awaited after each. */
  async prepare(between: () => Promise<void>): Promise<void> {
    for (const part of Object.keys(PART_REFS) as BundlePart[]) {
      if (this.compiled.has(part)) continue;
      this.check(part);
      await between();
    }
  }

  /** True when `value` is a valid `part`; else its problems go to `add`, at `at` (the part's place in the bundle, as a JSON pointer). */
  conforms(part: BundlePart, value: unknown, at: string, add: AddProblem): boolean {
    const check = this.check(part);
    if (check(value)) return true;
    const errors = (check.errors ?? []).map((error): ErrorObject => ({ ...error, instancePath: at + error.instancePath }));
    for (const [path, messages] of Object.entries(fieldProblems(errors, 'body'))) for (const message of messages) add(path, message);
    return false;
  }

  private check(part: BundlePart): ValidateFunction {
    let check = this.compiled.get(part);
    if (!check) this.compiled.set(part, (check = this.checks.compile({ $ref: PART_REFS[part] })));
    return check;
  }
}

/**
 * The bundle's frame: the bundle as it is, but for its records, uploads and journal entries (each array left empty,
 * so that its items are checked one by one as parts). A value that is not what the schema says stays as it is, for
 * the frame's check to name.
 */
export function bundleFrame(value: Obj): Obj {
  const frame: Obj = { ...value };
  if (Array.isArray(value.uploads)) frame.uploads = [];
  if (Array.isArray(value.journal)) frame.journal = [];
  if (isObj(value.changes)) {
    frame.changes = Object.fromEntries(
      Object.entries(value.changes).map(([name, changes]) => {
        if (!isObj(changes)) return [name, changes];
        const emptied: Obj = { ...changes };
        for (const kind of RECORD_KINDS) if (Array.isArray(changes[kind])) emptied[kind] = [];
        return [name, emptied];
      }),
    );
  }
  return frame;
}

/** Each item of the bundle's long arrays, with the part it is and its place in the bundle (a JSON pointer). */
export function* bundleItems(value: Obj): Generator<{ part: BundlePart; item: unknown; at: string }> {
  if (isObj(value.changes)) {
    for (const [name, changes] of Object.entries(value.changes)) {
      if (!isObj(changes)) continue;
      for (const kind of RECORD_KINDS) {
        const records = changes[kind];
        if (Array.isArray(records)) for (const [i, item] of records.entries()) yield { part: 'record', item, at: `/changes/${pointerKey(name)}/${kind}/${i}` };
      }
    }
  }
  if (Array.isArray(value.uploads)) for (const [i, item] of value.uploads.entries()) yield { part: 'upload', item, at: `/uploads/${i}` };
  if (Array.isArray(value.journal)) for (const [i, item] of value.journal.entries()) yield { part: 'journalEntry', item, at: `/journal/${i}` };
}

/** A key as a JSON pointer spells it. */
const pointerKey = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The bundle `frame` (as bundleFrame made it, then as the request's checks left it) with the items of `original`
 * put back: what the frame kept of each collection, file list and journal holds the original's items again.
 */
export function withItems(frame: unknown, original: Obj): unknown {
  if (!isObj(frame)) return frame;
  const out: Obj = { ...frame };
  for (const list of ['uploads', 'journal'] as const) if (Array.isArray(out[list]) && Array.isArray(original[list])) out[list] = original[list];
  const changes = original.changes;
  if (isObj(out.changes) && isObj(changes)) {
    out.changes = Object.fromEntries(
      Object.entries(out.changes).map(([name, kept]) => {
        const given = changes[name];
        if (!isObj(kept) || !isObj(given)) return [name, kept];
        const refilled: Obj = { ...kept };
        for (const kind of RECORD_KINDS) if (Array.isArray(kept[kind]) && Array.isArray(given[kind])) refilled[kind] = given[kind];
        return [name, refilled];
      }),
    );
  }
  return out;
}
