import express, { type Express } from 'express';
import { docsRouter } from './sandbox/docs-page.js';
import { attachRequestState, handleRequests } from './pipeline/handle-request.js';
import type { WarmUp, WarmUpGate } from './pipeline/validator-warm-up.js';
import type { ReplayCache } from './pipeline/replay-cache.js';
import { handlers } from './handlers.js';
import type { Handlers } from './areas/handler-map.js';
import { routeBindings } from './areas/route-bindings.js';
import { consentPages } from './areas/channels/consent-routes.js';
import { productUploadsRouter } from './areas/products/uploads-router.js';
import { composeMiddleware } from './pipeline/contract-validator.js';
import { outsideApi, undecodableSegmentsAsText } from './pipeline/route-operation.js';
import { allowedOrigins, cors } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { sendJsonAsBytes } from './http/reply.js';
import { operationsAnswerConditionalsThemselves } from './http/conditional-requests.js';
import { favicon } from './http/favicon.js';
import { securityHeaders } from './http/security-headers.js';
import { packageVersion } from './sandbox/package-info.js';
import { DEMO_USERS } from './sandbox/demo-tokens.js';
import { landingRouter } from './sandbox/landing-page.js';
import { inspectorAssets } from './sandbox/inspector/inspector-assets.js';
import { keepJsonBodies, observeRequests, toolingPage, unjournaled } from './observe/observe-requests.js';
import { identifyRequest } from './observe/request-log.js';
import { actsIn, requestWorkspace } from './access/auth.js';
import { latency } from './knobs/scenario-knobs.js';
import type { Runtime } from './runtime.js';

/** The sandbox's Express app, and the start of its validators' warm-up (startSandbox runs it once listening). */
export interface SandboxApp extends Express {
  /** `gate` holds each operation's compile until it opens (quietServerGate: no request in flight). */
  warmUp(gate?: WarmUpGate): WarmUp;
  /** Makes the validator's set-up that every check shares, which the first request would otherwise make. */
  primeValidator(): Promise<void>;
  /** The answers the pipeline's replay step keeps (src/pipeline/replay-cache.ts); tests read its stats. */
  readonly replays: ReplayCache;
}

/**
 * The sandbox as an Express app, without listening: the request id, CORS, the request observer (journal,
 * coverage, log line), the landing and docs pages, the latency, the operations (src/pipeline/handle-request.ts:
 * routing, Prefer knobs, auth, body parsing, records, request and response validation, handlers), and the one
 * error handler. main.ts and startSandbox listen, through createServer.
 * `handlerMap` is the handlers by operationId (a test may swap one in).
 */
export function createApp(runtime: Runtime, handlerMap: Handlers = handlers): SandboxApp {
  const { worlds, config, observe, contract: doc, log } = runtime;
  const app = express();
  const pipeline = handleRequests(runtime, handlerMap, routeBindings);
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // One spelling per operation: the validator reads this too, so `/_SANDBOX/requests` matches nothing (404).
  app.set('case sensitive routing', true);
  // res.json sends the bytes it serialized and notes them (src/http/reply.ts); around it, the journal's copy of
  // each JSON answer is kept (observeRequests, below).
  sendJsonAsBytes(app);
  keepJsonBodies(app);
  // An operation's answer is never turned into a 304 Express decides (src/http/conditional-requests.ts).
  operationsAnswerConditionalsThemselves(app);

  // One router layer for the whole chain, in this order (composeMiddleware, src/pipeline/contract-validator.ts, says why).
  app.use(
    composeMiddleware([
      // The request's state, which every later step fills in or reads (src/pipeline/request-state.ts).
      attachRequestState,
      // First the request id, so every answer carries it, preflights and errors included.
      identifyRequest({ shared: config.hosted }),
      // nosniff and frame protection on every answer, errors and preflights included (src/http/security-headers.ts).
      securityHeaders(),
      // Then CORS: a preflight carries no token and is no operation, so it is answered before anything else.
      cors({ origins: allowedOrigins(config) }),
      // Observed before any step rewrites the URL: the journal and the log name the path as the client sent it.
      observeRequests({ observe, workspaceOf: requestWorkspace(worlds), skipJournal: unjournaled, trailOf: pipeline.trailOf }),
      // A path segment that does not decode is read as its literal text (src/pipeline/route-operation.ts).
      undecodableSegmentsAsText,
      outsideApi(
        toolingPage(
          landingRouter({
            demoTokens: DEMO_USERS.map(({ token, label }) => ({ token, label })),
            version: packageVersion,
            docsToken: DEMO_USERS[0],
            hosted: config.hosted,
          }),
        ),
        toolingPage(docsRouter({ spec: doc, originOf: runtime.originOf, ...(config.hosted ? { hosted: true } : { demoToken: DEMO_USERS[0].token }) })),
        toolingPage(favicon()),
        // The inspector page's script and style sheet (the page itself is an operation, getSandboxInspector).
        toolingPage(inspectorAssets()),
      ),
      // The configured latency, before any work.
      ...(config.latencyMs > 0 ? [latency(config.latencyMs)] : []),
      outsideApi(productUploadsRouter(worlds, config), consentPages(worlds, actsIn)),
      // The operations: route, Prefer knobs, authenticate, authorize, body, records, input, a kept answer or the handler, reply.
      pipeline,
    ]),
  );
  app.use(errorHandler(log, config));
  return Object.assign(app, {
    warmUp: (gate?: WarmUpGate) => pipeline.warmUp(app, gate),
    primeValidator: () => pipeline.primeValidator(app),
    replays: pipeline.replays,
  });
}
