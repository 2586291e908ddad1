// The contract's parsed JSON copy in dist/contract (src/contract/load-contract.ts reads it first), so a start never
// parses openapi.yaml: run by `npm run build` (the package ships it) and by `prepare`, which npm runs after
// `npm ci` in a checkout, so a fresh clone's first `npm start` has it too. It reads the TypeScript source through
// tsx, so it needs no build.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { writeShippedCopy } = await tsImport('../contract/load-contract.ts', import.meta.url);
process.stdout.write(`parsed contract copy: ${relative(root, writeShippedCopy())}\n`);
