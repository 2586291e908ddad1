// The validator compiles an operation's request check on its first request, and the check of each status it answers
// on the first answer with that status (and then keeps them). Warming up sends each operation a request made from
// the contract's own examples through the validator's step alone (no handler runs, nothing is written), then the
// operation's example success answer through its response check. The validator compiles each component schema once
// and shares it among the checks that refer to it, so the warm-up first compiles the components a check uses that
// are not compiled yet, one a turn, those it refers to before it; the check itself then compiles only its own part.
// Each compile is made in a turn of the event loop of its own and only while the server has no request in flight, so
// a request waits behind one compile at most (one component or one check's own part, not an operation's all), and
// only when it comes in the middle of one.
import type { Server } from 'node:http';
import { Socket } from 'node:net';
import type { Express, Request, Response } from 'express';
import { IncomingMessage, ServerResponse } from '../node-http.js';
import { deref, isObj, listOperations, type ContractDocument, type ContractOperation } from '../contract/document/load-contract.js';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import type { ComponentSide, ContractValidator } from './contract-validator.js';
import type { RequestState } from './request-state.js';

type Obj = Record<string, unknown>;

/**
 * What warming up did: operations whose request and whose answer were checked (so their checks are compiled), and
 * the component schemas it compiled ahead of them.
 */
export interface WarmUpResult {
  operations: number;
  requestsChecked: number;
  answersChecked: number;
  componentsCompiled: number;
}

/** A warm-up under way. */
export interface WarmUp {
  /** Settles once every operation's checks are compiled (or the warm-up was stopped). */
  readonly done: Promise<WarmUpResult>;
  /** Stops before the next operation (a closing server does not compile what nobody will call). */
  stop(): void;
}

// How long a server that has not been asked anything yet waits before it warms up.
const QUIET_START_MS = 100;
// How long a server has had no request in flight before the warm-up compiles its next operation.
const QUIET_GAP_MS = 20;

/** Resolves once the warm-up may compile: resolved at once when nothing else runs (a test of the warm-up alone). */
export type WarmUpGate = () => Promise<void>;

/**
 * A gate that opens once `server` has had no request in flight for QUIET_GAP_MS: a compile takes the event loop for
 * its whole length, so it runs between a client's requests, never while one waits. An operation called before the
 * warm-up reached it compiles its checks on that call, as it would without a warm-up. `close` stops counting the
 * server's requests (once the warm-up is over, nothing waits at the gate, and no request should pay for it).
 */
export function quietServerGate(server: Server): WarmUpGate & { close(): void } {
  let inFlight = 0;
  let lastEnd = 0;
  const onRequest = (_req: unknown, res: { once(event: 'close', listener: () => void): unknown }) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      lastEnd = performance.now();
    });
  };
  server.on('request', onRequest);
  const gate = async () => {
    for (;;) {
      const quietFor = performance.now() - lastEnd;
      if (inFlight === 0 && quietFor >= QUIET_GAP_MS) return;
      await new Promise((resolve) => setTimeout(resolve, inFlight === 0 ? QUIET_GAP_MS - quietFor : QUIET_GAP_MS));
    }
  };
  return Object.assign(gate, { close: () => void server.off('request', onRequest) });
}

/**
 * `begin`'s warm-up, begun once the server has answered its first request (or has had none for a moment): the
 * request a client sends as soon as the port opens does not wait behind a step of it.
 */
export function warmUpAfterFirstAnswer(server: Server, begin: (gate: WarmUpGate) => WarmUp): WarmUp {
  const gate = quietServerGate(server);
  let started: WarmUp | undefined;
  let stopped = false;
  let settle!: (result: WarmUpResult) => void;
  const done = new Promise<WarmUpResult>((resolve) => (settle = resolve));
  void done.then(gate.close);
  const start = () => {
    clearTimeout(timer);
    server.off('request', onRequest);
    if (started || stopped) return;
    started = begin(gate);
    void started.done.then(settle);
  };
  const onRequest = (_req: unknown, res: { once(event: 'finish', listener: () => void): unknown }) => void res.once('finish', start);
  server.once('request', onRequest);
  const timer = setTimeout(start, QUIET_START_MS);
  return {
    done,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      server.off('request', onRequest);
      started?.stop();
      settle({ operations: 0, requestsChecked: 0, answersChecked: 0, componentsCompiled: 0 });
    },
  };
}

