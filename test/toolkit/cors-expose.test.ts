import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

const RELAY = '/2024-09/channels/retailer/cccccccc-cccc-4ccc-8ccc-ccccccccc001/call/sellers%2Fv1%2FmarketplaceParticipations';
const exposed = (res: request.Response) => String(res.headers['access-control-expose-headers'] ?? '').split(/,\s*/);

describe('CORS on the sandbox app', () => {
  it('When a browser on another origin relays a call, then the headers it needs are exposed to its script', async () => {
    const t = await testApp();
    const res = await request(t.app).get(RELAY).set(t.auth('owner')).set('Origin', 'https://docs.example.com').set('Prefer', 'retailer-fault=throttle');
    expect(res.status).toBe(429);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    for (const header of ['X-Retailer-Status', 'Retry-After', 'Preference-Applied', 'Sandbox-Prefer-Ignored', 'Location']) {
      expect(exposed(res)).toContain(header);
    }
    expect(res.headers['retry-after']).toBe('1');
  });

  it('When the origin is on a configured list, then it is echoed and the same headers are exposed', async () => {
    const t = await testApp({ corsOrigins: ['https://docs.example.com'] });
    const res = await request(t.app).get(RELAY).set(t.auth('owner')).set('Origin', 'https://docs.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://docs.example.com');
    expect(exposed(res)).toEqual(expect.arrayContaining(['X-Retailer-Status', 'Retry-After', 'Preference-Applied']));
    expect(res.headers['x-retailer-status']).toBe('200');
  });
});
