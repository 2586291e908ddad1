import { createServer as createHttpServer, type Server } from 'node:http';
import type { Express } from 'express';

/**
 * The HTTP server around an app. The one place a listening server is made (main.ts, startSandbox), so that
 * work done in front of Express (the durability-and-speed issue's cached answers) reaches every real server.
 */
export function createServer(app: Express): Server {
  return createHttpServer(app);
}
