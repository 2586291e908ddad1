// A CI run loaded elsewhere shows why each of its requests was answered as it was: the journal's trails travel in
// the bundle, and come back through the same gate and the same journal limits as everything else of it.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { demo, testApp } from '../helpers/app.js';
import { bearer, exported, newWorkspace } from './session.js';

type Entry = { path: string; status: number; loaded?: boolean; trail?: Record<string, unknown> };

/** A run of one answered request, exported: the bundle and its one journal entry. */
async function runOfOneRequest() {
  const t = await testApp();
  const a = await newWorkspace(t);
  await request(t.app).get('/2024-09/merchants').set(bearer(a.tokens.owner)).expect(200);
  const bundle = await exported(t, a);
  return { t, bundle, entry: (bundle.journal as Entry[])[0]! };
}

describe('trails in a bundle', () => {
  it('When a run with a 422, a 403 and a 200 is exported and loaded, then each loaded entry keeps its trail', async () => {
    const t = await testApp();
    const a = await newWorkspace(t);
    await request(t.app).get('/2024-09/merchants').set(bearer(a.tokens.owner)).expect(200);
    await request(t.app).get(`/2024-09/merchants/${demo.rivalMerchant}`).set(bearer(a.tokens.owner)).expect(403);
    await request(t.app)
      .post('/2024-09/suppliers')
      .set(bearer(a.tokens.owner))
      .send({ merchant_id: demo.merchant, name: '', default_currency: 'EUR' })
      .expect(422);
    const bundle = await exported(t, a);
    const original = bundle.journal as Entry[];
    expect(original.map((e) => e.trail?.answered_by)).toEqual(['validation', 'record', 'handler']);
    const b = await newWorkspace(t, bundle);
    const loaded = (await request(t.app).get('/_sandbox/requests').set(bearer(b.tokens.owner)).expect(200)).body.data as Entry[];
    expect(loaded.every((e) => e.loaded === true)).toBe(true);
    expect(loaded.map((e) => e.trail)).toEqual(original.map((e) => e.trail));
    expect(loaded[1]?.trail?.record).toEqual({ parameter: 'merchant', id: demo.rivalMerchant, outcome: 'not_member' });
  });

  it('When a bundle carries a trail past the contract bounds or of the wrong shape, then 422 names it and nothing is loaded', async () => {
    const { t, bundle, entry } = await runOfOneRequest();
    const tooMany = Array.from({ length: 101 }, () => ({ field: 'body.x', message: 'm' }));
    for (const trail of [
      { ...entry.trail, field_errors: tooMany },
      { ...entry.trail, answered_by: 'magic' },
      { ...entry.trail, docs_anchor: 'javascript:alert(1)' },
      { ...entry.trail, extra: true },
    ]) {
      const res = await request(t.app)
        .post('/_sandbox/workspaces')
        .send({ ...bundle, journal: [{ ...entry, trail }] });
      expect(res.status, JSON.stringify(trail).slice(0, 80)).toBe(422);
      expect(Object.keys(res.body.errors).join(' ')).toMatch(/^journal\.0\.trail/);
    }
  });

  it('When a loaded trail names a secret field with its value, then the loaded journal shows it redacted', async () => {
    const { t, bundle, entry } = await runOfOneRequest();
    const trail = { ...entry.trail, answered_by: 'validation', field_errors: [{ field: 'body.refresh_token', message: 'bad', value: 'LEAKED-SECRET' }] };
    const b = await newWorkspace(t, { ...bundle, journal: [{ ...entry, trail }] });
    const list = await request(t.app).get('/_sandbox/requests').set(bearer(b.tokens.owner)).expect(200);
    expect(list.text).not.toContain('LEAKED-SECRET');
    expect(list.body.data[0].trail.field_errors[0].value).toBe('[REDACTED]');
  });
});
