// A full workspace can always export (issue 31, item 5): in hosted mode its upload quota and its journal's bytes
// default to shares of BUNDLE_MAX_BYTES (half of it in uploads, two thirds once in base64; an eighth in journal), so
// a workspace holding all the uploads and journal it may exports under the limit, and its bundle loads back.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { PNG } from '../bundle/session.js';
import { ADMIN, bearer, hostedApp, newWorkspace, PUBLIC_URL } from './support.js';

const MiB = 2 ** 20;
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** Hosted mode's configuration as the environment gives it, with `env` on top. */
function hostedConfig(env: Record<string, string> = {}) {
  const parsed = parseArgs([]);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const { config, errors } = configFromOptions(parsed.options, { HOSTED: '1', SANDBOX_ADMIN_TOKEN: ADMIN, PUBLIC_URL, ...env });
  expect(errors).toEqual([]);
  return config;
}

describe('exporting a full workspace in hosted mode', () => {
  it('When HOSTED=1 sets no quotas, then uploads may hold half of BUNDLE_MAX_BYTES and a journal ring an eighth; set, they are what was set', () => {
    expect(hostedConfig()).toMatchObject({ bundleMaxBytes: 8 * MiB, workspaceMaxUploadBytes: 4 * MiB, journalWorkspaceBytes: MiB });
    expect(hostedConfig({ BUNDLE_MAX_BYTES: String(16 * MiB) })).toMatchObject({ workspaceMaxUploadBytes: 8 * MiB, journalWorkspaceBytes: 2 * MiB });
    expect(hostedConfig({ WORKSPACE_MAX_UPLOAD_MB: '100', JOURNAL_WORKSPACE_BYTES: '4194304' })).toMatchObject({
      workspaceMaxUploadBytes: 100 * MiB,
      journalWorkspaceBytes: 4 * MiB,
    });
  });

  it('When a hosted workspace holds all the uploads its quota allows and a full journal, then it exports under BUNDLE_MAX_BYTES and the bundle loads back', async () => {
    const { bundleMaxBytes, workspaceMaxUploadBytes, journalWorkspaceBytes } = hostedConfig();
    const t = await hostedApp({ bundleMaxBytes, workspaceMaxUploadBytes, journalWorkspaceBytes, workspaceCreatePerMinute: 100 });
    const ws = await newWorkspace(t.app);
    const owner = bearer(ws.tokens.owner);
    const product = (await request(t.app).get(`/2024-09/products?merchant_id=${MERCHANT}&per_page=1`).set(owner).expect(200)).body.data[0].id;
    const file = Buffer.concat([PNG, Buffer.alloc(MiB - PNG.length - 1024)]);
    for (let i = 0; i < 4; i++) {
      await request(t.app)
        .post(`/2024-09/products/${product}/images`)
        .set(owner)
        .attach('file', file, { filename: `full-${i}.png`, contentType: 'image/png' })
        .expect(201);
    }
    // The quota is full: one more file of this size is past it.
    await request(t.app)
      .post(`/2024-09/products/${product}/images`)
      .set(owner)
      .attach('file', file, { filename: 'more.png', contentType: 'image/png' })
      .expect(413);
    // Journal entries with the largest bodies it keeps, past its ring's bytes.
    const pad = 'x'.repeat(16 * 1024);
    for (let i = 0; i < Math.ceil(journalWorkspaceBytes / (16 * 1024)) + 10; i++) {
      await request(t.app)
        .post('/2024-09/merchants')
        .set(owner)
        .send({ name: `Full ${i}`, pad })
        .expect(201);
    }
    const res = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(owner).expect(200);
    expect(Buffer.byteLength(JSON.stringify(res.body.journal))).toBeGreaterThan(journalWorkspaceBytes * 0.8);
    expect(Buffer.byteLength(res.text)).toBeLessThan(bundleMaxBytes);
    expect(res.body.uploads).toHaveLength(4);
    await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(res.text).expect(201);
  });
});
