import express, { type Express } from 'express';
import type { Config } from './config.js';
import { loadContract } from './contract/load-contract.js';
import { mountContract, type AppLocals } from './contract/mount-contract.js';
import { handlers } from './handlers.js';
import { channelRoutes } from './areas/channels/consent-routes.js';
import { productUploadsRouter } from './areas/products/uploads-router.js';
import { errorHandler } from './http/error-handler.js';
import type { Worlds } from './worlds.js';

export interface AppOptions {
  worlds: Worlds;
  config: Config;
  /** Where unexpected errors are logged (stderr by default). */
  log?: (line: string) => void;
}

/**
 * The sandbox as an Express app, without listening: body parsing, the contract (routing, auth, request and
 * response validation, handlers), and the one error handler. Only main.ts listens.
 */
export function createApp({ worlds, config, log }: AppOptions): Express {
  const app = express();
  app.locals.sandbox = { worlds, config } satisfies AppLocals;
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('etag', false);

  // Body parsing: malformed JSON -> 400 and oversized bodies -> 413, through the one error handler.
  app.use(express.json({ limit: config.bodyLimit, type: ['application/json', 'application/*+json'] }));

  const { doc } = loadContract();
  app.use(productUploadsRouter(worlds, config));
  app.use(channelRoutes());
  app.use(mountContract(doc, handlers));
  app.use(errorHandler(log));
  return app;
}
