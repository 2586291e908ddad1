import type { Server } from 'node:http';
import type { Express } from 'express';
import { createApp } from './app.js';
import { expressMessages } from './http/express-messages.js';
import { ResponseCache, type ResponseCacheOptions } from './pipeline/response-cache.js';
import { fastPathsByOperation } from './pipeline/route-operation.js';
import { WorkspaceCreation } from './pipeline/workspace-creation.js';
import { createServer as createHttpServer } from './node-http.js';
import type { Runtime } from './runtime.js';

/** A listening-ready server with what it answers in front of Express (tests read their stats). */
export interface SandboxServer extends Server {
  readonly responseCache: ResponseCache;
  readonly workspaceCreation: WorkspaceCreation;
}

/**
 * The HTTP server around a runtime's app. The one place a listening server is made (main.ts, startSandbox), so
 * that work done in front of Express reaches every real server: plain workspace creations
 * (src/pipeline/workspace-creation.ts), and answers the contract adapter marked replayable (src/pipeline/response-cache.ts),
 * served without running Express again. Each fast path is chosen by the operation a request names, so a request to
 * any other operation goes straight to Express.
 */
export function createServer(runtime: Runtime, app: Express = createApp(runtime), options: ResponseCacheOptions = {}): SandboxServer {
  // Each fast path hands Express what it does not answer itself.
  const responseCache = new ResponseCache(runtime, app, options);
  const workspaceCreation = new WorkspaceCreation(runtime, app);
  // The creation of a workspace, and every read (a GET operation) the cache may have answered before.
  const front = fastPathsByOperation(
    runtime.contract,
    (op) => (op.operationId === workspaceCreation.operationId ? workspaceCreation.handle : op.method === 'GET' ? responseCache.handle : undefined),
    app,
  );
  // Requests and responses are born with the app's prototypes (src/http/express-messages.ts says why).
  const server = createHttpServer(expressMessages(app), front);
  return Object.assign(server, { responseCache, workspaceCreation });
}

/** The response cache of a server made by createServer. */
export const responseCacheOf = (server: Server): ResponseCache | undefined => (server as Partial<SandboxServer>).responseCache;
