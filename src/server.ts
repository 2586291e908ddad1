import type { Server } from 'node:http';
import { createApp, type SandboxApp } from './app.js';
import type { ReplayCache } from './pipeline/replay-cache.js';
import { createServer as createHttpServer } from './node-http.js';
import type { Runtime } from './runtime.js';

/** A listening-ready server over the app, with the answers its pipeline keeps for replay (tests read their stats). */
export interface SandboxServer extends Server {
  readonly responseCache: ReplayCache;
}

/**
 * The HTTP server around a runtime's app: the one place a listening server is made (main.ts, startSandbox). Every
 * request goes through the app, and its operations through the one pipeline (src/pipeline/handle-request.ts).
 */
export function createServer(runtime: Runtime, app: SandboxApp = createApp(runtime)): SandboxServer {
  return Object.assign(createHttpServer(app), { responseCache: app.replays });
}

/** The replayed answers of a server made by createServer. */
export const responseCacheOf = (server: Server): ReplayCache | undefined => (server as Partial<SandboxServer>).responseCache;
