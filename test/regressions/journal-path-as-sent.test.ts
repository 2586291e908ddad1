// A path segment that does not decode (`%zz`) is routed as its literal text, by escaping its `%` signs before
// routing; the journal and the log line recorded that rewritten path (`/2024-09/products/%25zz`) instead of the
// one the client sent.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

describe('the journal and the log keep the path as the client sent it', () => {
  it.each(['/2024-09/products/%zz', '/2024-09/products/%', '/%E0%A4%A/x'])(
    'When %s is asked, then its journal entry and its log line name that path, not the escaped one routing read',
    async (path) => {
      const lines: string[] = [];
      const t = await testApp({ logLevel: 'info' }, { requestLog: (line) => lines.push(line) });
      const res = await request(t.app).get(`${path}?x=1`).set(t.auth('owner')).set('X-Request-Id', 'odd-path');
      expect(res.status).toBe(404);
      const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'odd-path' }).set(t.auth('owner'));
      expect(journal.body.data[0].path).toBe(path);
      const logged = lines.map((line) => JSON.parse(line) as { path?: string; request_id?: string }).find((l) => l.request_id === 'odd-path');
      expect(logged?.path).toBe(path);
    },
  );

  it('When a product id that does not decode is asked, then the record step still names it as typed', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/products/%zz').set(t.auth('owner')).set('X-Request-Id', 'odd-id').expect(404);
    const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'odd-id' }).set(t.auth('owner'));
    expect(journal.body.data[0].trail.record).toEqual({ parameter: 'product', id: '%zz', outcome: 'unknown' });
  });
});
