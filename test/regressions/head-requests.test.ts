// HEAD on a path the contract reads with GET: the real (Laravel) service routes every GET route for HEAD too, as
// RFC 9110 asks of every server (curl -I, uptime monitors, link checkers), so HEAD is that GET without content.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const PRODUCT = 'aa2358ca-05f4-4736-b4cd-e96b0a053732';
const RIVAL_PRODUCT = '97fb92da-0430-43b2-8994-d0817e907bd1';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('HEAD on a path the contract reads with GET', () => {
  it("When HEAD asks for a product, then 200 with the GET's headers and no content", async () => {
    const get = await request(t.app).get(`/2024-09/products/${PRODUCT}`).set(t.auth('owner'));
    expect(get.status).toBe(200);
    const head = await request(t.app).head(`/2024-09/products/${PRODUCT}`).set(t.auth('owner'));
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
    expect(t.errors).toEqual([]);
  });

  it('When HEAD asks for the health of the sandbox, then 200, as a monitor that sends HEAD expects', async () => {
    const res = await request(t.app).head('/_sandbox/health');
    expect(res.status).toBe(200);
  });

  it('When HEAD has no token, names an unknown product or another merchant’s, then 401, 404 and 403 as the GET', async () => {
    expect((await request(t.app).head(`/2024-09/products/${UNKNOWN}`)).status).toBe(401);
    expect((await request(t.app).head(`/2024-09/products/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await request(t.app).head(`/2024-09/products/${RIVAL_PRODUCT}`).set(t.auth('owner'))).status).toBe(403);
    expect((await request(t.app).head(`/2024-09/products?merchant_id=${demo.merchant}&per_page=0`).set(t.auth('owner'))).status).toBe(422);
  });

  it('When HEAD is sent to a path the contract has no GET for, then 405 and Allow names its methods', async () => {
    const res = await request(t.app).head('/2024-09/users/merchant-memberships/invite').set(t.auth('owner'));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('When a method the path lacks is used on a path with GET, then Allow names HEAD beside GET', async () => {
    const res = await request(t.app).patch(`/2024-09/products/${PRODUCT}`).set(t.auth('owner'));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE');
  });

  it('When a HEAD comes before the same GET and after it, then the GET has its whole body both times', async () => {
    const path = `/2024-09/products?merchant_id=${demo.merchant}&per_page=2`;
    expect((await request(t.app).head(path).set(t.auth('owner'))).status).toBe(200);
    const first = await request(t.app).get(path).set(t.auth('owner'));
    expect(first.body.data).toHaveLength(2);
    expect((await request(t.app).head(path).set(t.auth('owner'))).text ?? '').toBe('');
    const again = await request(t.app).get(path).set(t.auth('owner'));
    expect(again.text).toBe(first.text);
  });

  it('When HEAD is answered, then the journal keeps it as a HEAD of the GET operation', async () => {
    await request(t.app).head(`/2024-09/products/${PRODUCT}`).set(t.auth('owner')).expect(200);
    const journal = await request(t.app).get('/_sandbox/requests?limit=1');
    expect(journal.body.data[0]).toMatchObject({ method: 'HEAD', operation_id: 'getProduct', status: 200 });
  });
});
