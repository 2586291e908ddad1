// The image's HEALTHCHECK asks /_sandbox/health every 10 s (and `commerce-operations-sandbox wait` polls it): each
// probe was a journal entry of the default world and an info log line, so an idle container's journal filled with
// probes (its 1,000 entries in under three hours), the inspector listed one every 10 s between the client's
// requests, and `docker logs` scrolled with them. A probe is the infrastructure asking, not a client's request.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

describe('the readiness probe', () => {
  it('When /_sandbox/health is polled, then the journal does not list it and its log lines are debug, while a client request beside it is listed and logged', async () => {
    const lines: string[] = [];
    const t = await testApp({ logLevel: 'debug' }, { requestLog: (line) => lines.push(line) });
    for (let i = 0; i < 3; i++) await request(t.app).get('/_sandbox/health').expect(200);
    await request(t.app).head('/_sandbox/health').expect(200);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    const journal = await request(t.app).get('/_sandbox/requests').set(t.auth('owner')).expect(200);
    expect(journal.body.data.map((e: { path: string }) => e.path)).toEqual(['/2024-09/merchants']);
    const levels = lines.map((l) => JSON.parse(l) as { level: string; path: string }).filter((l) => l.path !== '/_sandbox/requests');
    expect(levels.map((l) => `${l.level} ${l.path}`)).toEqual([
      'debug /_sandbox/health',
      'debug /_sandbox/health',
      'debug /_sandbox/health',
      'debug /_sandbox/health',
      'info /2024-09/merchants',
    ]);
  });

  it('When the probe is refused (strict mode, a query it does not take), then its log line stays info', async () => {
    const lines: string[] = [];
    const t = await testApp({ logLevel: 'info', strict: true }, { requestLog: (line) => lines.push(line) });
    await request(t.app).get('/_sandbox/health?probe=1').expect(422);
    expect(lines.map((l) => JSON.parse(l).path)).toEqual(['/_sandbox/health']);
  });
});
