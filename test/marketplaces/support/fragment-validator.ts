// Validates against the Marketplaces/Forecasting fragment before the lead merges it into openapi.yaml: the
// fragment's components are laid over openapi.yaml's, so refs resolve exactly as they will after the merge.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const ROOT = new URL('../../../', import.meta.url);
const ID = 'https://sandbox.local/merged.json';

/** The merged document (openapi.yaml + the fragment), and a checker of values against its schemas. */
export function fragmentValidator() {
  const base = parse(readFileSync(new URL('openapi.yaml', ROOT), 'utf8'));
  const part = parse(readFileSync(new URL('contract-parts/marketplaces-forecasting.yaml', ROOT), 'utf8'));
  const doc = {
    ...base,
    paths: { ...base.paths, ...part.paths },
    components: {
      ...base.components,
      schemas: { ...base.components.schemas, ...part.components.schemas },
      parameters: { ...base.components.parameters, ...part.components.parameters },
    },
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: ID });
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  return {
    doc,
    part,
    /** Errors of `value` against the schema at `segments`, or null. */
    check(segments: string[], value: unknown) {
      const validate = ajv.getSchema(`${ID}#/${segments.map(esc).join('/')}`);
      if (!validate) throw new Error(`no schema at ${segments.join('/')}`);
      return validate(value) ? null : validate.errors;
    },
    checkSchema(name: string, value: unknown) {
      return this.check(['components', 'schemas', name], value);
    },
  };
}