/** The readiness probe (GET /_sandbox/health): what `wait`, the CI action and a polling client ask first. */
const READINESS_OPERATION = 'getSandboxHealth';

/**
 * Makes the validator's set-up that every check shares (its request and response Ajv instances, each with the
 * contract's component schemas added), which it otherwise makes on the first request: startSandbox runs it as soon as
 * the server listens, while the first client is still connecting. It checks a synthetic request (no handler runs,
 * nothing is written) of the readiness probe, whose own check is among the smallest (no parameters, no body);
 * whatever the verdict, the set-up is made.
 */
export async function primeValidator(
  app: Express,
  doc: ContractDocument,
  facts: ReadonlyMap<string, OperationFacts>,
  validator: ContractValidator,
): Promise<void> {
  const operations = listOperations(doc);
  const op = operations.find((candidate) => candidate.operationId === READINESS_OPERATION) ?? operations[0];
  if (op === undefined) return;
  const { req, res } = syntheticExchange(app, doc, op, facts.get(op.operationId)!);
  await validator.check(req, res, () => {});
}

/** Starts warming up in the background (see warmUpValidator). */
export function startWarmUp(
  app: Express,
  doc: ContractDocument,
  facts: ReadonlyMap<string, OperationFacts>,
  validator: ContractValidator,
  gate?: WarmUpGate,
): WarmUp {
  const state = { stopped: false };
  return { done: warmUpValidator(app, doc, facts, validator, () => state.stopped, gate), stop: () => void (state.stopped = true) };
}

/**
 * Compiles every operation's request and response checks ahead of its first request. `app` gives the synthetic
 * requests Express's prototypes (the validator reads the app's routing settings through them).
 */
export async function warmUpValidator(
  app: Express,
  doc: ContractDocument,
  facts: ReadonlyMap<string, OperationFacts>,
  validator: ContractValidator,
  stopped: () => boolean = () => false,
  gate: WarmUpGate = async () => {},
): Promise<WarmUpResult> {
  const result: WarmUpResult = { operations: 0, requestsChecked: 0, answersChecked: 0, componentsCompiled: 0 };
  // One compile a turn of the event loop (setImmediate: I/O waiting in between goes first), and only while no
  // request is in flight (the gate); false once the warm-up is stopped.
  const mayCompile = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await gate();
    return !stopped();
  };
  // The components `schema` uses that this side has not compiled yet, each in a turn of its own; false once stopped.
  const compiled = new Set<string>();
  const compileComponents = async (side: ComponentSide, schema: unknown) => {
    for (const name of componentsOf(doc, schema)) {
      if (compiled.has(`${side} ${name}`)) continue;
      if (!(await mayCompile())) return false;
      // False before the validator made this side's checks (the first operation's own check then compiles them).
      if (!validator.compileComponent(side, name)) continue;
      compiled.add(`${side} ${name}`);
      result.componentsCompiled++;
    }
    return true;
  };
  for (const op of listOperations(doc)) {
    if (!(await compileComponents('request', jsonSchema(doc, op.operation.requestBody)))) break;
    if (!(await mayCompile())) break;
    result.operations++;
    const { req, res } = syntheticExchange(app, doc, op, facts.get(op.operationId)!);
    const verdict = await validator.check(req, res, () => {});
    // A request the examples cannot make valid still compiled its check; its answer's check waits for a real one.
    if (verdict.error !== undefined) continue;
    result.requestsChecked++;
    const success = op.statuses.find((status) => status >= 200 && status < 300);
    if (success === undefined) continue;
    // The answer's check is the next compile, in a turn of its own, after the components it uses.
    if (!(await compileComponents('response', jsonSchema(doc, op.operation.responses?.[String(success)])))) break;
    if (!(await mayCompile())) break;
    verdict.armResponseCheck();
    res.status(success);
    const example = exampleBody(doc, op.operation.responses?.[String(success)]);
    try {
      if (example === undefined) res.end();
      else res.json(example);
      result.answersChecked++;
    } catch {
      // An example the check refuses still compiled it.
    }
  }
  return result;
}

