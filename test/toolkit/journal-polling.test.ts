// The inspector polls GET /_sandbox/requests: `after` answers only what is new, and an ETag answers 304 while
// nothing the query lists changed, so a connected page costs a ring's version and a hash per poll.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { bearer, hostedApp, newWorkspace } from '../hosted/support.js';

const ids = (res: request.Response) => (res.body.data as { id: string }[]).map((e) => e.id);

describe('polling the journal', () => {
  it('When a poller sends after=<the newest id it saw>, then only newer entries come back, and none when nothing is new', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', 'first').expect(200);
    await request(t.app).get('/2024-09/users/current').set(t.auth('owner')).set('X-Request-Id', 'second').expect(200);
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ after: 'second' }).expect(200))).toEqual([]);
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ after: 'first' }).expect(200))).toEqual(['second']);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', 'third').expect(200);
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ after: 'first' }).expect(200))).toEqual(['third', 'second']);
    // An id no longer held (cleared, dropped from the ring): everything, as without `after`.
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ after: 'gone' }).expect(200))).toEqual(['third', 'second', 'first']);
    // Filters still apply; a malformed id is the input's 422.
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ after: 'first', operation_id: 'listMerchants' }).expect(200))).toEqual(['third']);
    await request(t.app).get('/_sandbox/requests').query({ after: 'no spaces' }).expect(422);
  });

  it('When the same id was sent twice, then after= counts from its newest entry', async () => {
    const t = await testApp();
    for (const id of ['same', 'other', 'same', 'last']) await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', id).expect(200);
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ after: 'same' }).expect(200))).toEqual(['last']);
  });

  it('When more entries arrived than a poll reads, then it lists the newest and unlisted counts the ones it skipped', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', 'seen').expect(200);
    for (let i = 1; i <= 7; i++) await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', `new-${i}`).expect(200);
    const poll = await request(t.app).get('/_sandbox/requests').query({ after: 'seen', limit: 3 }).expect(200);
    expect(ids(poll)).toEqual(['new-7', 'new-6', 'new-5']);
    expect(poll.body.unlisted).toBe(4);
    // Without `after`, the older entries past the limit; none when the limit lets all through; filters apply.
    expect((await request(t.app).get('/_sandbox/requests').query({ limit: 5 }).expect(200)).body.unlisted).toBe(3);
    expect((await request(t.app).get('/_sandbox/requests').query({ after: 'seen', limit: 7 }).expect(200)).body.unlisted).toBe(0);
    expect((await request(t.app).get('/_sandbox/requests').query({ limit: 1, operation_id: 'getCurrentUser' }).expect(200)).body).toEqual({
      data: [],
      unlisted: 0,
    });
  });

  it('When a poller asks for fields=summary, then each entry carries only what a row shows (secrets still redacted), and id= reads one entry whole', async () => {
    const t = await testApp();
    await request(t.app)
      .post('/2024-09/products')
      .query({ api_key: 'k-secret' })
      .set(t.auth('owner'))
      .set('X-Request-Id', 'refused')
      .send({ merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', sku: 42, title: '' })
      .expect(422);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', 'listed').expect(200);
    const summary = await request(t.app).get('/_sandbox/requests').query({ fields: 'summary' }).expect(200);
    expect(summary.body.data).toEqual([
      expect.objectContaining({
        id: 'listed',
        method: 'GET',
        path: '/2024-09/merchants',
        operation_id: 'listMerchants',
        status: 200,
        response_check: 'passed',
      }),
      expect.objectContaining({ id: 'refused', method: 'POST', status: 422, response_check: 'not_checked', query: { api_key: '[REDACTED]' } }),
    ]);
    for (const entry of summary.body.data)
      expect(Object.keys(entry).sort()).toEqual([
        'at',
        'duration_ms',
        'id',
        'method',
        'operation_id',
        'path',
        'query',
        'response_check',
        'status',
        'workspace',
      ]);
    expect(JSON.stringify(summary.body)).not.toContain('k-secret');
    const whole = await request(t.app).get('/_sandbox/requests').query({ id: 'refused' }).expect(200);
    expect(ids(whole)).toEqual(['refused']);
    expect(whole.body.data[0].trail.answered_by).toBe('validation');
    expect(whole.body.data[0].request.headers.authorization).toBe('Bearer [REDACTED]');
    // The same entries summed up or whole are two lists: one's ETag never answers the other 304.
    await request(t.app)
      .get('/_sandbox/requests')
      .set('If-None-Match', summary.headers.etag as string)
      .expect(200);
    expect((await request(t.app).get('/_sandbox/requests').query({ id: 'unknown' }).expect(200)).body).toEqual({ data: [], unlisted: 0 });
    await request(t.app).get('/_sandbox/requests').query({ fields: 'some' }).expect(422);
  });

  it("When a workspace asks for another workspace's entry by id, then it gets nothing of it", async () => {
    const t = await hostedApp();
    const mine = await newWorkspace(t.app);
    const theirs = await newWorkspace(t.app);
    await request(t.app).get('/2024-09/merchants').set(bearer(theirs.tokens.owner)).set('X-Request-Id', 'theirs-call').expect(200);
    const read = await request(t.app).get('/_sandbox/requests').query({ id: 'theirs-call', fields: 'summary' }).set(bearer(mine.tokens.owner)).expect(200);
    expect(read.body).toEqual({ data: [], unlisted: 0 });
    expect(ids(await request(t.app).get('/_sandbox/requests').query({ id: 'theirs-call' }).set(bearer(theirs.tokens.owner)).expect(200))).toEqual([
      'theirs-call',
    ]);
    expect(t.errors).toEqual([]);
  });

  it('When nothing changed since a read, then If-None-Match with its ETag answers 304 with no body; a new entry, a clear or another query answers 200', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    const first = await request(t.app).get('/_sandbox/requests').query({ limit: 10 }).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    const again = await request(t.app).get('/_sandbox/requests').query({ limit: 10 }).set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    // The same entries under another query are another list.
    await request(t.app).get('/_sandbox/requests').query({ limit: 9 }).set('If-None-Match', etag).expect(200);
    // A new entry changes the list.
    await request(t.app).get('/2024-09/users/current').set(t.auth('owner')).expect(200);
    const changed = await request(t.app).get('/_sandbox/requests').query({ limit: 10 }).set('If-None-Match', etag).expect(200);
    expect(changed.body.data).toHaveLength(2);
    // A clear changes it too, even to a list of the same length.
    const before = changed.headers.etag as string;
    await request(t.app).delete('/_sandbox/requests').expect(204);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    await request(t.app).get('/2024-09/users/current').set(t.auth('owner')).expect(200);
    await request(t.app).get('/_sandbox/requests').query({ limit: 10 }).set('If-None-Match', before).expect(200);
    // Weak comparison, a list of tags and `*` match as RFC 9110 says.
    const now = (await request(t.app).get('/_sandbox/requests').query({ limit: 10 }).expect(200)).headers.etag as string;
    await request(t.app)
      .get('/_sandbox/requests')
      .query({ limit: 10 })
      .set('If-None-Match', `"x", ${now.slice(2)}`)
      .expect(304);
    await request(t.app).get('/_sandbox/requests').query({ limit: 10 }).set('If-None-Match', '*').expect(304);
  });

  it("When a workspace's poller holds an ETag, then another workspace's requests and clears do not change it, and its own do", async () => {
    const t = await hostedApp();
    const mine = await newWorkspace(t.app);
    const theirs = await newWorkspace(t.app);
    await request(t.app).get('/2024-09/merchants').set(bearer(mine.tokens.owner)).expect(200);
    const read = await request(t.app).get('/_sandbox/requests').set(bearer(mine.tokens.owner)).expect(200);
    const etag = read.headers.etag as string;
    await request(t.app).get('/2024-09/merchants').set(bearer(theirs.tokens.owner)).expect(200);
    await request(t.app).delete('/_sandbox/requests').set(bearer(theirs.tokens.owner)).expect(204);
    await request(t.app).get('/_sandbox/requests').set(bearer(mine.tokens.owner)).set('If-None-Match', etag).expect(304);
    // Another workspace's token never reads this one's list, ETag or not.
    await request(t.app).get('/_sandbox/requests').query({ workspace: mine.id }).set(bearer(theirs.tokens.owner)).set('If-None-Match', etag).expect(403);
    await request(t.app).get('/2024-09/users/current').set(bearer(mine.tokens.owner)).expect(200);
    const next = await request(t.app).get('/_sandbox/requests').set(bearer(mine.tokens.owner)).set('If-None-Match', etag).expect(200);
    expect((next.body.data as { workspace: string }[]).every((e) => e.workspace === mine.id)).toBe(true);
    expect(t.errors).toEqual([]);
  });
});
