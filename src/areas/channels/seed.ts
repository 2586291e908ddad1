import { adoptGrant, DEFAULT_MARKETPLACE_ID, LIFETIME_MS, tokensFrom } from '../../retailer/index.js';
import type { AreaSeedContext } from '../collections.js';
import { saveConnection } from './connection.js';
import { DEMO_CONNECTED_CHANNEL_ID, DEMO_UNCONNECTED_CHANNEL_ID, RIVAL_CHANNEL_ID } from './fixture-ids.js';
import type { ChannelRecord } from './records.js';
import { retailerPort } from './retailer-instance.js';

const DEMO_MERCHANT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const RIVAL_MERCHANT_ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
/** How many faker merchants get a channel too, so lists and permissions are tried against more than the demo data. */
const OTHER_MERCHANTS_WITH_CHANNELS = 3;

/**
 * Connects a seeded channel: connection data whose access token expired an hour after the seed date, and the
 * simulated retailer's matching grant, with tokens from the seeder's own faker.
 */
export function seededConnector(s: AreaSeedContext): (channel: ChannelRecord, marketplaceId: string) => void {
  const tokens = tokensFrom(() => s.faker.string.alphanumeric(40));
  const port = retailerPort(s.store);
  return (channel, marketplaceId) => {
    const issued = s.refDate;
    const grant = {
      access_token: tokens('access'),
      refresh_token: tokens('refresh'),
      access_token_expires_at: new Date(issued.getTime() + LIFETIME_MS.access).toISOString(),
    };
    saveConnection(s.store, channel.id, { ...grant, marketplace_id: marketplaceId }, channel.updated_at);
    adoptGrant(port, channel.id, grant, issued);
  };
}

/**
 * The demo merchant's connected and unconnected channels, the rival's channel and a channel for a few faker
 * merchants. Connected channels' access tokens expired an hour after the seed date, so the first relayed call
 * shows a refresh; the simulated retailer honours the seeded grant, so that refresh works.
 */
export function seedChannels(s: AreaSeedContext): void {
  const connect = seededConnector(s);
  const at = (iso: string) => new Date(iso).toISOString();
  const insert = (channel: ChannelRecord) => s.store.channels.insert(channel);

  const usStore = insert({
    id: DEMO_CONNECTED_CHANNEL_ID,
    merchant_id: DEMO_MERCHANT_ID,
    name: 'Demo Outfitters US store',
    type: 'retailer',
    created_at: at('2024-02-01T10:00:00Z'),
    updated_at: at('2024-02-01T10:00:00Z'),
  });
  connect(usStore, DEFAULT_MARKETPLACE_ID);
  insert({
    id: DEMO_UNCONNECTED_CHANNEL_ID,
    merchant_id: DEMO_MERCHANT_ID,
    name: 'Demo Outfitters CA store',
    type: 'retailer',
    created_at: at('2024-03-01T10:00:00Z'),
    updated_at: at('2024-03-01T10:00:00Z'),
  });
  const rival = insert({
    id: RIVAL_CHANNEL_ID,
    merchant_id: RIVAL_MERCHANT_ID,
    name: 'Rival Goods US store',
    type: 'retailer',
    created_at: at('2024-04-01T10:00:00Z'),
    updated_at: at('2024-04-01T10:00:00Z'),
  });
  connect(rival, DEFAULT_MARKETPLACE_ID);

  const others = s.store.merchants.all().filter((m) => m.id !== DEMO_MERCHANT_ID && m.id !== RIVAL_MERCHANT_ID);
  for (const merchant of others.slice(0, OTHER_MERCHANTS_WITH_CHANNELS)) {
    const created = s.faker.date.between({ from: merchant.created_at, to: s.refDate }).toISOString();
    const channel = insert({
      id: s.faker.string.uuid(),
      merchant_id: merchant.id,
      name: `${merchant.name} ${s.faker.helpers.arrayElement(['US', 'EU', 'UK'])} store`,
      type: 'retailer',
      created_at: created,
      updated_at: created,
    });
    if (s.faker.datatype.boolean()) connect(channel, DEFAULT_MARKETPLACE_ID);
  }
}
