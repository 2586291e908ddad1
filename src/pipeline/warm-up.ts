// express-openapi-validator compiles an operation's request and response validators on the operation's first
// request, which would make every first call of every operation slow. After the server listens, this sends one
// request per operation through the contract's checks only (never a handler, so no world, journal, coverage or
// log sees it), one step a turn of the event loop, so a request that arrives meanwhile waits for one step at most.
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import express, { type Express, type Request, type Response } from 'express';
import { deref, isObj, listOperations, type ContractDocument, type ContractOperation } from '../contract/document/load-contract.js';

/** The contract's checks of one request: routing and request validation run, and the response check is armed on res.json. No handler runs. */
export type ContractCheck = (req: Request, res: Response) => Promise<void>;

/** A warm-up under way. */
export interface WarmUp {
  /** Settles once every operation's validators are compiled (or the warm-up was stopped). */
  readonly done: Promise<void>;
  /** Stops before the next step (a closing server does not compile what nobody will call). */
  stop(): void;
}

/** One operation's request as the warm-up sends it: its path with every parameter filled, and the body type it takes. */
interface WarmUpCall {
  method: string;
  url: string;
  contentType?: string;
  status: number;
}

/** Runs `step` for each item, one a turn of the event loop (setImmediate: I/O waiting in between goes first). */
function eachTurn<T>(items: readonly T[], step: (item: T) => Promise<void>, stopped: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    let i = 0;
    const next = () => {
      if (stopped() || i >= items.length) return resolve();
      step(items[i++]!).then(
        () => setImmediate(next),
        () => setImmediate(next),
      );
    };
    setImmediate(next);
  });
}

/**
 * Compiles every operation's request and response validators in the background, through `check` on requests
 * made with the app's own request prototype (the validator reads the app's routing settings from it).
 */
export function warmUpContract(app: Express, doc: ContractDocument, check: ContractCheck): WarmUp {
  let stopped = false;
  const steps = warmUpCalls(doc).flatMap((call) => {
    const { req, res } = fakeExchange(app, call);
    // Two steps an operation: the request's validators, then (on the armed res.json) the response's.
    return [() => check(req, res), async () => void res.status(call.status).json({})];
  });
  const done = eachTurn(
    [readJsonOnce, ...steps],
    (step) => step(),
    () => stopped,
  );
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * Reads one JSON body with Express's parser as shipped, off any socket: its first read loads the text decoders,
 * which the first call with a body would otherwise wait for.
 */
function readJsonOnce(): Promise<void> {
  const body = Buffer.from('{}');
  const req = Object.assign(Readable.from([body]), {
    method: 'POST',
    url: '/',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
  });
  return new Promise((resolve) => void express.json()(req as unknown as Request, {} as Response, () => resolve()));
}

// How long a server that has not been asked anything yet waits before it warms up.
const QUIET_START_MS = 100;

/**
 * `begin`'s warm-up, begun once the server has answered its first request (or has had none for a moment): the
 * request a client sends as soon as the port opens does not wait behind a step of it.
 */
export function warmUpAfterFirstAnswer(server: Server, begin: () => WarmUp): WarmUp {
  let started: WarmUp | undefined;
  let stopped = false;
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const start = () => {
    clearTimeout(timer);
    server.off('request', onRequest);
    if (started || stopped) return;
    started = begin();
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
      settle();
    },
  };
}

/** Every operation's warm-up request: path parameters from their examples (any text routes), the first body type. */
export function warmUpCalls(doc: ContractDocument): WarmUpCall[] {
  return listOperations(doc).map((op) => ({
    method: op.method,
    url: concretePath(doc, op),
    contentType: bodyType(doc, op),
    status: op.statuses.find((s) => s >= 200 && s < 300) ?? op.statuses[0] ?? 200,
  }));
}

function concretePath(doc: ContractDocument, op: ContractOperation): string {
  const item = doc.paths[op.path] as { parameters?: unknown[] };
  const params = [...(item.parameters ?? []), ...((op.operation.parameters as unknown[] | undefined) ?? [])].map((p) => deref(doc, p));
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = params.find((p) => isObj(p) && p.in === 'path' && p.name === name) as { example?: unknown } | undefined;
    return encodeURIComponent(String(param?.example ?? 'x'));
  });
}

function bodyType(doc: ContractDocument, op: ContractOperation): string | undefined {
  const body = deref(doc, op.operation.requestBody);
  const content = isObj(body) && isObj(body.content) ? Object.keys(body.content) : [];
  return content[0];
}

/**
 * A request and a response that never touch a socket: the request has the app's prototype (req.app, req.path,
 * req.is), the response only what the validator's response check calls, each doing nothing.
 */
function fakeExchange(app: Express, call: WarmUpCall): { req: Request; res: Response } {
  const headers: Record<string, string> = { host: 'localhost', ...(call.contentType && { 'content-type': call.contentType }) };
  const req = Object.create(app.request) as Request;
  Object.assign(req, { method: call.method, url: call.url, originalUrl: call.url, baseUrl: '', headers, params: {}, body: call.contentType ? {} : undefined });
  const resHeaders = new Map<string, unknown>();
  const res = {
    req,
    locals: {},
    statusCode: 200,
    headersSent: false,
    getHeaders: () => Object.fromEntries(resHeaders),
    getHeader: (name: string) => resHeaders.get(name.toLowerCase()),
    setHeader(name: string, value: unknown) {
      resHeaders.set(name.toLowerCase(), value);
      return this;
    },
    removeHeader: (name: string) => void resHeaders.delete(name.toLowerCase()),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    set() {
      return this;
    },
    append() {
      return this;
    },
    json() {
      return this;
    },
    send() {
      return this;
    },
    end() {
      return this;
    },
  };
  Object.assign(req, { res });
  return { req, res: res as unknown as Response };
}
