import { describe, expect, it } from 'vitest';
import { applyValidatorPatches, installedValidatorVersion, PATCHED_VALIDATOR_VERSION } from '../../src/contract/validator/tune-validator.js';
import { validatorModules } from '../../src/contract/validator/validator-module.js';

const memoized = () => (validatorModules.pathToRegexp().pathToRegexp as { memoized?: boolean }).memoized === true;
const byPointer = () => (validatorModules.preprocessor().SchemaPreprocessor.prototype as { byPointer?: boolean }).byPointer === true;

describe('the validator patches’ version guard', () => {
  it('When another express-openapi-validator release is installed, then the validator stays untuned and one line says why', () => {
    const lines: string[] = [];
    expect(applyValidatorPatches({ installedVersion: '5.7.0', warn: (line) => lines.push(line) })).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/^express-openapi-validator 5\.7\.0 is installed; .* written for 5\.6\.2, so it runs untuned/)]);
    expect(memoized()).toBe(false);
    expect(byPointer()).toBe(false);
  });

  it('When the release they were written for is installed, then the patches are applied without a word', () => {
    expect(installedValidatorVersion()).toBe(PATCHED_VALIDATOR_VERSION);
    const lines: string[] = [];
    expect(applyValidatorPatches({ warn: (line) => lines.push(line) })).toBe(true);
    expect(lines).toEqual([]);
    expect(memoized()).toBe(true);
    expect(byPointer()).toBe(true);
  });
});
