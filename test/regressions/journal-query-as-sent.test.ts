// The journal's `query` is documented as "the query as the client sent it", but an answered read recorded the
// query as the validator left it: numbers where strings were sent, and defaults the client never sent
// (`GET /2024-09/merchants` was journaled with `{ page: 1, per_page: 15 }`).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

async function journaledQuery(t: Awaited<ReturnType<typeof testApp>>, id: string) {
  const res = await request(t.app).get('/_sandbox/requests').query({ id }).set(t.auth('owner')).expect(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0].request.query as Record<string, unknown>;
}

describe('the journal keeps the query as the client sent it', () => {
  it('When a list is read without a query, then its entry names no page or per_page the client did not send', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', 'bare').expect(200);
    expect(await journaledQuery(t, 'bare')).toEqual({});
  });

  it('When per_page=5 is sent, then its entry holds the text "5", not the number the validator made of it', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants?per_page=5').set(t.auth('owner')).set('X-Request-Id', 'five').expect(200);
    expect(await journaledQuery(t, 'five')).toEqual({ per_page: '5' });
  });

  it('When the same read is answered again from its kept answer, then that entry too holds the query as sent', async () => {
    const t = await testApp();
    for (const id of ['first', 'again']) {
      await request(t.app).get('/2024-09/merchants?per_page=5').set(t.auth('owner')).set('X-Request-Id', id).expect(200);
    }
    expect(t.cache.stats.hits).toBeGreaterThan(0);
    expect(await journaledQuery(t, 'again')).toEqual({ per_page: '5' });
  });

  it('When a parameter the contract does not name is sent beside one it names, then both are kept as sent', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants?per_page=5&_=17').set(t.auth('owner')).set('X-Request-Id', 'busted').expect(200);
    expect(await journaledQuery(t, 'busted')).toEqual({ per_page: '5', _: '17' });
  });

  it('When the HEAD of a list is asked, then its entry holds the query as sent too', async () => {
    const t = await testApp();
    await request(t.app).head('/2024-09/merchants?page=2').set(t.auth('owner')).set('X-Request-Id', 'head').expect(200);
    expect(await journaledQuery(t, 'head')).toEqual({ page: '2' });
  });
});
