// The validator's prepared spec (express-openapi-validator's prepareSpec, added by patches/): the contract loaded,
// its routes listed and preprocessed for the request and response checks, made once by the build next to
// dist/openapi.json. A start hands it to the validator, which then skips that work before its first answer; the
// checks themselves still compile from it on each operation's first request, so every request and answer is checked
// from the first one on. It names the SHA-256 of the YAML text it was made from and the validator's options (as
// JSON): with either another, the validator prepares the contract itself, as it does without a build.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { PreparedSpec } from 'express-openapi-validator/dist/framework/types.js';
import { projectRoot } from '../../paths.js';
import { asciiJson, digestOfYaml } from './contract-json.js';

export const validatorSpecJsonPath = join(projectRoot, 'dist', 'validator-spec.json');

interface ValidatorSpecJson {
  yamlSha256: string;
  options: string;
  spec: PreparedSpec;
}

/**
 * The spec the build prepared from exactly this YAML text with exactly these options (their JSON), parsed anew on
 * each call (the validator given it keeps it as its own), or undefined (no build, another text or other options).
 * `digest` is the text's (digestOfYaml), when the caller has it already.
 */
export function readValidatorSpecJson(
  yamlText: string,
  options: string,
  path = validatorSpecJsonPath,
  digest = digestOfYaml(yamlText),
): PreparedSpec | undefined {
  let stored: ValidatorSpecJson;
  try {
    stored = JSON.parse(readFileSync(path, 'utf8')) as ValidatorSpecJson;
  } catch {
    return undefined;
  }
  return stored?.yamlSha256 === digest && stored.options === options ? stored.spec : undefined;
}

/** Writes the prepared spec; one JSON cannot carry as it is (a function left in it) is refused. */
export function writeValidatorSpecJson(yamlText: string, options: string, spec: PreparedSpec, path = validatorSpecJsonPath): void {
  const json = asciiJson({ yamlSha256: digestOfYaml(yamlText), options, spec } satisfies ValidatorSpecJson);
  if (!isDeepStrictEqual((JSON.parse(json) as ValidatorSpecJson).spec, spec)) {
    throw new Error(`the validator's prepared spec does not survive JSON unchanged; ${path} not written`);
  }
  writeFileSync(path, json);
}