function syntheticExchange(app: Express, doc: ContractDocument, op: ContractOperation, facts: OperationFacts): { req: Request; res: Response } {
  const req = new IncomingMessage(new Socket()) as Request;
  Object.setPrototypeOf(req, app.request);
  const pathParams: Record<string, string> = {};
  const query = new URLSearchParams();
  const pathItem = doc.paths[op.path] as Obj;
  for (const raw of [...((pathItem.parameters as unknown[]) ?? []), ...((op.operation.parameters as unknown[]) ?? [])]) {
    const param = deref(doc, raw);
    if (!isObj(param)) continue;
    const value = exampleOf(doc, param);
    if (value === undefined) continue;
    if (param.in === 'path') pathParams[String(param.name)] = String(value);
    else if (param.in === 'query' && param.required === true) query.set(String(param.name), String(value));
  }
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name] ?? 'x'));
  req.method = op.method;
  req.url = req.originalUrl = path + (query.size > 0 ? `?${query}` : '');
  req.headers = { host: 'localhost' };
  const body = facts.body.json ? exampleBody(doc, op.operation.requestBody) : undefined;
  if (body !== undefined) {
    req.headers['content-type'] = 'application/json';
    req.headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)));
    req.body = body;
  }
  const state: RequestState = { tooling: false, files: [], operation: { id: op.operationId, facts, pathParams } };
  req.state = state;
  const res = new ServerResponse(req) as unknown as Response;
  Object.setPrototypeOf(res, app.response);
  Object.assign(req, { res });
  Object.assign(res, { req });
  return { req, res };
}

function exampleOf(doc: ContractDocument, param: Obj): unknown {
  const schema = deref(doc, param.schema);
  return param.example ?? (isObj(schema) ? (schema.example ?? schema.default) : undefined);
}

/** The JSON media type of a request body or a response. */
function jsonMedia(doc: ContractDocument, holder: unknown): Obj | undefined {
  const resolved = deref(doc, holder);
  const media = isObj(resolved) && isObj(resolved.content) ? deref(doc, resolved.content['application/json']) : undefined;
  return isObj(media) ? media : undefined;
}

/** The JSON schema of a request body or a response. */
const jsonSchema = (doc: ContractDocument, holder: unknown): unknown => jsonMedia(doc, holder)?.schema;

const COMPONENT_REF = /^#\/components\/schemas\/([^/~%#]+)$/;

/**
 * The names of the component schemas `schema` refers to, directly or through other components, each after those it
 * refers to: compiled in this order, each component's compile finds the ones it calls compiled already.
 */
export function componentsOf(doc: ContractDocument, schema: unknown): string[] {
  const schemas = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  const order: string[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObj(node)) return;
    const name = typeof node.$ref === 'string' ? COMPONENT_REF.exec(node.$ref)?.[1] : undefined;
    if (name !== undefined && !seen.has(name) && isObj(schemas[name])) {
      seen.add(name);
      walk(schemas[name]);
      order.push(name);
    }
    for (const [key, value] of Object.entries(node)) if (key !== '$ref' && key !== 'example' && key !== 'examples') walk(value);
  };
  walk(schema);
  return order;
}

/** The JSON example of a request body or a response: `example`, else the first of `examples`. */
function exampleBody(doc: ContractDocument, holder: unknown): unknown {
  const media = jsonMedia(doc, holder);
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = isObj(media.examples) ? deref(doc, Object.values(media.examples)[0]) : undefined;
  return isObj(first) ? first.value : undefined;
}
