import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { projectRoot } from '../../src/paths.js';

const options = () => {
  const parsed = parseArgs([], {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.options;
};

describe('hosted mode configuration', () => {
  it('When HOSTED=1 comes without SANDBOX_ADMIN_TOKEN, then the configuration is refused with a message naming it', () => {
    const { errors } = configFromOptions(options(), { HOSTED: '1' });
    expect(errors.join('\n')).toMatch(/SANDBOX_ADMIN_TOKEN/);
  });

  it('When HOSTED=1 comes with an admin token, then hosted mode is on with 10 creations per address per minute', () => {
    const { config, errors } = configFromOptions(options(), { HOSTED: '1', SANDBOX_ADMIN_TOKEN: 's3cret' });
    expect(errors).toEqual([]);
    expect(config).toMatchObject({ hosted: true, adminToken: 's3cret', workspaceCreatePerMinute: 10 });
  });

  it('When WORKSPACE_CREATE_PER_MINUTE is set in hosted mode, then it replaces the default; locally there is no limit', () => {
    expect(configFromOptions(options(), { HOSTED: '1', SANDBOX_ADMIN_TOKEN: 's', WORKSPACE_CREATE_PER_MINUTE: '100000' }).config.workspaceCreatePerMinute).toBe(100_000);
    const local = configFromOptions(options(), {}).config;
    expect(local.hosted).toBe(false);
    expect(local.workspaceCreatePerMinute).toBeUndefined();
  });

  it('When HOSTED is neither a 1/0 nor true/false, then it is reported', () => {
    expect(configFromOptions(options(), { HOSTED: 'yes please' }).errors.join('\n')).toMatch(/HOSTED must be/);
  });

  it('When the server process is started with HOSTED=1 and no admin token, then it exits 2 saying so', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOSTED: '1' };
    delete env.SANDBOX_ADMIN_TOKEN;
    const res = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/main.ts'), '--in-memory', '--port', '0'], {
      cwd: projectRoot,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('SANDBOX_ADMIN_TOKEN');
  }, 60_000);
});
