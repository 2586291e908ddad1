import type { RequestHandler } from 'express';

// `/2024-09/channels/retailer/{channel}/call/` followed by an endpoint of two or more raw segments, query apart.
const RAW_RELAY = /^(\/2024-09\/channels\/retailer\/[^/?]+\/call\/)([^?]*\/[^?]*)(\?.*)?$/;

/**
 * The raw relay form (`call/orders/v0/orders`) rewritten into the encoded one (`call/orders%2Fv0%2Forders`) before
 * the contract sees it, so one route, one validation (the endpoint pattern included) and one handler serve both.
 * Empty, `.` and `..` segments survive the rewrite as they are, so the contract's pattern refuses them (422).
 * originalUrl is rewritten too because express-openapi-validator matches operations on it.
 */
export const rewriteRawRelay: RequestHandler = (req, _res, next) => {
  const match = RAW_RELAY.exec(req.url);
  if (match) {
    req.url = `${match[1]}${match[2].split('/').join('%2F')}${match[3] ?? ''}`;
    req.originalUrl = req.url;
  }
  next();
};
