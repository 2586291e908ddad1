import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions, type Config } from '../../src/config.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const FORWARDED = { Host: 'internal:4010', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'sandbox.example.com' };

function configFromEnv(env: Record<string, string>) {
  const parsed = parseArgs([], {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return configFromOptions(parsed.options, env);
}

describe('TRUST_PROXY', () => {
  const list = (t: TestApp) => request(t.app).get('/2024-09/merchants?per_page=1').set(t.auth('owner')).set(FORWARDED);

  describe('set', () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await testApp({ trustProxy: true });
    });

    it('When TRUST_PROXY is set and a proxy forwards https and a host, then links and meta.path use them', async () => {
      const res = await list(t);
      expect(res.status).toBe(200);
      expect(res.body.meta.path).toBe('https://sandbox.example.com/2024-09/merchants');
      expect(res.body.links.first).toMatch(/^https:\/\/sandbox\.example\.com\/2024-09\/merchants\?/);
    });

    it('When TRUST_PROXY is set and a forwarded host is not a plain host, then no link carries it', async () => {
      const res = await request(t.app)
        .get('/2024-09/merchants')
        .set(t.auth('owner'))
        .set({ ...FORWARDED, 'X-Forwarded-Host': 'evil.test/"><script>' });
      expect(res.status).toBe(200);
      expect(res.body.meta.path).not.toMatch(/evil/);
    });
  });

  it('When TRUST_PROXY is set and the forwarded scheme is not http or https, then a list answers 200 with links on http://localhost; HTTPS in capitals is https', async () => {
    const t = await testApp({ trustProxy: true });
    for (const proto of ['javascript', 'ftp', 'h t t p']) {
      const res = await list(t).set('X-Forwarded-Proto', proto);
      expect([proto, res.status]).toEqual([proto, 200]);
      expect(res.body.meta.path).toBe('http://localhost/2024-09/merchants');
    }
    const capitals = await list(t).set('X-Forwarded-Proto', 'HTTPS');
    expect(capitals.body.meta.path).toBe('https://sandbox.example.com/2024-09/merchants');
    expect(t.errors).toEqual([]);
  });

  it('When TRUST_PROXY is not set, then forwarded headers are ignored and links use the Host', async () => {
    const t = await testApp();
    const res = await list(t);
    expect(res.status).toBe(200);
    expect(res.body.meta.path).toBe('http://internal:4010/2024-09/merchants');
    expect(JSON.stringify(res.body.links)).not.toMatch(/sandbox\.example\.com|https:/);
  });

  it('When a merchant is read behind a trusted proxy, then the proxy does not change which records come back', async () => {
    const t = await testApp({ trustProxy: true });
    const res = await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).set(FORWARDED);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(demo.merchant);
  });

  it.each<[string, Config['trustProxy']]>([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback, 10.0.0.0/8', 'loopback,10.0.0.0/8'],
  ])("When TRUST_PROXY is %s, then the config holds Express's trust proxy value", (raw, expected) => {
    const { config, errors } = configFromEnv({ TRUST_PROXY: raw });
    expect(errors).toEqual([]);
    expect(config.trustProxy).toEqual(expected);
  });

  it('When TRUST_PROXY is not an address, then the error names the variable', () => {
    const { errors } = configFromEnv({ TRUST_PROXY: 'everyone!' });
    expect(errors).toEqual([expect.stringMatching(/^TRUST_PROXY /)]);
    expect(configFromEnv({}).config.trustProxy).toBe(false);
  });
});
