import { createServer as createHttpServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { AppLocals } from './contract/mount-contract.js';
import { ResponseCache, type ResponseCacheOptions } from './http/response-cache.js';

const caches = new WeakMap<Server, ResponseCache>();

/**
 * The HTTP server around an app. The one place a listening server is made (main.ts, startSandbox), so that
 * work done in front of Express reaches every real server: cached answers of reads whose answer depends only on
 * the store, the caller and the URL (src/http/response-cache.ts), served without running Express again.
 */
export function createServer(app: Express, options: ResponseCacheOptions = {}): Server {
  const cache = new ResponseCache(() => app.locals.sandbox as Partial<AppLocals> | undefined, options);
  const server = createHttpServer((req, res) => cache.handle(req, res, () => app(req, res)));
  caches.set(server, cache);
  return server;
}

/** The response cache of a server made by createServer (tests read its stats). */
export function responseCacheOf(server: Server): ResponseCache | undefined {
  return caches.get(server);
}
