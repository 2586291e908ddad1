import { unprocessable } from '../../http/errors.js';

/**
 * The contract's name for the relay's query string (components.parameters.RetailerQuery): a form-exploded free-form
 * object, so on the wire its members are the query parameters and the name itself never appears.
 */
export const RETAILER_QUERY = 'retailer_query';

/** Where a relayed call goes: the retailer path, and the query string both as sent and parsed. */
export interface RelayTarget {
  path: string;
  /** The query string without `?`: the endpoint's own `?query` first, then the request's. */
  rawQuery: string;
  /** The same query, repeated names as arrays. */
  query: Record<string, string | string[]>;
}

/**
 * The retailer path and query of a relay request. An endpoint may carry its own `?query` (the contract allows it);
 * it is joined ahead of the request's query string, as a client concatenating a URL by hand would have sent it.
 * A query naming `retailer_query` itself is refused: it is the deepObject or JSON serialization of the declared
 * object (openapi-fetch's default), and relaying it as sent would hide every member from the retailer.
 */
export function relayTarget(endpoint: string, url: string): RelayTarget {
  const mark = endpoint.indexOf('?');
  const path = mark < 0 ? endpoint : endpoint.slice(0, mark);
  const inEndpoint = mark < 0 ? '' : endpoint.slice(mark + 1);
  const q = url.indexOf('?');
  const inRequest = q < 0 ? '' : url.slice(q + 1);
  const rawQuery = [inEndpoint, inRequest].filter((part) => part.length > 0).join('&');
  const search = new URLSearchParams(rawQuery);
  const query: Record<string, string | string[]> = Object.create(null);
  for (const key of new Set(search.keys())) {
    if (key === RETAILER_QUERY || key.startsWith(`${RETAILER_QUERY}[`)) refuseWrapped();
    const values = search.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return { path, rawQuery, query };
}

function refuseWrapped(): never {
  return unprocessable({
    [RETAILER_QUERY]: [
      'The retailer_query members must be sent as plain query parameters (form style, exploded: ?MarketplaceIds=...), not wrapped in retailer_query. ' +
        'With openapi-fetch, pass querySerializer: { object: { style: "form", explode: true } }.',
    ],
  });
}
