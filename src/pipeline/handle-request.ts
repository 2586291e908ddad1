// The one request function: the service's order of checks, top to bottom, each step a named function. Everything
// after routing keys on the operation the request matched, never on how its path is spelled.
import type { IncomingMessage } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Runtime } from '../runtime.js';
import { checkHandlerMap, runsOutsideTransaction, type Handlers } from '../areas/handler-map.js';
import { recordQuotaOperations } from '../contract/record-quota.js';
import { checkTextMedia } from './text-media.js';
import { authenticateBearer } from '../access/auth.js';
import { bindingPlans, resolveBindings, type BindingPlan } from '../access/record-bindings.js';
import type { RouteBindingTable } from '../areas/route-bindings.js';
import { createCtx, type Ctx } from '../areas/context.js';
import { authorizeOperation, controlPlaneWorkspace } from '../access/control-plane-access.js';
import { notFound } from '../http/errors.js';
import { reportIgnored } from '../observe/ignored-fields.js';
import { sendReply, type Reply } from '../http/reply.js';
import { heavyLanesOf } from '../http/heavy-lanes.js';
import { turnsOf } from '../http/turn-queue.js';
import { bundleFrame, withItems } from '../sandbox/bundle-parts.js';
import { preferCodeStep } from '../knobs/prefer-code.js';
import { prefersStrict } from '../knobs/prefer-header.js';
import { rawRelayAsEncoded } from '../areas/channels/raw-relay-rewrite.js';
import { waitForKnobs } from '../knobs/scenario-knobs.js';
import { workspaceIdOf, type World } from '../world.js';
import { isObj } from '../contract/document/load-contract.js';
import { refusesField } from '../http/validation-errors.js';
import { contractValidator, type Verdict } from './contract-validator.js';
import { bodyReader, refusesBodyForm, requireBody } from './read-body.js';
import { reserveForBody } from './body-budget.js';
import type { MatchedOperation, RequestState } from './request-state.js';
import { compileRoutes, MethodNotAllowed } from './route-operation.js';
import { primeValidator, startWarmUp, type WarmUp, type WarmUpGate } from './validator-warm-up.js';
import { requestTrails, type Trail } from './request-trail.js';
import { ReplayCache, type KeptAnswer } from './replay-cache.js';

type AnyHandler = (input: unknown, ctx: Ctx) => Reply | Promise<Reply>;

/** The pipeline as Express mounts it, with the warm-up of what it compiles on first use. */
export interface RequestPipeline extends RequestHandler {
  /**
   * Starts compiling every operation's request and response checks in the background (one operation per turn of
   * the event loop), instead of on each operation's first request (src/pipeline/validator-warm-up.ts). startSandbox
   * calls it once the server listens.
   */
  warmUp(app: Express, gate?: WarmUpGate): WarmUp;
  /** Makes the validator's shared set-up before any request (src/pipeline/validator-warm-up.ts, primeValidator). */
  primeValidator(app: Express): Promise<void>;
  /** The trail of an answered request (src/pipeline/request-trail.ts), for the journal. */
  trailOf(req: Request, res: Response): Trail | undefined;
  /** The answers kept for the replay step (src/pipeline/replay-cache.ts); tests read its stats. */
  replays: ReplayCache;
}

/** A request's fresh state (src/pipeline/request-state.ts). */
export function newRequestState(): RequestState {
  return { tooling: false, files: [] };
}

/** The first step of the app: gives the request its state, which every later step fills in or reads. */
export function attachRequestState(req: IncomingMessage, _res: unknown, next: () => void): void {
  req.state = newRequestState();
  next();
}

/**
 * The sandbox's operations as one Express handler over a runtime: everything about the contract is compiled here,
 * once (routes, record bindings, the validator, the Prefer knobs). `handlerMap` is the handlers by operationId;
 * `bindings` what each path parameter names.
 */
