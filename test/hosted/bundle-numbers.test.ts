// A bundle's numbers meet the contract as a request's do: JSON's 1e400 parses to Infinity, which no schema's
// `integer` or `number` admits, and a journal entry's status is one an HTTP answer can have. Loaded anyway, such a
// number answered 500 on the load (the journal ring keeps a status in 16 bits) or made the workspace's journal and
// export answer 500 ever after.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { changedSeeded, emptyBundle, journalEntry } from '../bundle/hostile-bundles.js';
import type { Bundle } from '../bundle/session.js';
import { bearer, hostedApp, loadRefused } from './support.js';

type Hosted = Awaited<ReturnType<typeof hostedApp>>;

describe("a bundle's numbers meet the contract", () => {
  let h: Hosted;
  let valid: Bundle;

  beforeEach(async () => {
    h = await hostedApp({ workspaceCreatePerMinute: 100 });
    valid = await emptyBundle(h.app);
  });

  /** Loads the bundle's JSON text with `"NUMBER"` spliced out for `number` as written (1e400 has no JSON.stringify form). */
  const withNumber = (b: Bundle, number: string) => JSON.stringify(b).replace('"NUMBER"', number);
  const load = (b: Bundle, number: string) => request(h.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(withNumber(b, number));

  const refusedNaming = (b: Bundle, number: string, field: string) => loadRefused(h, withNumber(b, number), (f) => f === field);

  it("When a journal entry's duration_ms is 1e400, then 422 names it and no workspace is made", async () => {
    valid.journal = [{ ...journalEntry(0, null), duration_ms: 'NUMBER' }];
    await refusedNaming(valid, '1e400', 'journal.0.duration_ms');
  });

  for (const status of ['1e400', '-5', '70000', '99', '600']) {
    it(`When a journal entry's status is ${status}, then 422 names it and no workspace is made`, async () => {
      valid.journal = [{ ...journalEntry(0, null), status: 'NUMBER' }];
      await refusedNaming(valid, status, 'journal.0.status');
    });
  }

  it("When a catalog item's review_count is 1e400, then 422 names it", async () => {
    const b = changedSeeded(valid, 'catalog_items', (r) => void (r.review_count = 'NUMBER'));
    await refusedNaming(b, '1e400', 'changes.catalog_items.changed.0.review_count');
  });

  it('When a journal entry has a status of 599 and a large finite duration, then it loads, and the journal and export answer 200', async () => {
    valid.journal = [{ ...journalEntry(0, null), status: 599, duration_ms: 'NUMBER' }];
    const res = await load(valid, '1e300');
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    const { id, tokens } = res.body.data;
    const journal = await request(h.app).get('/_sandbox/requests').set(bearer(tokens.owner));
    expect(journal.status, journal.text.slice(0, 300)).toBe(200);
    expect(journal.body.data[0].status).toBe(599);
    const exported = await request(h.app).get(`/_sandbox/workspaces/${id}/export`).set(bearer(tokens.owner));
    expect(exported.status, exported.text.slice(0, 300)).toBe(200);
  });
});
