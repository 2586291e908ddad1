// `npm run build` and `npm start` run this (from dist/) after transpiling (src/build/transpile.mjs): it writes
// dist/openapi.json, the parsed contract the server reads at start when it still matches openapi.yaml. Without that
// file, or with one made from another openapi.yaml, the server parses the YAML itself.
import { readFileSync } from 'node:fs';
import { writeContractJson } from '../contract/document/contract-json.js';
import { parseYaml } from '../contract/document/load-contract.js';
import { contractPath } from '../paths.js';

const text = readFileSync(contractPath, 'utf8');
writeContractJson(text, parseYaml(text));