export function handleRequests(runtime: Runtime, handlerMap: Handlers, bindings: RouteBindingTable): RequestPipeline {
  const { contract: doc, config, worlds, policy } = runtime;
  checkHandlerMap(doc, handlerMap);
  const handlers = handlerMap as unknown as Record<string, AnyHandler>;
  // Prefer: code answers the documented example, and a bad knob 422 where the operation documents one.
  const preferCode = preferCodeStep(doc);
  // Handlers that manage the store themselves (reset, workspaces) run outside a transaction.
  const outsideTransaction = new Set(Object.keys(handlers).filter((id) => runsOutsideTransaction(handlers[id])));
  const plans = bindingPlans(doc, bindings);
  const withQuota = recordQuotaOperations(doc);
  const routeOperation = compileRoutes(doc, runtime.operations);
  // Loads and exports take their turns of the event loop from one queue (src/http/turn-queue.ts).
  const turns = turnsOf(runtime.shared);
  // A bundle's body, once read, is parsed and loaded in one of the few lanes loads and exports share (src/http/heavy-lanes.ts).
  const readBody = bodyReader(config, turns, heavyLanesOf(runtime.shared));
  // Strict mode: the server's --strict, or the request's `Prefer: strict` (the versioned API's knobs only).
  const validator = contractValidator({
    doc,
    middleware: runtime.compiled.validator,
    strictOf: (req) => config.strict || (req.state?.prefer !== undefined && prefersStrict(req.state.prefer)),
  });
  const trails = requestTrails(doc);
  const replays = new ReplayCache(doc);

  /**
   * Routing: the operation of the method and path (404, 405). A path no route matches may be the raw relay form,
   * routed as its encoded spelling (src/areas/channels/raw-relay-rewrite.ts).
   */
  const route = (req: Request): MatchedOperation => routeOperation(req.method, pathOf(req), () => (rawRelayAsEncoded(req) ? pathOf(req) : undefined));

  /**
   * The Prefer knobs of an operation that takes them, and the delay they ask for, before any work. A request that
   * sends no Prefer header has no knobs: nothing to parse, wait for or answer (undefined: no promise to wait on).
   */
  const readKnobs = (req: Request, state: RequestState): Promise<void> | undefined =>
    state.operation!.facts.knobs && req.headers.prefer !== undefined
      ? waitForKnobs(req.headers.prefer, { maxDelayMs: config.maxDelayMs }).then((prefer) => void (state.prefer = prefer))
      : undefined;

  /** The bearer token of an operation the contract secures (401): the caller, and the world it acts in. */
  const authenticate = (req: Request, state: RequestState) => {
    if (state.operation!.facts.caller !== 'token') return;
    state.caller = authenticateBearer(req.headers.authorization, worlds, policy);
    state.actingWorld = state.caller.world;
  };

  /**
   * Who may call the operation (401, 403, 429), then the world it acts on. Only an operation that declares a rule
   * of its own is asked about (src/contract/document/operation-facts.ts): undefined for the others, nothing to wait on.
   */
  const authorize = (req: Request, state: RequestState): Promise<void> | undefined => {
    const { facts, pathParams } = state.operation!;
    // An operation anyone may call acts on the world its `workspace` query names (the default world without one).
    const actOn = () => void (state.world = state.actingWorld ?? worlds.find(controlPlaneWorkspace(req)));
    const controlPlane = facts.caller === 'workspace' || facts.caller === 'owner';
    if (controlPlane || facts.createsWorkspace) return authorizeOperation(req, state, facts, pathParams, worlds, policy).then(actOn);
    actOn();
    return undefined;
  };

  /**
   * The knobs, after the 422 verdict and before the handler: Prefer: code answers the operation's documented example
   * instead of running it, a bad knob answers 422 where the operation documents one, and Preference-Applied names
   * what was honoured (src/knobs/prefer-code.ts). A request without knobs goes straight to its handler.
   */
  const applyKnobs = (state: RequestState, runHandler: () => Reply | Promise<Reply>): Reply | Promise<Reply> =>
    state.prefer === undefined ? runHandler() : preferCode(state.operation!.id, state.prefer, runHandler);

  /**
   * A read answered before at this version of the world, kept (src/pipeline/replay-cache.ts): its reply again,
   * already serialized and checked, once every check before the handler passed. Undefined: the handler runs.
   */
  const replay = (state: RequestState, kept: KeptAnswer | undefined): Reply | undefined => {
    if (kept) {
      state.replayedJson = kept.reply.json;
      state.responseCheck = 'passed';
    }
    return kept?.reply;
  };

  /**
   * The replay step, before the body and the validator: a read of an operation that takes no body, identical to one
   * kept at this version of the world (the key holds all the validator reads of it), has the kept one's verdict,
   * passed, and its checked query and tolerant reader's report. `null`: looked for and none kept; undefined: no such read.
   */
  const findKept = (req: Request, state: RequestState): KeptAnswer | null | undefined => {
    if (state.operation!.facts.body.any || state.world === undefined) return undefined;
    const kept = replays.find(req, state, state.world);
    if (!kept) return replays.keyable(req, state) ? null : undefined;
    // An own property, as the tolerant reader and the validator leave it (Express 5 parses req.query on every read).
    Object.defineProperty(req, 'query', { value: kept.query, writable: true, configurable: true, enumerable: true });
    state.ignored = kept.ignored;
    state.receivedQuery = kept.receivedQuery;
    return kept;
  };

  /**
   * The replay step's answer, once it found one kept: the records this read names are the kept answer's (404 and
   * 403 come from the store's merchants and memberships, and the caller, the path and the query are in the key, and
   * the answer is kept only while none of the collections its records and handler read changed), so they resolved
   * then, to the same, and need no transaction to resolve again; its input is the kept one, which the validator
   * passed; the reply is its bytes.
   */
  const answerKept = (req: Request, res: Response, state: RequestState, kept: KeptAnswer): void | Promise<void> => {
    acceptInput(req, res, state, PASSED);
    state.step = 'handler';
    return sendReply(res, replay(state, kept)!);
  };

  /**
   * Inside the handler's transaction: the records the request names (404 unknown, 403 not a member), resolved once,
   * then the input (a missing required body, the validator's 422, non-finite numbers), then a kept answer of the
   * same read (looked for here unless the replay step did: `early` is `null` when it found none), or the knobs and the handler. A
   * record changed by a concurrent request is seen as it is now.
   */
  const bindAndHandle =
    (
      req: Request,
      res: Response,
      state: RequestState,
      verdict: Verdict,
      ctx: Ctx,
      plan: BindingPlan | undefined,
      handler: AnyHandler,
      world: World,
      early: null | undefined,
    ) =>
    () => {
      state.step = 'record';
      const naming = (parameter: string, id: string) => void (state.naming = { parameter, id });
      state.bound = plan
        ? resolveBindings(plan, bindings, { params: state.operation!.pathParams, query: req.query, body: req.body }, ctx, state.caller?.user, naming)
        : {};
      state.step = 'validation';
      acceptInput(req, res, state, verdict);
      state.step = 'handler';
      const kept = replay(state, early === undefined ? replays.find(req, state, world) : undefined);
      if (kept) return kept;
      const input = { params: req.params, query: req.query, body: req.body, files: state.files, headers: req.headers, bound: state.bound };
      state.step = 'prefer';
      return applyKnobs(state, () => {
        state.step = 'handler';
        return handler(input, ctx);
      });
    };

  /** Runs the operation's handler on the request's world and answers its reply, kept for replay if it may be. */
  const handle = async (req: Request, res: Response, state: RequestState, verdict: Verdict, early: null | undefined): Promise<void> => {
    const operationId = state.operation!.id;
    const world = state.world ?? noWorld(req, res, state, verdict);
    const stamp = world.store.stamp();
    const clockOffset = world.clock.offset;
    let pure = true;
    const ctx = createCtx({
      world,
      worlds,
      observations: runtime.observations,
      resources: () => runtime.resourcesOf(world),
      // The ctx is the bindings' scope too: reading its clock or its worlds marks the answer impure the same way.
      onImpure: () => void (pure = false),
      caller: state.caller?.user,
      // Hosted, links never take a client's Host (PUBLIC_URL); locally one that is not a plain host[:port] never does.
      originOf: () => runtime.originOf(req) ?? 'http://localhost',
      pathAndQuery: req.originalUrl,
      config,
      operationId,
      prefer: state.prefer,
    });
    const handler = handlers[operationId]!;
    const run = bindAndHandle(req, res, state, verdict, ctx, plans.get(operationId), handler, world, early);
    // A workspace's record quota: the default world (the operator's own) has none.
    const quota = withQuota.has(operationId) && workspaceIdOf(world) !== undefined ? config.workspaceMaxRecords : undefined;
    // The collections the records and the handler read, so a kept answer outlives writes to the others. A handler
    // outside a transaction may read after an await, unseen: its answer counts as reading every collection.
    const outside = outsideTransaction.has(operationId);
    const tracked = world.store.readsDuring(() => (outside ? run() : world.store.transact(run as () => Reply, quota)));
    const reply = await tracked.result;
    if (
      pure &&
      reply.json === undefined &&
      world.store.version === stamp.version &&
      world.clock.offset === clockOffset &&
      reply.status >= 200 &&
      reply.status < 300
    ) {
      state.replayable = { stamp, clockOffset, reads: outside ? undefined : tracked.reads };
    }
    // The response check of a text answer (the validator checks JSON ones as they are sent).
    if (reply.type !== undefined) {
      state.responseCheck = 'failed';
      checkTextMedia(state.operation!.facts, operationId, reply);
      state.responseCheck = 'passed';
    }
    await sendReply(res, reply);
    // The response check ran as the answer was sent: one it passed may be replayed.
    replays.keep(req, state, world, reply);
  };

  /** The validator's verdict on a request whose body was read. */
  const checkInput = async (req: Request, res: Response, state: RequestState, next: NextFunction): Promise<Verdict> => {
    const facts = state.operation!.facts;
    // A workspace bundle's body was parsed in this turn of the event loop: its validation waits for the next, so
    // the two (each up to tens of milliseconds at BUNDLE_MAX_BYTES) never hold the loop together.
    if (facts.bodyLimit === 'bundle') await turns.next();
    // A bundle's records, files and journal entries are checked by its load, part by part and a slice at a time,
    // refused at the first MAX_PROBLEMS: the validator checks its frame (src/sandbox/bundle-parts.ts). Over every
    // item at once it would collect every error of every item (4,000 empty journal entries held the loop 1.7 s).
    const given = facts.bodyLimit === 'bundle' && isObj(req.body) ? (req.body as Record<string, unknown>) : undefined;
    if (given) req.body = bundleFrame(given);
    const verdict = await validator.check(req, res, next);
    if (given) req.body = withItems(req.body, given);
    return verdict;
  };

  const warmUp = (app: Express, gate?: WarmUpGate) => startWarmUp(app, doc, runtime.operations, validator, gate);
  const prime = (app: Express) => primeValidator(app, doc, runtime.operations, validator);
  return Object.assign(handleRequest, { warmUp, primeValidator: prime, trailOf: trails.of, replays });

  async function handleRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
    const state = (req.state ??= newRequestState());
    // Each step names itself before it runs: a step that throws is the one whose refusal is answered (the trail).
    try {
      state.step = 'route';
      state.operation = route(req);
      if (req.method === 'HEAD') readHeadAsGet(req, state);
      // A step with nothing to wait for is not awaited: a read that needs no turn of the event loop takes none.
      state.step = 'prefer';
      const knobs = readKnobs(req, state);
      if (knobs) await knobs;
      state.step = 'authentication';
      authenticate(req, state);
      const authorized = authorize(req, state);
      if (authorized) await authorized;
      // What reading the body will take of the memory budget, reserved before a byte of it is read (503 when short),
      // and held until the answer is sent.
      state.step = 'limit';
      const reservation = reserveForBody(req.headers, state.operation.facts, worlds.budget, config);
      // Sent (finish) or abandoned (close): releasing twice releases once.
      if (reservation) res.once('finish', reservation.release).once('close', reservation.release);
      state.step = 'validation';
      // The replay step: a kept answer of this very read, found before reading a body and running the validator.
      const early = findKept(req, state);
      if (early) {
        const sent = answerKept(req, res, state, early);
        if (sent) await sent;
        return;
      }
      // A body whose bytes do not read as its media type is refused as input (its verdict), not at once.
      const unread = await readBody(req, res, state.operation.facts.body, state.operation.facts.bodyLimit).then(
        (files) => void (state.files = files),
        unreadBody,
      );
      // The input's verdict is held until the records are bound: their 404/403 come before its 400, 415 or 422.
      const verdict = unread ?? (await checkInput(req, res, state, next));
      await handle(req, res, state, verdict, early);
    } catch (error) {
      state.refusal = error;
      if (error instanceof MethodNotAllowed) state.pathOperations = error.operations;
      next(error);
    }
  }
}

