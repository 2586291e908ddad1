// One JSON line per request, so a CI log can be grepped or fed to jq; secrets in query strings (the
// retailer callback's `code`, a token passed as a parameter) never reach it.
import { redactUrl } from '../sandbox/redact.js';

/** Log levels in order of severity; 'silent' logs nothing. */
export type RequestLogLevel = 'error' | 'warn' | 'info' | 'debug' | 'silent';

/** What is known about a finished request. */
export interface RequestLogInput {
  at: Date;
  method: string;
  /** The URL as received (path and query). */
  url: string;
  operationId?: string | null;
  status: number;
  durationMs: number;
  workspace?: string;
  requestId?: string;
}

const SEVERITY: Record<RequestLogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3, silent: -1 };

/** The level a request is logged at: a 5xx is the sandbox's own fault and worth an error line. */
export function requestLogLevel(status: number): Exclude<RequestLogLevel, 'silent'> {
  return status >= 500 ? 'error' : 'info';
}

/** Whether a line of `level` is printed when the sandbox runs at `configured`. */
export function isLogged(configured: RequestLogLevel, level: RequestLogLevel): boolean {
  return configured !== 'silent' && level !== 'silent' && SEVERITY[level] <= SEVERITY[configured];
}

/** Formats one request as a single JSON line (no trailing newline), query secrets redacted. */
export function formatRequestLog(input: RequestLogInput): string {
  const url = redactUrl(input.url);
  const q = url.indexOf('?');
  const line: Record<string, unknown> = {
    time: input.at.toISOString(),
    level: requestLogLevel(input.status),
    msg: 'request',
    method: input.method.toUpperCase(),
    path: q < 0 ? url : url.slice(0, q),
  };
  if (q >= 0) line.query = url.slice(q + 1);
  line.operation_id = input.operationId ?? null;
  line.status = input.status;
  line.duration_ms = Math.round(input.durationMs * 10) / 10;
  if (input.workspace !== undefined) line.workspace = input.workspace;
  if (input.requestId !== undefined) line.request_id = input.requestId;
  return JSON.stringify(line);
}
