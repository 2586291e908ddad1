// The environment variables of docs/configuration.md that set a limit or an address, as the start reads them
// (configFromOptions): each lands in the configuration in its own unit, and a value outside its range is named.
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions, defaultConfig, type Config } from '../../src/config.js';

/** The options of a start with no flags. */
function noFlags() {
  const parsed = parseArgs([], {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.options;
}

const cases: [variable: string, value: string, setting: keyof Config, expected: unknown][] = [
  ['WORKSPACE_TTL_SECONDS', '90', 'workspaceIdleTtlMs', 90_000],
  ['ADMIN_ATTEMPTS_PER_HOUR', '7', 'adminAttemptsPerHour', 7],
  ['JOURNAL_SIZE', '50', 'journalSize', 50],
  ['BODY_LIMIT_BYTES', '2048', 'bodyLimit', 2048],
  ['BUNDLE_LOADS_IN_FLIGHT', '3', 'bundleLoadsInFlight', 3],
  ['BUNDLE_EXPORTS_IN_FLIGHT', '4', 'bundleExportsInFlight', 4],
  ['JOURNAL_BODY_BYTES', '512', 'journalBodyBytes', 512],
  ['JOURNAL_TOTAL_BYTES', '8192', 'journalTotalBytes', 8192],
  ['RETAILER_REDIRECT_URI', 'https://app.example.com/retailer/callback', 'retailerRedirectUri', 'https://app.example.com/retailer/callback'],
  ['CORS_ORIGINS', ' https://a.example.com/, https://b.example.com ', 'corsOrigins', ['https://a.example.com', 'https://b.example.com']],
];

describe('limits and addresses set through the environment', () => {
  for (const [variable, value, setting, expected] of cases) {
    it(`When ${variable}=${value.trim()} is set, then ${setting} is ${JSON.stringify(expected)} instead of its default`, () => {
      const { config, errors } = configFromOptions(noFlags(), { [variable]: value });
      expect(errors).toEqual([]);
      expect(config[setting]).not.toEqual(defaultConfig[setting]);
      expect(config[setting]).toEqual(expected);
    });
  }

  it('When a limit is outside its range or no integer, then the error names the variable, its range and the value, and the default stays', () => {
    const { config, errors } = configFromOptions(noFlags(), { BODY_LIMIT_BYTES: '10', JOURNAL_SIZE: '1.5', BUNDLE_EXPORTS_IN_FLIGHT: '65' });
    expect(errors).toEqual([
      "JOURNAL_SIZE must be an integer from 1 to 100000, got '1.5'",
      "BODY_LIMIT_BYTES must be an integer from 1024 to 67108864, got '10'",
      "BUNDLE_EXPORTS_IN_FLIGHT must be an integer from 1 to 64, got '65'",
    ]);
    expect(config).toMatchObject({ bodyLimit: defaultConfig.bodyLimit, journalSize: defaultConfig.journalSize });
  });
});