/**
 * A HEAD routed to its path's GET operation is read as that GET from here on (the validator matches operations by
 * req.method, the replay step keeps GETs): the same checks, status and headers. Node's response to a HEAD sends no
 * content whatever is written to it; the journal and the log keep the method the client sent.
 */
function readHeadAsGet(req: Request, state: RequestState): void {
  state.sentMethod = 'HEAD';
  req.method = 'GET';
}

/**
 * The verdict on a body the reader refused for its form: bytes that do not parse as their media type (400) or an
 * encoding or charset it does not read (415). That is the input's shape, which comes after the records the request
 * names, as the validator's 422 does. Any other refusal (a limit, 413; the memory budget, 503) is answered at once.
 */
function unreadBody(error: unknown): Verdict {
  if (!refusesBodyForm(error)) throw error;
  return { error, unread: true, armResponseCheck: () => {} };
}

/** The verdict of a request identical to one the validator passed: its answer's check ran when it was kept. */
const PASSED: Verdict = { error: undefined, armResponseCheck: () => {} };

/** The path a request was sent to, query apart. */
const pathOf = (req: Request): string => {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
};

/**
 * What a request names as accepted input, in the service's order, once its records are bound: a required body that
 * did not come (422), what the tolerant reader ignored (named in a header from here on), the validator's verdict
 * (422). The response check is armed for the handler's answer.
 */
function acceptInput(req: Request, res: Response, state: RequestState, verdict: Verdict): void {
  // A body that could not be read says nothing else: not even whether it came.
  if (verdict.unread) throw verdict.error;
  requireBody(req, state.operation!.facts.body.required);
  if (state.ignored) reportIgnored(res, state.ignored);
  if (verdict.error !== undefined) throw verdict.error;
  verdict.armResponseCheck();
}

/**
 * A request whose world is not live: a control-plane `workspace` the contract accepts (whatever its spelling: `nope`
 * names no workspace as surely as an expired id) is 404 at once, like a record; one the validator refused (empty, too
 * long, repeated) is input, its 422.
 */
function noWorld(req: Request, res: Response, state: RequestState, verdict: Verdict): never {
  const named = controlPlaneWorkspace(req);
  if (named !== undefined && !refusesField(verdict.error, 'query', 'workspace')) {
    state.step = 'record';
    state.naming = { parameter: 'workspace', id: named };
    notFound('workspace');
  }
  acceptInput(req, res, state, verdict);
  return notFound('workspace');
}
