import { adoptGrant } from '../../src/retailer/auth/grants.js';
import { tokensFrom } from '../../src/retailer/auth/tokens.js';
import { createMemoryPort } from './memory-port.js';
import { createRetailer, type RetailerOptions } from '../../src/retailer/retailer.js';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { retailerEndpointSchema } from '../../src/contract/document/retailer-endpoint.js';
import type { RetailerMethod, RetailerRequest } from '../../src/retailer/types.js';

export const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
export const OTHER_CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc002';
export const US = 'ATVPDKIKX0DER';
export const T0 = new Date('2024-09-02T10:00:00.000Z');
export const ACCESS = 'Atza|test-access';
export const REFRESH = 'Atzr|test-refresh';

/** Counting tokens, so every test gets the same secrets. */
export function countingTokens() {
  let n = 0;
  return tokensFrom(() => `t${++n}`);
}

/** The contract's endpoint rule, as a sandbox hands it to its retailer. */
export const ENDPOINT = retailerEndpointSchema(loadContract().doc);

/** A retailer with one connected channel (token valid one hour from T0), a memory port and a call helper. */
export function connectedRetailer(options: Partial<RetailerOptions> = {}) {
  let ids = 0;
  const retailer = createRetailer({ seed: 20240901, newId: () => `id-${++ids}`, endpoint: ENDPOINT, ...options });
  const port = createMemoryPort();
  adoptGrant(port, CHANNEL, { access_token: ACCESS, refresh_token: REFRESH, access_token_expires_at: '2024-09-02T11:00:00.000Z' }, T0);
  const call = (
    method: RetailerMethod,
    path: string,
    query: RetailerRequest['query'] = {},
    extra: Partial<Pick<RetailerRequest, 'body' | 'accessToken' | 'now'>> = {},
  ) =>
    retailer.handle(
      { channelId: CHANNEL, marketplaceId: US, port },
      { method, path, query, body: extra.body, accessToken: extra.accessToken ?? ACCESS, now: extra.now ?? T0 },
    );
  return { retailer, port, call, account: retailer.account(CHANNEL) };
}

/** Shorthand for reading a JSON body. */
export const bodyOf = (response: { body: unknown }) => response.body as any;
