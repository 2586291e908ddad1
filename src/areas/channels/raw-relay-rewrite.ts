import type { Request } from 'express';

// `/2024-09/channels/retailer/{channel}/call/` followed by an endpoint of two or more raw segments, query apart.
const RAW_RELAY = /^(\/2024-09\/channels\/retailer\/[^/?]+\/call\/)([^?]*\/[^?]*)(\?.*)?$/;

/**
 * The raw relay form (`call/orders/v0/orders`) rewritten into the encoded one (`call/orders%2Fv0%2Forders`) before
 * the contract sees it, so one route, one validation (the endpoint pattern included) and one handler serve both.
 * Routing asks when a path matches no route (src/pipeline/handle-request.ts); true when the path was rewritten.
 * Empty, `.` and `..` segments survive the rewrite as they are, so the contract's pattern refuses them (422).
 * originalUrl is rewritten too because express-openapi-validator matches operations on it.
 */
export function rawRelayAsEncoded(req: Request): boolean {
  const match = RAW_RELAY.exec(req.originalUrl);
  if (!match) return false;
  req.url = `${match[1]}${match[2].split('/').join('%2F')}${match[3] ?? ''}`;
  req.originalUrl = req.url;
  return true;
}
