// `npm run build` runs this (from dist/) after transpiling: it writes dist/openapi.json, the parsed contract the
// server reads at start when it still matches openapi.yaml. `npm start` does not run it: without that file, or with
// one made from another openapi.yaml, the server parses the YAML itself, which costs a start less than a separate
// Node process that writes the file first.
import { readFileSync } from 'node:fs';
import { writeContractJson } from '../contract/document/contract-json.js';
import { parseYaml } from '../contract/document/load-contract.js';
import { contractPath } from '../paths.js';

const text = readFileSync(contractPath, 'utf8');
writeContractJson(text, parseYaml(text));
