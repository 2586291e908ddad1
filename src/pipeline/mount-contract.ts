import type { Request, RequestHandler, Response } from 'express';
import { multipartUploader } from '../http/body-limits.js';
import { bearerSecurityHandler, type AuthenticatedRequest } from '../access/auth.js';
import { createCtx } from '../areas/context.js';
import { sendReply, type Reply } from '../http/reply.js';
import type { Runtime } from '../runtime.js';
import { authorizeOperation } from '../access/control-plane-access.js';
import { bindResources, requestWorld, resolveBindings, type BindingPlan } from '../access/bind-resources.js';
import type { RouteBindingTable } from '../areas/route-bindings.js';
import { notFound } from '../http/errors.js';
import { bindingPlans } from '../access/binding-plans.js';
import { runsOutsideTransaction, type Handlers, type UploadedFile } from '../areas/handler-map.js';
import { listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { recordQuotaOperations } from '../contract/record-quota.js';
import { checkTextMedia } from '../contract/text-media.js';
import { workspaceIdOf } from '../world.js';
import { tolerantReader } from '../contract/tolerant/tolerant-reader.js';
import { validatorMiddleware } from '../contract/validator/own-copy.js';
import { applyValidatorPatches } from '../contract/validator/tune-validator.js';
import { prefersStrict } from '../knobs/prefer-header.js';
import { preferOf } from '../knobs/scenario-knobs.js';
import { unprocessable } from '../http/errors.js';
import { nonFiniteNumberErrors } from '../http/finite-numbers.js';
import { absentOptionalBodyUnchecked, requireBody } from '../http/required-body.js';
import type { ContractCheck } from './warm-up.js';

type AnyHandler = (input: unknown, ctx: ReturnType<typeof createCtx>) => Reply | Promise<Reply>;
type ValidatorOptions = Parameters<typeof validatorMiddleware>[1];

/**
 * Refuses to start when the contract and the handler map disagree: an operation without a handler, or a handler
 * for an operation the contract does not have.
 */
export function checkHandlerMap(doc: ContractDocument, handlers: Record<string, unknown>): void {
  const operationIds = new Set(listOperations(doc).map((op) => op.operationId));
  const missing = [...operationIds].filter((id) => !(id in handlers));
  const extra = Object.keys(handlers).filter((id) => !operationIds.has(id));
  if (missing.length || extra.length) {
    throw new Error(
      [missing.length ? `operations without a handler: ${missing.join(', ')}` : '', extra.length ? `handlers without an operation: ${extra.join(', ')}` : '']
        .filter(Boolean)
        .join('; '),
    );
  }
}

/** Steps of the app's own that run inside the contract's pipeline, where what they need is known. */
export interface ContractSteps {
  /** Once the request matched an operation (req.openapi), before its caller is checked: the Prefer knobs. */
  routed?: RequestHandler[];
  /** Once the caller may call the operation, before the records it names are bound: reading the body. */
  authorized?: RequestHandler[];
}

/**
 * express-openapi-validator over the whole contract: it routes each operation to its handler by operationId,
 * checks the bearer token, validates every request, and validates every JSON response the handler's reply produces.
 * Compiled for one runtime: its worlds authenticate, its config decides strictness. The order of the steps is the
 * service's: route (404/405), who may call the operation (401, 403, 429), only then the body (400, 413, 415), the
 * records it names (404/403), the shape of the input (422), the handler. A stranger's body is never read.
 */
export function mountContract(
  runtime: Runtime,
  handlerMap: Handlers,
  bindings: RouteBindingTable,
  steps: ContractSteps = {},
): RequestHandler[] & { check: ContractCheck } {
  const doc = runtime.contract;
  const handlers = handlerMap as unknown as Record<string, AnyHandler>;
  checkHandlerMap(doc, handlers);
  const plans = bindingPlans(doc, bindings);
  // The validator's speed-ups, on the release they were written for only (src/contract/validator/tune-validator.ts).
  const tuned = applyValidatorPatches();
  const validator = validatorMiddleware(doc, validatorOptions(runtime, handlers, plans, bindings), tuned);
  const step = (name: string) => {
    const found = validator.find((mw) => mw.name === name);
    if (!found) throw new Error(`express-openapi-validator has no ${name} step: the order of checks needs it`);
    return found;
  };
  const known = new Set([
    'pathParamsMiddleware',
    'metadataMiddleware',
    'securityMiddleware',
    'multipartMiddleware',
    'requestMiddleware',
    'responseMiddleware',
    'operationHandlersMiddleware',
  ]);
  const unknown = validator.filter((mw) => !known.has(mw.name)).map((mw) => mw.name);
  if (unknown.length) throw new Error(`express-openapi-validator has steps the order of checks does not place: ${unknown.join(', ')}`);
  const middleware = [
    step('pathParamsMiddleware'),
    step('metadataMiddleware'),
    ...(steps.routed ?? []),
    step('securityMiddleware'),
    authorizeOperation(runtime.operations, runtime.worlds, runtime.policy),
    ...(steps.authorized ?? []),
    step('multipartMiddleware'),
    bindResources(plans, bindings, runtime.worlds),
    // A required body that did not come is a 422 of its own, before the validator reads the (empty) input.
    requireBody,
    step('requestMiddleware'),
    step('responseMiddleware'),
    step('operationHandlersMiddleware'),
  ];
  // The validator's own steps that compile an operation's validators, without the caller's check or the handler:
  // what the warm-up (src/pipeline/warm-up.ts) runs. Each passes its request on, whatever it found.
  const checks = [step('pathParamsMiddleware'), step('metadataMiddleware'), step('requestMiddleware'), step('responseMiddleware')];
  const check: ContractCheck = async (req, res) => {
    for (const mw of checks) await new Promise<void>((resolve) => void mw(req, res, () => resolve()));
  };
  return Object.assign(withTolerantReader(doc, middleware, runtime.config.strict), { check });
}

/** What express-openapi-validator is told: the contract's checks, the bearer scheme's handler, and an adapter per operation. */
export function validatorOptions(
  runtime: Runtime,
  handlers: Record<string, AnyHandler>,
  plans: Map<string, BindingPlan>,
  bindings: RouteBindingTable,
): ValidatorOptions {
  // Read from the contract once, not on each operation's first call.
  const quotaOperations = recordQuotaOperations(runtime.contract);
  return {
    // The contract is checked against the OpenAPI schema in `npm test` (redocly lint and a validator test); checking
    // it again on every start costs a tenth of the start-up time.
    validateApiSpec: false,
    // Query names the contract does not know are the tolerant reader's to ignore or refuse (tolerant-reader.ts).
    validateRequests: { allErrors: true, allowUnknownQueryParameters: true },
    validateResponses: true,
    validateSecurity: { handlers: { bearerAuth: bearerSecurityHandler(runtime.worlds, runtime.policy) } },
    validateFormats: true,
    // Product image uploads: multer keeps the file (MAX_FILE_BYTES at most) in memory for the handler to store;
    // fields, their size and the whole body are limited too (413 each, src/http/body-limits.ts).
    fileUploader: multipartUploader(runtime.config.multipart),
    operationHandlers: {
      basePath: '.',
      resolver: (_basePath, route, apiDoc) => {
        const item = apiDoc.paths?.[route.openApiRoute] as Record<string, { operationId?: string }> | undefined;
        const operationId = item?.[route.method.toLowerCase()]?.operationId;
        if (!operationId || !handlers[operationId]) throw new Error(`no handler for ${route.method} ${route.openApiRoute}`);
        return adapt(runtime, operationId, handlers[operationId], plans.get(operationId), bindings, quotaOperations);
      },
    },
  };
}

/**
 * The validator's middleware with its request validation wrapped by the tolerant reader (unknown fields ignored
 * and reported; 422 in strict mode: the server's --strict or the request's `Prefer: strict`).
 */
function withTolerantReader(doc: ContractDocument, middleware: RequestHandler[], strict: boolean): RequestHandler[] {
  const index = middleware.findIndex((handler) => handler.name === 'requestMiddleware');
  if (index < 0) throw new Error('express-openapi-validator changed: its requestMiddleware was not found');
  // Prefer knobs are the versioned API's (scenarioKnobs parses them there only); --strict covers every operation.
  const strictOf = (_req: Request, res: Response) => strict || prefersStrict(preferOf(res));
  return middleware.map((handler, i) => (i === index ? absentOptionalBodyUnchecked(tolerantReader(doc, handler, strictOf)) : handler));
}

/** Set on res.locals by the adapter when the answer may be replayed (see Replayable). */
export const REPLAYABLE = 'replayable';

/**
 * Why an answer may be replayed for an identical request: the handler wrote nothing and read only its store and
 * its input, so the same bytes are right while the world's version (store and clock) stays where it was.
 */
export interface Replayable {
  /** The world's store version the answer was computed at. */
  version: number;
  /** The world's clock offset it was computed at. */
  clockOffset: number;
}

/**
 * The one adapter between Express and a handler: builds input and ctx, runs the handler in a transaction, sends the
 * reply. The records the request names were checked before validation; they are resolved again inside the
 * handler's transaction, so the handler gets them as they are now (a concurrent request may have changed them).
 * It marks the answer replayable (res.locals) when the handler wrote nothing and read neither the clock nor
 * anything kept beside the store.
 */
function adapt(
  runtime: Runtime,
  operationId: string,
  handler: AnyHandler,
  plan: BindingPlan | undefined,
  bindings: RouteBindingTable,
  quotaOperations: ReadonlySet<string>,
): RequestHandler {
  const { worlds, config } = runtime;
  // A workspace's quota: the default world (the operator's own) has none.
  const recordQuota = quotaOperations.has(operationId) ? config.workspaceMaxRecords : undefined;
  const facts = runtime.operations.get(operationId);
  return async (req, res, next) => {
    try {
      const nonFinite = nonFiniteNumberErrors(req.query);
      if (nonFinite) unprocessable(nonFinite);
      const auth = (req as AuthenticatedRequest).auth;
      const world = requestWorld(req, worlds) ?? notFound('workspace');
      const version = world.store.version;
      const clockOffset = world.clock.offset;
      let pure = true;
      const onImpure = () => {
        pure = false;
      };
      // Hosted, links never take a client's Host (PUBLIC_URL); locally one that is not a plain host[:port] never does.
      const origin = runtime.originOf(req) ?? 'http://localhost';
      const ctx = createCtx({
        world,
        worlds,
        observations: runtime.observations,
        resources: runtime.resourcesOf(world),
        onImpure,
        caller: auth?.user,
        baseUrl: origin,
        url: origin + req.originalUrl,
        config,
        operationId,
        prefer: preferOf(res),
      });
      const input = {
        params: req.params,
        query: req.query,
        body: req.body,
        files: ((req as Request & { files?: UploadedFile[] }).files ?? []) as UploadedFile[],
        headers: req.headers,
      };
      // The ctx is the bindings' scope too: reading its clock or its worlds marks the answer impure the same way.
      const bind = () => (plan ? resolveBindings(plan, bindings, { ...input, params: req.params as Record<string, string> }, ctx, auth?.user) : {});
      const reply = runsOutsideTransaction(handler)
        ? await handler({ ...input, bound: bind() }, ctx)
        : await world.store.transact(() => handler({ ...input, bound: bind() }, ctx) as Reply, workspaceIdOf(world) === undefined ? undefined : recordQuota);
      if (pure && world.store.version === version && world.clock.offset === clockOffset && reply.status >= 200 && reply.status < 300) {
        res.locals[REPLAYABLE] = { version, clockOffset } satisfies Replayable;
      }
      checkTextMedia(facts, operationId, reply);
      sendReply(res, reply);
    } catch (error) {
      next(error);
    }
  };
}
