// Body fields `secret`, `private_key`, `session_token` and the `x-amz-access-token` header and query were kept in
// clear in the journal. Every secret-like name is redacted, at any depth and whatever its case, in the journal and
// in the log line, by one module (src/observe/redact.ts).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const NAMES = [
  'secret',
  'client_secret',
  'Password',
  'session_token',
  'sessionToken',
  'private_key',
  'API_KEY',
  'state',
  'x-amz-access-token',
  'X-Amz-Access-Token',
];
// Every value is unique, so a leak of any one is found by its value alone.
const leakValue = (name: string, where: string) => `leak-${where}-${name.toLowerCase().replace(/[^a-z]/g, '')}-${name.length}`;

async function sentWithSecrets() {
  const lines: string[] = [];
  const t = await testApp({ logLevel: 'info' }, { requestLog: (line) => lines.push(line) });
  const query = Object.fromEntries(NAMES.map((n) => [n, leakValue(n, 'query')]));
  const body = {
    merchant_id: MERCHANT,
    name: 'Redaction probe',
    ...Object.fromEntries(NAMES.map((n) => [n, leakValue(n, 'top')])),
    nested: { deeper: [{ ...Object.fromEntries(NAMES.map((n) => [n, leakValue(n, 'deep')])) }] },
  };
  await request(t.app)
    .post('/2024-09/products')
    .query(query)
    .set(t.auth('owner'))
    .set('x-amz-access-token', 'leak-header-amz')
    .set('X-Api-Key', 'leak-header-apikey')
    .set('Referer', `http://127.0.0.1/_retailer/authorize?application_id=a&state=leak-referer-state`)
    .send(body);
  const [entry] = t.runtime.observations.journal.list({ method: 'POST', path: '/2024-09/products' });
  return { entry: entry!, lines, journalText: JSON.stringify(entry), logText: lines.join('\n') };
}

describe('secret-like names are redacted in the journal and the log', () => {
  it.each(NAMES)('When %s is sent in the query and in the body at any depth, then neither the journal nor the log holds its value', async (name) => {
    const { entry, journalText, logText } = await sentWithSecrets();
    for (const where of ['query', 'top', 'deep']) {
      expect(journalText).not.toContain(leakValue(name, where));
      expect(logText).not.toContain(leakValue(name, where));
    }
    expect((entry.request.query as Record<string, unknown>)[name]).toBe('[REDACTED]');
    expect((entry.request.body as Record<string, unknown>)[name]).toBe('[REDACTED]');
  });

  it('When secrets travel in headers (x-amz-access-token, an API key, a Referer with a state), then the journal keeps none', async () => {
    const { entry, journalText, logText } = await sentWithSecrets();
    expect(entry.request.headers['x-amz-access-token']).toBe('[REDACTED]');
    expect(entry.request.headers['x-api-key']).toBe('[REDACTED]');
    expect(entry.request.headers.referer).toBe('http://127.0.0.1/_retailer/authorize?application_id=a&state=[REDACTED]');
    expect(journalText).not.toMatch(/leak-header|leak-referer|demo-owner-token/);
    expect(logText).not.toMatch(/leak-/);
    // The log line is there, with the query's other parts: the absence above is redaction, not a missing line.
    expect(logText).toContain('"path":"/2024-09/products"');
    expect(logText).toContain('x-amz-access-token=[REDACTED]');
  });
});

describe('a secret named inside a bracketed query parameter is redacted in the log as in the journal', () => {
  // page[password] breaks `page` (422): the refusal's trail holds the value sent, redacted too.
  it.each(['filter[access_token]', 'a[b][client_secret]', '__proto__[token]', 'page[password]'])(
    'When %s is sent in the query, then neither the log line nor the journal holds its value, and a plain parameter stays',
    async (name) => {
      const lines: string[] = [];
      const t = await testApp({ logLevel: 'info' }, { requestLog: (line) => lines.push(line) });
      await request(t.app).get(`/2024-09/merchants?${name}=leak-nested-query&per_page=5`).set(t.auth('owner'));
      const [entry] = t.runtime.observations.journal.list({ path: '/2024-09/merchants' });
      expect(entry).toBeDefined();
      expect(JSON.stringify(entry)).not.toContain('leak-nested-query');
      const logText = lines.join('\n');
      expect(logText).toContain('per_page=5');
      expect(logText).not.toContain('leak-nested-query');
    },
  );
});

describe('a credential under another header than Authorization is redacted', () => {
  // A proxy forwards the client's credential as X-Forwarded-Authorization (or X-Original-Authorization); a Basic
  // credential has no `Bearer` to be known by. Both were journaled in clear.
  it.each([
    ['X-Forwarded-Authorization', 'Basic bGVhay1mb3J3YXJkZWQ6cGFzcw=='],
    ['X-Original-Authorization', 'Digest username="leak-digest", response="leak-response"'],
    ['X-Upstream-Credential', 'Basic bGVhay11cHN0cmVhbTpwYXNz'],
  ])('When %s carries a credential, then the journal keeps its scheme and never its value', async (header, value) => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set(header, value).set('X-Request-Id', 'cred').expect(200);
    const [entry] = t.runtime.observations.journal.list({ path: '/2024-09/merchants' });
    const kept = entry!.request.headers[header.toLowerCase()];
    expect(kept).toBe(`${value.split(' ')[0]} [REDACTED]`);
    expect(JSON.stringify(entry)).not.toMatch(/bGVhay|leak-/);
  });

  it('When an ordinary header reads like a word after "Basic", then it is kept as sent', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('X-Plan', 'Basic plan, monthly').expect(200);
    const [entry] = t.runtime.observations.journal.list({ path: '/2024-09/merchants' });
    expect(entry!.request.headers['x-plan']).toBe('Basic plan, monthly');
  });
});
