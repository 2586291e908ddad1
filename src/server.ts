import type { Server } from 'node:http';
import { createApp, type SandboxApp } from './app.js';
import type { ReplayCache } from './pipeline/replay-cache.js';
import { createServer as createHttpServer, IncomingMessage, ServerResponse } from './node-http.js';
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
  // Node makes each request and response from the classes given here (http.createServer's documented options). Made
  // with the app's own prototypes, they are already what Express sets on every request it handles, so its
  // Object.setPrototypeOf finds nothing to change, where a change of prototype costs every request a new hidden class.
  const server = createHttpServer({ IncomingMessage: madeWith(IncomingMessage, app.request), ServerResponse: madeWith(ServerResponse, app.response) }, app);
  return Object.assign(server, { responseCache: app.replays });
}

/** A constructor that builds what `base` builds, with `prototype` (which must inherit from base's) as its prototype. */
function madeWith<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: InstanceType<T>): T {
  function Made(...args: unknown[]): object {
    return Reflect.construct(base, args, Made);
  }
  Made.prototype = prototype;
  return Made as unknown as T;
}

/** The replayed answers of a server made by createServer. */
export const responseCacheOf = (server: Server): ReplayCache | undefined => (server as Partial<SandboxServer>).responseCache;
