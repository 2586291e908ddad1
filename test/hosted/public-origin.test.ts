// Hosted mode's absolute URLs come from PUBLIC_URL, never from what a client writes in Host or X-Forwarded-Host:
// otherwise a consent URL or an Approve redirect carrying a single-use code could point at the writer's server.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { bearer, hostedApp, newWorkspace, PUBLIC_URL } from './support.js';

const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc002';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const EVIL = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' };

/** Every absolute URL a visitor meets on the way through the consent flow, uploads, lists and the served contract. */
async function urlsAnswered(t: Awaited<ReturnType<typeof hostedApp>>, headers: Record<string, string>): Promise<string[]> {
  const ws = await newWorkspace(t.app);
  const owner = { ...headers, ...bearer(ws.tokens.owner) };
  const urls: string[] = [];
  const authUrl = await request(t.app).get(`/2024-09/channels/retailer/${CHANNEL}/get-auth-url`).set(owner).expect(200);
  urls.push(authUrl.body.url);
  const state = new URL(authUrl.body.url).searchParams.get('state')!;
  const approved = await request(t.app).post('/_retailer/authorize').set(headers).type('form').send({ state, decision: 'approve' }).expect(302);
  urls.push(approved.headers.location!);
  const image = await request(t.app)
    .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
    .set(owner)
    .attach('file', PNG, { filename: 'tent.png', contentType: 'image/png' })
    .expect(201);
  urls.push(image.body.data.url);
  const list = await request(t.app).get('/2024-09/merchants').set(owner).expect(200);
  urls.push(list.body.meta.path, ...Object.values(list.body.links as Record<string, string | null>).filter((u): u is string => u !== null));
  const contract = await request(t.app).get('/openapi.json').set(headers).expect(200);
  urls.push(...(contract.body.servers as { url: string }[]).map((s) => s.url));
  return urls;
}

describe('hosted mode: the public origin is configuration', () => {
  it('When a request says Host or X-Forwarded-Host: evil.example, then no URL or Location it gets names evil.example; all start with PUBLIC_URL', async () => {
    // Proxies trusted, so X-Forwarded-Host would count if anything still read it.
    const t = await hostedApp({ trustProxy: true });
    const urls = await urlsAnswered(t, EVIL);
    expect(urls.length).toBeGreaterThanOrEqual(6);
    for (const url of urls) {
      expect(url).not.toContain('evil.example');
      expect(url.startsWith(`${PUBLIC_URL}/`) || url === PUBLIC_URL).toBe(true);
    }
    expect(t.errors).toEqual([]);
  });

  it('When the same requests reach a local sandbox (no PUBLIC_URL), then its URLs follow the request as before', async () => {
    const t = await hostedApp({ hosted: false, publicUrl: undefined, trustProxy: true });
    const urls = await urlsAnswered(t, EVIL);
    for (const url of urls) expect(new URL(url).host).toBe('evil.example');
  });
});
