import request from 'supertest';
import { it } from 'vitest';
import { demo, testApp } from '../helpers/app.js';
it('probe', async () => {
  const t = await testApp();
  const p = (await request(t.app).get('/2024-09/products').query({ merchant_id: demo.merchant }).set(t.auth('owner'))).body.data[0].id;
  for (const [m, path] of [['put', `/2024-09/products/${p}`], ['put', '/2024-09/users/current'], ['post', '/2024-09/merchants'], ['post', '/_sandbox/clock/advance'], ['get', '/2024-09/products/%ZZ'], ['get', '/2024-09/products/%C0%AF'], ['get', '/2024-09/products/a%2Fb'], ['get', '/2024-09/products/%'], ['get', '/_sandbox/workspaces/%ZZ'], ['get', '/2024-09/merchants/%ZZ/users']] as const) {
    for (const [label, fn] of [
      ['none', (r: any) => r],
      ['empty json', (r: any) => r.set('Content-Type', 'application/json')],
      ['null', (r: any) => r.set('Content-Type', 'application/json').send('null')],
      ['ws', (r: any) => r.set('Content-Type', 'application/json').send('  \n ')],
    ] as const) {
      const res = await fn((request(t.app) as any)[m](path).set(t.auth('owner')));
      console.log(m, path, label, res.status, JSON.stringify(res.body).slice(0, 160));
      if (m === 'get') break;
    }
  }
  console.log(t.errors.join('\n').slice(0, 2000));
});
