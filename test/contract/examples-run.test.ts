// Every example of the contract runs as written, through swagger-client (the library Swagger UI's "Try it out"
// executes with): each operation's parameter and body examples, sent as the demo owner to a freshly reset demo
// world, answer the operation's success status; every 405 example is the answer its own path gives.
import { request as httpRequest } from 'node:http';
import SwaggerClient from 'swagger-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { contractOperations, deref, paramsOf } from '../helpers/contract-requests.js';
import { exampleCall, parameterExample, type ExampleCall } from '../helpers/example-requests.js';
import { contract } from '../helpers/app.js';

type Obj = Record<string, unknown>;

describe('Every example runs through swagger-client on the demo world', () => {
  let sandbox: RunningSandbox;
  let spec: unknown;

  beforeAll(async () => {
    sandbox = await startSandbox({ contract, logLevel: 'silent' });
    const { doc } = loadContract();
    spec = (await SwaggerClient.resolve({ spec: { ...doc, servers: [{ url: sandbox.url }] } })).spec;
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  const execute = (call: ExampleCall) =>
    SwaggerClient.execute({
      spec,
      operationId: call.operationId,
      parameters: call.parameters,
      ...(call.requestBody !== undefined && { requestBody: call.requestBody, requestContentType: call.requestContentType }),
      securities: { authorized: { bearerAuth: { value: sandbox.tokens.owner } } },
    }).catch((error: { response?: { status: number; text: string } }) => {
      if (!error.response) throw error;
      return error.response;
    });

  it('When the contract is read, then every path and query parameter has an example, and the workspace ones name `default`, but the one to delete names `example`', () => {
    const missing: string[] = [];
    for (const op of contractOperations) {
      for (const param of paramsOf(op)) {
        if (param.in !== 'path' && param.in !== 'query') continue;
        const example = parameterExample(param as unknown as Obj);
        if (example === undefined) missing.push(`${op.operationId} ${param.name}`);
        if (param.name === 'workspace')
          expect(example, `${op.operationId} workspace`).toBe(op.operationId === 'deleteSandboxWorkspace' ? 'example' : 'default');
      }
    }
    expect(missing).toEqual([]);
  });

  for (const op of contractOperations) {
    it(`When ${op.operationId}'s examples are executed on a freshly reset demo world, then it answers its success status`, async () => {
      await sandbox.reset();
      const call = exampleCall(op);
      const res = await execute(call);
      expect(res.status, `${op.operationId} ${JSON.stringify(call.parameters)}: ${String(res.text).slice(0, 300)}`).toBe(call.success);
    });
  }
});

/** Sends one request over node:http (fetch refuses TRACE), answering status, Allow and the parsed body. */
function send(base: string, method: string, path: string, token: string): Promise<{ status: number; allow?: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("Each operation's 405 example names its own path and is the answer that path gives", () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ contract, logLevel: 'silent' });
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  for (const op of contractOperations) {
    it(`When ${op.operationId}'s 405 example is sent, then the sandbox answers it word for word`, async () => {
      const response = deref(op.operation.responses?.['405'] as Obj) as { content: { 'application/json': { example: { message: string } } } };
      const example = response.content['application/json'].example;
      const [, method, path] = /^The (\w+) method is not supported for route (\S+)\.$/.exec(example.message)!;
      // Its own path: the operation's path template with its parameters filled in.
      const template = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      expect(path, op.operationId).toMatch(template);
      const res = await send(sandbox.url, method!, path!, sandbox.tokens.owner);
      expect(res.status).toBe(405);
      expect(res.body).toEqual(example);
      expect(res.allow).toBeTruthy();
    });
  }
});
