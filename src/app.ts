import express, { type Express, type Request } from 'express';
import { readsJsonBody } from './contract/body-routes.js';
import { docsRouter } from './contract/docs-page.js';
import { mountContract } from './contract/mount-contract.js';
import { handlers } from './handlers.js';
import type { Handlers } from './contract/handler-map.js';
import { routeBindings } from './route-bindings.js';
import { consentPages } from './areas/channels/consent-routes.js';
import { rewriteRawRelay } from './areas/channels/raw-relay-rewrite.js';
import { productUploadsRouter } from './areas/products/uploads-router.js';
import { composeMiddleware, outsideApi } from './http/compose-middleware.js';
import { cors } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { missingBodyIsEmpty } from './http/missing-body.js';
import { blankJsonIsNoBody } from './http/required-body.js';
import { favicon } from './http/favicon.js';
import { packageVersion } from './sandbox/package-info.js';
import { DEMO_USERS } from './sandbox/demo-tokens.js';
import { landingRouter } from './sandbox/landing-page.js';
import { observeRequests } from './sandbox/observe-requests.js';
import { requestWorkspace } from './sandbox/request-workspace.js';
import { withPreferKnobs } from './sandbox/prefer-code.js';
import { scenarioKnobs } from './sandbox/scenario-knobs.js';
import type { Runtime } from './runtime.js';

/**
 * The sandbox as an Express app, without listening: the request id, CORS, the request observer (journal,
 * coverage, log line), the landing and docs pages, body parsing, the scenario knobs, the contract (routing, auth,
 * request and response validation, handlers), and the one error handler. main.ts and startSandbox listen, through createServer.
 * `handlerMap` is the handlers by operationId (a test may swap one in).
 */
export function createApp(runtime: Runtime, handlerMap: Handlers = handlers): Express {
  const { worlds, config, observe, contract: doc, log } = runtime;
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  // One router layer for the whole pipeline, in this order (src/http/compose-middleware.ts says why).
  app.use(
    composeMiddleware([
      // First the request id and logger (pino-http), so every answer carries the id, preflights and errors included.
      runtime.httpLogger,
      // Then CORS: a preflight carries no token and is no operation, so it is answered before anything else.
      cors({ origins: config.corsOrigins }),
      observeRequests({ observe, workspaceOf: requestWorkspace(worlds) }),
      outsideApi(landingRouter({ demoTokens: DEMO_USERS.map(({ token, label }) => ({ token, label })), version: packageVersion, docsToken: DEMO_USERS[0] })),
      outsideApi(docsRouter({ spec: doc, ...(config.hosted ? { hosted: true } : { demoToken: DEMO_USERS[0].token }) })),
      outsideApi(favicon()),
      // The raw relay form becomes the encoded one before anything routes it (the body parser included).
      rewriteRawRelay,
      // Body parsing, for operations that take a body: malformed JSON -> 400 and oversized bodies -> 413, through
      // the one error handler.
      // A body of only whitespace or `null` is no body (src/http/required-body.ts).
      blankJsonIsNoBody(express.json({ limit: config.bodyLimit, type: readsJsonBody(doc) })),
      missingBodyIsEmpty,
      // Latency and Prefer: delay before any work; Prefer: code and bad knobs are answered by withPreferKnobs,
      // which knows the operation.
      scenarioKnobs({
        latencyMs: config.latencyMs,
        maxDelayMs: config.maxDelayMs,
        readsPrefer: (req) => req.path.startsWith('/2024-09/'),
        deferErrors: true,
      }),
      outsideApi(productUploadsRouter(worlds, config)),
      outsideApi(consentPages(worlds)),
      ...mountContract(runtime, withPreferKnobs(doc, handlerMap), routeBindings),
    ]),
  );
  app.use(errorHandler(log));
  return app;
}
