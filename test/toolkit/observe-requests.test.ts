import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { listOperations, type ContractDocument } from '../../src/contract/document/load-contract.js';
import { createRequestLogger } from '../../src/observe/request-log.js';
import { CoverageTracker } from '../../src/observe/world-observations.js';
import { keepJsonBodies, observeRequests, unjournaled } from '../../src/observe/observe-requests.js';
import { RequestJournal } from '../../src/observe/request-journal.js';
import type { OperationFacts } from '../../src/contract/document/operation-facts.js';
import { newRequestState } from '../../src/pipeline/handle-request.js';
import { demo, testApp } from '../helpers/app.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/2024-09/channels': { post: { operationId: 'createChannel', responses: { '200': {}, '401': {}, '422': {} } } },
    '/_sandbox/requests': { get: { operationId: 'listSandboxRequests', responses: { '200': {} } } },
  },
};

function setup(logLevel: 'debug' | 'info' | 'warn' = 'info') {
  const journal = new RequestJournal();
  const coverage = new CoverageTracker(listOperations(spec as ContractDocument));
  const lines: string[] = [];
  const app = express();
  app.use(express.json());
  keepJsonBodies(app);
  app.use(
    observeRequests({
      journal,
      coverage,
      logger: createRequestLogger({ level: logLevel, write: (l) => lines.push(l) }),
      workspaceOf: (req) => req.get('x-test-workspace') ?? undefined,
      // As the contract declares it (x-sandbox-journaled: false), by the operation matched.
      skipJournal: unjournaled,
    }),
  );
  // Stands in for the pipeline's routing, which puts the matched operation in the request's state.
  app.use((req, _res, next) => {
    const op = req.path === '/2024-09/channels' ? 'createChannel' : req.path === '/_sandbox/requests' ? 'listSandboxRequests' : undefined;
    const facts = { journaled: op !== 'listSandboxRequests' } as OperationFacts;
    req.state = { ...newRequestState(), ...(op ? { operation: { id: op, facts, pathParams: {} } } : {}) };
    next();
  });
  app.post('/2024-09/channels', (req, res) => {
    if (!req.body?.name) {
      res.status(422).json({ message: 'The name field is required.', errors: { name: ['The name field is required.'] } });
      return;
    }
    res.json({ data: { id: 'c1', name: req.body.name } });
  });
  app.get('/_sandbox/requests', (_req, res) => {
    res.json({ data: journal.list() });
  });
  return { app, journal, coverage, lines };
}

describe('observeRequests', () => {
  it('When a request finishes, then journal, coverage and log all see it with its operationId and status', async () => {
    const { app, journal, coverage, lines } = setup();
    await request(app)
      .post('/2024-09/channels?access_token=leak')
      .set('Authorization', 'Bearer demo-owner-token')
      .set('x-test-workspace', 'ws-1')
      .send({ name: 'My store', refresh_token: 'r' })
      .expect(200);

    const [entry] = journal.list();
    expect(entry).toMatchObject({
      workspace: 'ws-1',
      method: 'POST',
      path: '/2024-09/channels',
      operation_id: 'createChannel',
      status: 200,
      request: { query: { access_token: '[REDACTED]' }, body: { name: 'My store', refresh_token: '[REDACTED]' } },
      response: { body: { data: { id: 'c1', name: 'My store' } } },
    });
    expect(entry!.request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(entry!.duration_ms).toBeGreaterThanOrEqual(0);

    const op = coverage.report().operations.find((o) => o.operation_id === 'createChannel')!;
    expect(op.answered).toEqual(['200']);

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ method: 'POST', path: '/2024-09/channels', operation_id: 'createChannel', status: 200, workspace: 'ws-1' });
    expect(lines[0]).not.toMatch(/leak|demo-owner-token/);
  });

  it('When the journal itself is read, then the read is counted and logged at debug but not journaled', async () => {
    const { app, journal, coverage, lines } = setup('debug');
    await request(app).post('/2024-09/channels').send({}).expect(422);
    await request(app).get('/_sandbox/requests').expect(200);
    expect(journal.list().map((e) => e.status)).toEqual([422]);
    expect(coverage.report().operations.find((o) => o.operation_id === 'listSandboxRequests')!.answered).toEqual(['200']);
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['info', 'debug']);
  });

  it('When no operation matched, then the journal has operation_id null and coverage is untouched', async () => {
    const { app, journal, coverage } = setup();
    await request(app).get('/2024-09/nowhere').expect(404);
    expect(journal.list()[0]).toMatchObject({ operation_id: null, status: 404, workspace: 'default' });
    expect(coverage.report().totals.operations_exercised).toBe(0);
  });

  it('When the log level is warn, then ordinary request lines are not printed', async () => {
    const { app, lines } = setup('warn');
    await request(app).post('/2024-09/channels').send({ name: 'x' }).expect(200);
    expect(lines).toEqual([]);
  });
});

describe('The app keeping its JSON answers for the journal', () => {
  // A function left on each answered response kept much of every request alive through V8's young-generation
  // collections (keepJsonBodies says why): the bodies are kept once, on the app's response prototype.
  it('When an operation, a refused request and an unknown path were answered, then no response keeps a res.json of its own', async () => {
    const t = await testApp();
    const answered: ServerResponse[] = [];
    t.app.on('request', (_req: IncomingMessage, res: ServerResponse) => res.once('finish', () => answered.push(res)));
    await request(t.app).get('/2024-09/users/current').set('Authorization', `Bearer ${demo.owner.token}`).expect(200);
    await request(t.app).post('/2024-09/merchants').set('Authorization', `Bearer ${demo.owner.token}`).send({}).expect(422);
    await request(t.app).get('/nowhere').expect(404);
    expect(answered).toHaveLength(3);
    for (const res of answered) expect((res as ServerResponse & { json: unknown }).json).toBe((Object.getPrototypeOf(res) as { json: unknown }).json);
    const bodies = (await request(t.app).get('/_sandbox/requests').set('Authorization', `Bearer ${demo.owner.token}`).expect(200)).body.data.map(
      (entry: { response: { body: unknown } }) => entry.response.body,
    );
    expect(bodies).toHaveLength(3);
    for (const body of bodies) expect(body).toBeTypeOf('object');
    expect(bodies).not.toContain(null);
    expect(bodies.some((body: { data?: { id?: string } }) => body.data?.id === demo.owner.id)).toBe(true);
  });
});
