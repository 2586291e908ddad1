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
