import type { RequestHandler } from 'express';

/**
 * A path segment that does not decode (`%ZZ`, a lone `%`, overlong UTF-8 such as `%C0%AF`) is taken as its literal
 * text: its `%` signs are escaped, so routing and validation see the value the client typed, and it answers as any
 * malformed value of that parameter does (404 for an id, the parameter's own 422 elsewhere). Left as it is, the
 * validator would answer 422 naming a field built from the URL. originalUrl is rewritten too, since
 * express-openapi-validator matches operations on it (as src/areas/channels/raw-relay-rewrite.ts does).
 */
export const undecodableSegmentsAsText: RequestHandler = (req, _res, next) => {
  const query = req.url.indexOf('?');
  const path = query < 0 ? req.url : req.url.slice(0, query);
  if (path.includes('%')) {
    const segments = path.split('/');
    let changed = false;
    for (let i = 0; i < segments.length; i++) {
      if (decodes(segments[i]!)) continue;
      segments[i] = segments[i]!.replace(/%/g, '%25');
      changed = true;
    }
    if (changed) {
      req.url = segments.join('/') + (query < 0 ? '' : req.url.slice(query));
      req.originalUrl = req.url;
    }
  }
  next();
};

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
