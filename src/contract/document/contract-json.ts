// The parsed contract as JSON, made by the build next to dist/src: JSON.parse reads it at start instead of parsing
// openapi.yaml. It names the SHA-256 of the YAML text it came from, so an edited openapi.yaml (a checkout, a copy,
// a clock that lies) is never answered from a stale copy: a digest that differs means the YAML is parsed again.
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { projectRoot } from '../../paths.js';

export const contractJsonPath = join(projectRoot, 'dist', 'openapi.json');

interface ContractJson {
  yamlSha256: string;
  document: unknown;
}

export const digestOfYaml = (text: string): string => hash('sha256', text, 'hex');

/**
 * JSON.stringify with every character outside ASCII escaped (`\u2014`), which JSON.parse reads back as the same
 * value: a file of ASCII alone is decoded and parsed as one-byte text, a few non-ASCII characters (a dash in a
 * description) would make V8 decode and parse the whole file as two-byte text, slower and twice the memory.
 */
export const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The document the build derived from exactly this YAML text, or undefined (no build, another text, unreadable).
 * `digest` is the text's (digestOfYaml), when the caller has it already.
 */
export function readContractJson(yamlText: string, path = contractJsonPath, digest = digestOfYaml(yamlText)): unknown {
  let stored: ContractJson;
  try {
    stored = JSON.parse(readFileSync(path, 'utf8')) as ContractJson;
  } catch {
    return undefined;
  }
  return stored?.yamlSha256 === digest ? stored.document : undefined;
}

/**
 * Writes the JSON copy of a parsed document. A document JSON cannot carry as it is (a YAML value such as .inf)
 * is refused, so the copy never reads differently from the YAML it names.
 */
export function writeContractJson(yamlText: string, document: unknown, path = contractJsonPath): void {
  const json = asciiJson({ yamlSha256: digestOfYaml(yamlText), document } satisfies ContractJson);
  if (!isDeepStrictEqual((JSON.parse(json) as ContractJson).document, document)) {
    throw new Error(`the parsed contract does not survive JSON unchanged; ${path} not written`);
  }
  writeFileSync(path, json);
}
