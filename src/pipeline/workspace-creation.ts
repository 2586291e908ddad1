// POST /_sandbox/workspaces answered in front of Express. A docs site gives every visitor a workspace and a CI
// farm one per job, so creations come in floods, and each holds the event loop for as long as it takes: through
// Express, the router, the validator and the adapter, the creation itself (a copy-on-write view) is a small share
// of that time. A plain creation (no query, no body, no Prefer, no configured latency) is answered here with what
// the slow path would send: the same status, headers (X-Request-Id, CORS) and body, the same per-address limit and
// refusals (429 and 503 with Retry-After), the same journal entry, coverage and log line. Any other request to the
// path (a query the tolerant reader reports or refuses, a body, knobs) goes through Express.
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { Request } from 'express';
import type { Runtime } from '../runtime.js';
import { arrivalOf, observeAnswered } from '../observe/observe-requests.js';
import { requestWorkspace } from '../access/auth.js';
import { newWorkspaceAnswer } from '../sandbox/workspace-handlers.js';
import { limitCreation } from '../access/control-plane-access.js';
import { allowedOrigins, cors, corsGrant, perOrigin } from '../http/cors.js';
import { httpErrorAnswer, logServerError, SERVER_ERROR_BODY } from '../http/error-handler.js';
import { HttpError } from '../http/errors.js';
import { missingBodyIsEmpty, sendsNoBody } from './read-body.js';
import { idRequest, REQUEST_ID_HEADER } from '../observe/request-log.js';
import { headersSetBy, securityHeaders } from '../http/security-headers.js';
import { requestTrails, type RequestTrails } from './request-trail.js';

const PATH = '/_sandbox/workspaces';
const OPERATION_ID = 'createSandboxWorkspace';
const JSON_TYPE = 'application/json; charset=utf-8';

/** What answers a request this does not: the next layer, handed the same request and response. */
type Next = (req: IncomingMessage, res: ServerResponse) => void;

/** Creations answered here rather than by Express (tests read it). */
export interface WorkspaceCreationStats {
  served: number;
}

/** The fast path of POST /_sandbox/workspaces; `handle` passes any other request to `next`. */
export class WorkspaceCreation {
  readonly stats: WorkspaceCreationStats = { served: 0 };
  /** The operation this answers (createServer hands it only this operation's requests). */
  readonly operationId = OPERATION_ID;
  /** What CORS grants a POST from each Origin (outside a preflight, it depends on the Origin alone). */
  private readonly corsFor: (origin: string | string[] | undefined) => Record<string, OutgoingHttpHeader>;
  /** What the app's security headers layer sets on every answer (it depends on nothing in the request). */
  private readonly security: Record<string, OutgoingHttpHeader>;
  private readonly workspaceOf: (req: Request) => string;
  private readonly trails: RequestTrails;

  constructor(
    private readonly runtime: Runtime,
    /** What answers a request this does not (Express). */
    private readonly next: Next,
  ) {
    const middleware = cors({ origins: allowedOrigins(runtime.config) });
    this.corsFor = perOrigin((origin) => corsGrant(middleware, 'POST', origin));
    this.security = headersSetBy(securityHeaders(), { method: 'POST', headers: {} });
    this.workspaceOf = requestWorkspace(runtime.worlds);
    this.trails = requestTrails(runtime.contract);
  }

  /** Serves a request (node:http's request listener; a property, so it can be handed on as it is). */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (!this.isPlainCreation(req)) return this.next(req, res);
    void this.answer(req, res);
  };

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.stats.served++;
    // The request is born with Express's prototype (src/http/express-messages.ts): req.ip, req.path and req.query
    // read it as Express would, trust proxy included.
    const request = req as Request;
    const id = idRequest(request);
    const arrival = arrivalOf(request);
    // What the slow path's body parsing leaves for a bodiless POST: an empty JSON object, as the journal shows it.
    missingBodyIsEmpty(request, res as never, () => {});
    let status = 201;
    let body: object | undefined;
    let json: string;
    let extra: Record<string, string> | undefined;
    try {
      // The operation's own declaration puts it under the per-address limit, as on the slow path.
      if (this.runtime.operations.get(OPERATION_ID)?.createsWorkspace) await limitCreation(request, this.runtime.policy);
      body = newWorkspaceAnswer(this.runtime.worlds);
      json = JSON.stringify(body);
    } catch (error) {
      if (error instanceof HttpError) {
        ({ status, body, headers: extra } = httpErrorAnswer(error));
        json = JSON.stringify(body);
      } else {
        // A bug: logged with its stack and answered as the error handler answers one (500, nothing of the cause).
        logServerError(this.runtime.log, req.method, req.url, error);
        [status, body, json] = [500, undefined, SERVER_ERROR_BODY];
      }
    }
    // One header set, in the order the slow path writes them (request id, security, CORS, the error's own, type, length).
    res.writeHead(status, {
      [REQUEST_ID_HEADER]: id,
      ...this.security,
      ...this.corsFor(req.headers.origin),
      ...extra,
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(json);
    observeAnswered(
      arrival,
      {
        path: PATH,
        query: request.query,
        requestBody: request.body,
        responseBody: body,
        operationId: OPERATION_ID,
        workspace: this.workspaceOf(request),
        trail: this.trails.plain(OPERATION_ID, status),
      },
      status,
      this.runtime.observe,
    );
  }

  /** A creation with nothing for Express to read, parse, refuse or delay. */
  private isPlainCreation(req: IncomingMessage): boolean {
    if (req.method !== 'POST' || req.url !== PATH || this.runtime.config.latencyMs > 0) return false;
    const h = req.headers;
    return h.prefer === undefined && h['content-type'] === undefined && sendsNoBody(h);
  }
}
