// `npm run build` and `npm start` run this (from dist/) after transpiling (src/build/transpile.mjs): it writes
// dist/openapi.json, the parsed contract the server reads at start when it still matches openapi.yaml, and
// dist/validator-spec.json, the validator's spec prepared from it with the sandbox's options. Without those files,
// or with ones made from another openapi.yaml, the server parses the YAML and the validator prepares it itself.
import { readFileSync } from 'node:fs';
import { prepareSpec } from 'express-openapi-validator';
import { VALIDATOR_OPTIONS } from '../compiled-contract.js';
import { writeContractJson } from '../contract/document/contract-json.js';
import { parseYaml } from '../contract/document/load-contract.js';
import { writeValidatorSpecJson } from '../contract/document/validator-spec-json.js';
import { contractPath } from '../paths.js';

const text = readFileSync(contractPath, 'utf8');
const doc = parseYaml(text);
writeContractJson(text, doc);
writeValidatorSpecJson(text, JSON.stringify(VALIDATOR_OPTIONS), await prepareSpec({ apiSpec: doc as never, ...VALIDATOR_OPTIONS }));
