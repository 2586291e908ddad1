// js-yaml, the contract's YAML reader and writer, is loaded on first use: a start that reads the build's JSON copy
// of the contract (src/contract/document/contract-json.ts) and serves no YAML never needs it.
import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';

/** js-yaml's module, loaded by the first call. */
export const jsYaml = (): typeof JsYaml => createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
