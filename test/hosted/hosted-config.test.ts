import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { projectRoot } from '../../src/paths.js';
import { builtEntry } from '../helpers/built-entries.js';

const options = () => {
  const parsed = parseArgs([], {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.options;
};

/** 32 hex digits: 128 bits, the least an admin token may hold. */
const STRONG = '9f1c3a7e5b2d4f60a8c1e3b5d7f90a2c';
const HOSTED = { HOSTED: '1', SANDBOX_ADMIN_TOKEN: STRONG, PUBLIC_URL: 'https://sandbox.example.com/' };

describe('hosted mode configuration', () => {
  it('When HOSTED=1 comes without SANDBOX_ADMIN_TOKEN, then the configuration is refused with a message naming it', () => {
    const { errors } = configFromOptions(options(), { HOSTED: '1' });
    expect(errors.join('\n')).toMatch(/SANDBOX_ADMIN_TOKEN/);
  });

  it('When HOSTED=1 comes with an admin token and PUBLIC_URL, then hosted mode is on with 10 creations per address per minute', () => {
    const { config, errors } = configFromOptions(options(), HOSTED);
    expect(errors).toEqual([]);
    expect(config).toMatchObject({ hosted: true, adminToken: STRONG, publicUrl: 'https://sandbox.example.com', workspaceCreatePerMinute: 10 });
  });

  it('When WORKSPACE_CREATE_PER_MINUTE is set in hosted mode, then it replaces the default; locally there is no limit', () => {
    expect(configFromOptions(options(), { ...HOSTED, WORKSPACE_CREATE_PER_MINUTE: '100000' }).config.workspaceCreatePerMinute).toBe(100_000);
    const local = configFromOptions(options(), {}).config;
    expect(local.hosted).toBe(false);
    expect(local.workspaceCreatePerMinute).toBeUndefined();
  });

  it('When HOSTED is neither a 1/0 nor true/false, then it is reported', () => {
    expect(configFromOptions(options(), { HOSTED: 'yes please' }).errors.join('\n')).toMatch(/HOSTED must be/);
  });

  it('When SANDBOX_ADMIN_TOKEN holds less than 128 bits, then the configuration is refused with a message naming it', () => {
    for (const weak of ['a', 's3cret', '0123456789abcdef', 'aaaaaaaaaaaaaaaaaaaaaaaaaaa']) {
      const { config, errors } = configFromOptions(options(), { ...HOSTED, SANDBOX_ADMIN_TOKEN: weak });
      expect(errors.join('\n')).toMatch(/SANDBOX_ADMIN_TOKEN must hold at least 128 random bits/);
      expect(config.adminToken).toBeUndefined();
    }
    // 22 base64url characters (16 random bytes) are enough, as are 32 hex digits.
    expect(configFromOptions(options(), { ...HOSTED, SANDBOX_ADMIN_TOKEN: 'q7Vd0aZk3Xr9LmP2sT8wYc' }).errors).toEqual([]);
  });

  it('When HOSTED=1 comes without PUBLIC_URL, or PUBLIC_URL is not an origin, then the configuration is refused naming PUBLIC_URL', () => {
    const { PUBLIC_URL: _, ...withoutUrl } = HOSTED;
    expect(configFromOptions(options(), withoutUrl).errors.join('\n')).toMatch(/HOSTED=1 needs PUBLIC_URL/);
    for (const bad of ['sandbox.example.com', 'ftp://sandbox.example.com', 'https://sandbox.example.com/docs', 'https://sandbox.example.com/?a=1']) {
      expect(configFromOptions(options(), { ...HOSTED, PUBLIC_URL: bad }).errors.join('\n')).toMatch(/^PUBLIC_URL must/m);
    }
    // Locally PUBLIC_URL is optional: without it each request's own origin is used.
    expect(configFromOptions(options(), {}).config.publicUrl).toBeUndefined();
  });

  it('When the server process is started in hosted mode without an admin token, with a weak one, or without PUBLIC_URL, then it exits 2 naming the variable', () => {
    const { PUBLIC_URL: _, ...withoutUrl } = HOSTED;
    const cases: [Record<string, string>, string][] = [
      [{ HOSTED: '1', PUBLIC_URL: HOSTED.PUBLIC_URL }, 'SANDBOX_ADMIN_TOKEN'],
      [{ ...HOSTED, SANDBOX_ADMIN_TOKEN: 'a' }, 'SANDBOX_ADMIN_TOKEN must hold at least 128 random bits'],
      [withoutUrl, 'PUBLIC_URL'],
    ];
    for (const [variables, named] of cases) {
      const env: NodeJS.ProcessEnv = { ...process.env, ...variables };
      for (const name of ['SANDBOX_ADMIN_TOKEN', 'PUBLIC_URL']) if (!(name in variables)) delete env[name];
      const res = spawnSync(process.execPath, [builtEntry('main'), '--in-memory', '--port', '0'], {
        cwd: projectRoot,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(res.status).toBe(2);
      expect(res.stderr).toContain(named);
    }
  }, 120_000);
});
