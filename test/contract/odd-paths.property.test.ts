// Path parameters as clients type them (Postman sends path variables verbatim): undecodable escapes, a lone `%`,
// overlong UTF-8 and encoded slashes, in every path parameter of every operation of the contract. Each answers as a
// malformed value of that parameter does: a documented status, JSON with a `message`, and field names from the
// contract, never from the URL.
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { contractOperations, paramsOf } from '../helpers/contract-requests.js';
import { testApp } from '../helpers/app.js';

const ODD = ['%ZZ', '%', '%C0%AF', 'a%2Fb', '%2F', '%E0%A4%A', 'x%', '%%41', '%u0041', '..%2F..%2Fetc'];
const withPathParams = contractOperations.filter((op) => paramsOf(op).some((p) => p.in === 'path'));

describe('odd path segments', () => {
  it('When any path parameter of any operation holds an undecodable or odd escape, then it answers as a plainly malformed value does: documented, with a message, naming only contract fields', async () => {
    const t = await testApp();
    const cases = withPathParams.flatMap((op) =>
      paramsOf(op)
        .filter((p) => p.in === 'path')
        .map((param) => ({ op, param })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.constantFrom(...ODD), fc.constantFrom('', 'x', '1'), async ({ op, param }, odd, around) => {
        const send = (value: string) => {
          let url = op.path;
          for (const p of paramsOf(op).filter((q) => q.in === 'path')) {
            url = url.replace(`{${p.name}}`, p.name === param.name ? value : encodeURIComponent(String(p.example ?? 'x')));
          }
          return (request(t.app) as unknown as Record<string, (u: string) => request.Test>)[op.method.toLowerCase()]!(url)
            .set('Authorization', 'Bearer demo-owner-token')
            .set('Content-Type', 'application/json')
            .send('{}');
        };
        // The answer to a plainly malformed value of the same parameter is the one to match.
        const plain = await send(`${around}not-valid`);
        const res = await send(`${around}${odd}`);
        const seen = `${op.operationId} ${op.method} ${param.name}=${around}${odd} -> ${res.status} ${res.text.slice(0, 200)} (plain ${plain.status})`;
        expect(res.status, seen).toBeLessThan(500);
        expect(op.statuses, seen).toContain(res.status);
        if (param.schema?.format === 'uuid') expect(res.status, seen).toBe(404);
        // An encoded slash is a slash inside the value (the relay's endpoint takes them); anything else answers as
        // the plain malformed value does.
        if (!odd.includes('%2F')) expect(res.status, seen).toBe(plain.status);
        if (res.status >= 400) expect(res.body.message, seen).toEqual(expect.any(String));
        const names = new Set([...paramsOf(op).map((p) => p.name), 'body', 'Prefer']);
        for (const field of Object.keys(res.body.errors ?? {})) expect(names.has(field.split('.')[0]!) || field.startsWith('body'), seen).toBe(true);
        if (res.status >= 400) expect(res.body.message, seen).not.toContain(odd);
      }),
      { numRuns: 300, seed: 20240901 },
    );
    expect(t.errors).toEqual([]);
  });

  it('When every path parameter of an operation holds an undecodable escape, then it answers a documented error with a message that does not echo the escape (every operation, each escape)', async () => {
    const t = await testApp();
    const seen: string[] = [];
    for (const op of withPathParams) {
      for (const odd of ['%ZZ', '%', '%C0%AF']) {
        const url = paramsOf(op)
          .filter((p) => p.in === 'path')
          .reduce((u, p) => u.replace(`{${p.name}}`, odd), op.path);
        const res = await (request(t.app) as unknown as Record<string, (u: string) => request.Test>)[op.method.toLowerCase()]!(url).set(
          'Authorization',
          'Bearer demo-owner-token',
        );
        if (
          !op.statuses.includes(res.status) ||
          res.status >= 500 ||
          typeof res.body.message !== 'string' ||
          JSON.stringify(res.body).includes(odd === '%' ? '.%' : odd)
        ) {
          seen.push(`${op.operationId} ${url} -> ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(seen).toEqual([]);
    expect(t.errors).toEqual([]);
  });
});
