// Test helper: compiles a component schema of the contract (openapi.yaml, plus this area's fragment while it is
// not merged yet) so pure outputs and seed records can be checked against what the validator will enforce.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
// ajv ships CommonJS; the 2020 draft matches OpenAPI 3.1's type arrays.
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats');

interface Doc {
  components: { schemas: Record<string, unknown> };
}

function loadComponents(): Doc['components'] {
  const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Doc;
  const fragment = new URL('../../contract-parts/products-sourcing.yaml', import.meta.url);
  if (existsSync(fragment)) {
    const part = parse(readFileSync(fragment, 'utf8')) as Doc;
    for (const [name, schema] of Object.entries(part.components.schemas)) doc.components.schemas[name] ??= schema;
  }
  return doc.components;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'contract', components: loadComponents() });

/** Validates `value` against components.schemas[name]; returns ajv's errors (empty when valid). */
export function schemaErrors(name: string, value: unknown): unknown[] {
  const validate = ajv.getSchema(`contract#/components/schemas/${name}`);
  if (!validate) throw new Error(`No schema ${name}`);
  return validate(value) ? [] : validate.errors;
}
