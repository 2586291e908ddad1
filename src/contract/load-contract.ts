import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { contractPath, projectRoot } from '../paths.js';
import { writeFileWhole } from '../write-whole.js';

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
  secured: boolean;
  /** The operation object itself (responses with their examples), for readers that need more. */
  operation: { responses?: Record<string, unknown>; [key: string]: unknown };
}

let cached: { text: string; doc: ContractDocument } | undefined;

/** openapi.yaml as text and as a parsed object, read once per process. Never mutate the returned document. */
export function loadContract(): { text: string; doc: ContractDocument } {
  if (!cached) {
    const text = readFileSync(contractPath, 'utf8');
    cached = { text, doc: parseCached(text) };
  }
  return cached;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of a contract with its documented statuses, for the handler check, coverage and knobs. */
export function listOperations(doc: ContractDocument): ContractOperation[] {
  const globalSecured = Array.isArray(doc.security) && doc.security.length > 0;
  const out: ContractOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; tags?: string[]; responses?: Record<string, unknown>; security?: unknown[] } | undefined;
      if (!op?.operationId) continue;
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        tags: op.tags ?? [],
        statuses: Object.keys(op.responses ?? {})
          .filter((s) => /^\d{3}$/.test(s))
          .map(Number)
          .sort((a, b) => a - b),
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

// Parsing the YAML takes ten times as long as parsing the same document as JSON or more (45 to 80 ms cold, against 5).
// A JSON copy is named by the YAML's hash, so an edited contract can never be served from a stale copy. The build
// (which `npm pack` runs) ships one in dist/contract, and `prepare` makes one in a checkout, so only a start after
// an edit of openapi.yaml parses the YAML; that start makes its own copy under node_modules/.cache.
const SHIPPED_DIR = join(projectRoot, 'dist', 'contract');
const CACHE_DIR = join(projectRoot, 'node_modules', '.cache', 'commerce-operations-sandbox');

/** How long after a start that parsed the YAML its copy is written: longer than a start takes. */
const COPY_AFTER_MS = 1000;

/** Where parseCached looks for a copy and writes its own, and when it writes it (tests pass their own). */
export interface CopyPlaces {
  /** Folders read in order; the last is where a start that parsed the YAML writes its copy. */
  dirs: string[];
  /** Runs the write later. */
  later: (write: () => void) => void;
}

const copyPlaces: CopyPlaces = {
  dirs: [SHIPPED_DIR, CACHE_DIR],
  // Once the start is over, off the way to its first answer; the timer does not keep the process alive.
  later: (write) => void setTimeout(write, COPY_AFTER_MS).unref(),
};

/** The copy of `text` in each folder, named by its hash. */
const copyFiles = (dirs: string[], text: string) => {
  const name = `openapi-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`;
  return dirs.map((dir) => join(dir, name));
};

/** The places a parsed copy of the contract may be, the first holding one wins (the benchmark clears them). */
export function parsedCopyPaths(text: string = readFileSync(contractPath, 'utf8')): string[] {
  return copyFiles(copyPlaces.dirs, text);
}

/** Writes the parsed copy the package ships (npm run build), alone in its folder; answers its path. */
export function writeShippedCopy(): string {
  const text = readFileSync(contractPath, 'utf8');
  const [file] = copyFiles([SHIPPED_DIR], text);
  mkdirSync(SHIPPED_DIR, { recursive: true });
  for (const old of readdirSync(SHIPPED_DIR)) rmSync(join(SHIPPED_DIR, old), { force: true });
  writeFileWhole(file!, JSON.stringify(parseYaml(text)));
  return file!;
}

/** The document of `text`: from its parsed copy when there is one; otherwise parsed, and its copy written later. */
export function parseCached(text: string, places: CopyPlaces = copyPlaces): ContractDocument {
  const files = copyFiles(places.dirs, text);
  for (const file of files) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ContractDocument;
    } catch {
      // Not there (or not readable): try the next, then parse the YAML.
    }
  }
  const doc = parseYaml(text);
  // A process that stops before then leaves no copy, and the next start parses again.
  places.later(() => writeCopy(files.at(-1)!, doc));
  return doc;
}

/** Runs on a timer, where a throw would stop the server: a copy that cannot be written is skipped. */
function writeCopy(file: string, doc: ContractDocument): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileWhole(file, JSON.stringify(doc));
  } catch {
    // A read-only install (a container running as another user) just parses the YAML every time.
  }
}

/**
 * js-yaml with YAML 1.2's core schema (what `yaml`, which serves /openapi.yaml, reads by default: no timestamps or
 * other 1.1 types) parses the contract in about a fourth of `yaml`'s time cold (52 to 75 ms against 233 to 266),
 * which is most of what a start without the copy adds.
 */
export function parseYaml(text: string): ContractDocument {
  // A plain import: express-openapi-validator loads js-yaml on every start anyway (json-schema-ref-parser's YAML
  // parser), so there is nothing to gain by loading it only on a miss.
  return load(text, { schema: CORE_SCHEMA }) as ContractDocument;
}
