// The sandbox sends no validator (ETag, Last-Modified) with an operation's answer, and answers a conditional request
// as the real service does, in full: `If-None-Match: *` on a GET matched every answer in Express's freshness check,
// so GET /2024-09/merchants (or any other read) answered a 304 no operation but the journal's documents, and the
// coverage report listed it as undocumented. Only listSandboxRequests, which documents its 304, answers one, for its
// own ETag.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

describe('conditional reads', () => {
  it('When a GET of the API or the control plane carries If-None-Match: *, then it answers 200 in full', async () => {
    const tag = '*';
    const t = await testApp();
    for (const path of ['/2024-09/merchants', '/2024-09/users/current', '/_sandbox/clock', '/_sandbox/coverage']) {
      const res = await request(t.app).get(path).set(t.auth('owner')).set('If-None-Match', tag);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body.data).toBeDefined();
      const head = await request(t.app).head(path).set(t.auth('owner')).set('If-None-Match', tag);
      expect({ path, status: head.status }).toEqual({ path, status: 200 });
    }
    const coverage = (await request(t.app).get('/_sandbox/coverage').expect(200)).body.data.operations as { operation_id: string; undocumented: string[] }[];
    expect(coverage.filter((op) => op.undocumented.length > 0)).toEqual([]);
  });

  it('When the journal is read again with its ETag, then 304, as its contract documents', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    const first = await request(t.app).get('/_sandbox/requests').expect(200);
    await request(t.app).get('/_sandbox/requests').set('If-None-Match', first.headers.etag).expect(304);
  });
});
