// A reference row of the start-up section of `npm run bench` (bench/startup.ts), no floor of the built server (which
// loads these bundled and hands the validator a spec prepared at build time, docs/benchmark.md): express and express-openapi-validator, with the compile cache on as the bin
// has it, given the built contract (dist/openapi.json, the first argument) and the options the sandbox uses (their
// JSON, the second: VALIDATOR_OPTIONS of src/pipeline/contract-validator.ts), answering GET /2024-09/users/current
// with its contract example, the request and the answer both validated. Nothing else of the sandbox runs: no world,
// no seeding, no journal, no other step.
import module from 'node:module';

module.enableCompileCache?.();

const { default: express } = await import('express');
const OpenApiValidator = await import('express-openapi-validator');
const { readFileSync } = await import('node:fs');

const doc = JSON.parse(readFileSync(process.argv[2], 'utf8')).document;
const path = '/2024-09/users/current';
const example = doc.paths[path].get.responses['200'].content['application/json'].example;

const app = express();
app.use(OpenApiValidator.middleware({ apiSpec: doc, ...JSON.parse(process.argv[3]) }));
app.get(path, (_req, res) => res.json(example));
// A refusal is not a 200: the prober then keeps waiting, and the run shows the case never answered.
app.use((error, _req, res, _next) => res.status(500).json({ message: error.message }));
app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
