import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract } from '../../src/contract/document/load-contract.js';

const CONTRACT_ID = 'https://sandbox.local/openapi.json';

/** The contract's schemas compiled with a plain JSON Schema 2020-12 validator, independent of the server's. */
export function contractValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...loadContract().doc, $id: CONTRACT_ID } as object);
  const pointer = (segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  return {
    /** Errors of `value` against the schema at these path segments inside the contract, or null when it validates. */
    check(segments: string[], value: unknown) {
      const validate = ajv.getSchema(`${CONTRACT_ID}#/${pointer(segments)}`);
      if (!validate) throw new Error(`no schema at ${segments.join('/')}`);
      return validate(value) ? null : validate.errors;
    },
    /** Errors of `value` against components.schemas[name], or null. */
    checkSchema(name: string, value: unknown) {
      return this.check(['components', 'schemas', name], value);
    },
  };
}
