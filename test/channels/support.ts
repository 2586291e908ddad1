import request from 'supertest';
import type { TestApp } from '../helpers/app.js';

/** The seeded channels (src/areas/channels/fixture-ids.ts). */
export const channels = {
  connected: 'cccccccc-cccc-4ccc-8ccc-ccccccccc001',
  unconnected: 'cccccccc-cccc-4ccc-8ccc-ccccccccc002',
  rival: 'cccccccc-cccc-4ccc-8ccc-ccccccccc003',
} as const;

/** A well-formed channel id that no world has. */
export const MISSING_CHANNEL = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';

export const relayPath = (channel: string, endpoint: string) => `/2024-09/channels/retailer/${channel}/call/${endpoint}`;

/** The orders list, encoded in one segment as Swagger UI sends it. */
export const ORDERS = 'orders%2Fv0%2Forders';
export const ORDERS_QUERY = { MarketplaceIds: 'ATVPDKIKX0DER', CreatedAfter: '2024-01-01T00:00:00Z' };

/** Stores connection data by hand on a channel, as a client would. */
export async function connect(t: TestApp, channel: string, data: Record<string, string> = {}) {
  const res = await request(t.app)
    .post(`/2024-09/channels/retailer/${channel}/connection-data`)
    .set(t.auth('owner'))
    .send({ access_token: 'Atza|client-access-1234567890', refresh_token: 'Atzr|client-refresh-1234567890', marketplace_id: 'ATVPDKIKX0DER', ...data });
  if (res.status !== 200) throw new Error(`connection-data answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res;
}

/** Every secret the world stores for channels right now: tokens and pending authorization codes. */
export function storedSecrets(t: TestApp): string[] {
  const secrets = new Set<string>();
  for (const c of t.store.channel_connections.all()) secrets.add(c.access_token).add(c.refresh_token);
  for (const g of t.store.retailer_grants.all()) secrets.add(g.access_token).add(g.refresh_token);
  for (const a of t.store.retailer_authorizations.all()) if (a.code) secrets.add(a.code);
  return [...secrets];
}
