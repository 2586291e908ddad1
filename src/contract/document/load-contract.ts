import { readFileSync } from 'node:fs';
import { contractPath } from '../../paths.js';
import type { PreparedSpec } from 'express-openapi-validator/dist/framework/types.js';
import { digestOfYaml, readContractJson } from './contract-json.js';
import { jsYaml } from './js-yaml.js';
import { readValidatorSpecJson } from './validator-spec-json.js';

/** The parts of an OpenAPI document the sandbox reads itself (the validator reads the rest). */
export interface ContractDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** One operation of the contract, as the handler check, coverage and the Prefer knobs read it. */
export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  /** The documented status codes, ascending. */
  statuses: number[];
  /** Documented statuses whose response says `x-sandbox-client-causable: false` (no client request brings them about). */
  notClientCausable: number[];
  secured: boolean;
  /** The operation object itself (responses with their examples), for readers that need more. */
  operation: { responses?: Record<string, unknown>; [key: string]: unknown };
}

/** openapi.yaml as it was read: its text and the document parsed from it. */
export interface LoadedContract {
  text: string;
  doc: ContractDocument;
  /**
   * When the document is the build's copy: the validator's spec the build prepared from it with these options (their
   * JSON), read anew on each call, or undefined (src/contract/document/validator-spec-json.ts).
   */
  preparedSpec?: (options: string) => PreparedSpec | undefined;
}

/**
 * openapi.yaml as text and as a parsed object, read on every call: whoever starts a sandbox reads it once and gives
 * the document to createRuntime, so nothing below the top holds a contract of its own. Never mutate the returned
 * document. The build's JSON copy is used when it was made from this very text (with the validator's spec the build
 * prepared from it); otherwise the YAML is parsed.
 */
export function loadContract(): LoadedContract {
  const text = readFileSync(contractPath, 'utf8');
  // Both build files name the text they were made from by its SHA-256: hashed once for both.
  const digest = digestOfYaml(text);
  const built = readContractJson(text, undefined, digest) as ContractDocument | undefined;
  if (!built) return { text, doc: parseYaml(text) };
  return { text, doc: built, preparedSpec: (options) => readValidatorSpecJson(text, options, undefined, digest) };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Every operation of a contract with its documented statuses, for the handler check, coverage and knobs. The list
 * is a function of the document alone, which nobody mutates (loadContract), and a start asks for it from a dozen
 * places (each step of the pipeline that keys on operations): it is made once per document object and the same list
 * is answered after that, so none of it may be changed.
 */
export function listOperations(doc: ContractDocument): readonly ContractOperation[] {
  let listed = operationLists.get(doc);
  if (listed === undefined) operationLists.set(doc, (listed = Object.freeze(operationsOf(doc))));
  return listed;
}

// Keyed by the document object, so a list lives exactly as long as its document.
const operationLists = new WeakMap<ContractDocument, readonly ContractOperation[]>();

function operationsOf(doc: ContractDocument): ContractOperation[] {
  const globalSecured = Array.isArray(doc.security) && doc.security.length > 0;
  const out: ContractOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; tags?: string[]; responses?: Record<string, unknown>; security?: unknown[] } | undefined;
      if (!op?.operationId) continue;
      const statuses = Object.keys(op.responses ?? {})
        .filter((s) => /^\d{3}$/.test(s))
        .map(Number)
        .sort((a, b) => a - b);
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        tags: op.tags ?? [],
        statuses,
        notClientCausable: statuses.filter((s) => (deref(doc, op.responses?.[s]) as Obj | undefined)?.['x-sandbox-client-causable'] === false),
        secured: op.security ? op.security.length > 0 : globalSecured,
        operation: op,
      });
    }
  }
  return out;
}

type Obj = Record<string, unknown>;
/** A plain object of the parsed document (not an array, not null). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `$ref`s (`#/components/...`) to the object they point at; anything else is returned as it is. */
export function deref(doc: ContractDocument, value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string' && hops < 8; hops++) {
    const path = current.$ref.replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((node, key) => (isObj(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  }
  return current;
}

/**
 * js-yaml with YAML 1.2's core schema: no timestamps or other YAML 1.1 types, so a date in an example stays the
 * string the contract writes. The one YAML library of the sandbox (it also serves /openapi.yaml).
 */
export function parseYaml(text: string): ContractDocument {
  const { load, CORE_SCHEMA } = jsYaml();
  return load(text, { schema: CORE_SCHEMA }) as ContractDocument;
}
