// npm run build, third step: the contract's parsed JSON copy in dist/contract, shipped in the package so an
// installed sandbox never parses openapi.yaml at start-up (src/contract/load-contract.ts reads it).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { writeShippedCopy } = await import(new URL('../../dist/src/contract/load-contract.js', import.meta.url).href);
process.stdout.write(`parsed contract copy: ${relative(root, writeShippedCopy())}\n`);
