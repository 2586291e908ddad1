import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { channels, relayPath } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

const PARTICIPATIONS = 'sellers%2Fv1%2FmarketplaceParticipations';
const relayWith = (prefer: string, channel: string = channels.connected) =>
  request(t.app).get(relayPath(channel, PARTICIPATIONS)).set(t.auth('owner')).set('Prefer', prefer);
const lastCall = () => t.store.channel_calls.where('channel_id', channels.connected).at(-1)!;

describe('retailer faults on request (Prefer: retailer-fault)', () => {
  it('When throttle is asked for, then 429 with Retry-After, Preference-Applied, and the call is logged with its fault', async () => {
    const res = await relayWith('retailer-fault=throttle');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['preference-applied']).toBe('retailer-fault=throttle');
    expect(res.body.message).toMatch(/throttled/);
    expect(lastCall()).toMatchObject({ status: 429, retailer_status: 429, fault: 'throttle' });
    // An asked-for throttle takes nothing from the real bucket: the next call goes through.
    await request(t.app).get(relayPath(channels.connected, PARTICIPATIONS)).set(t.auth('owner')).expect(200);
    expect(t.errors).toEqual([]);
  });

  it('When timeout is asked for, then the documented 504 and the call log shows no retailer status', async () => {
    const res = await relayWith('retailer-fault=timeout');
    expect(res.status).toBe(504);
    expect(res.body.message).toMatch(/did not answer in time/);
    expect(res.headers['preference-applied']).toBe('retailer-fault=timeout');
    expect(lastCall()).toMatchObject({ status: 504, retailer_status: null, fault: 'timeout' });
    const log = await request(t.app).get(`/_sandbox/channels/${channels.connected}/calls`).expect(200);
    expect(log.body.data[0]).toMatchObject({ status: 504, fault: 'timeout' });
    expect(t.errors).toEqual([]);
  });

  it("When error is asked for, then the retailer's 500 is relayed like any retailer answer: 200 with X-Retailer-Status 500", async () => {
    const res = await relayWith('retailer-fault=error');
    expect(res.status).toBe(200);
    expect(res.headers['x-retailer-status']).toBe('500');
    expect(JSON.parse(res.body.response).errors[0].code).toBe('InternalFailure');
    expect(lastCall()).toMatchObject({ status: 200, retailer_status: 500, fault: 'error' });
    expect(t.errors).toEqual([]);
  });

  it('When a write is faulted, then the retailer changed nothing', async () => {
    const before = t.store.retailer_states.all();
    const res = await request(t.app)
      .post(relayPath(channels.connected, 'feeds%2F2021-06-30%2Ffeeds'))
      .set(t.auth('owner'))
      .set('Prefer', 'retailer-fault=error')
      .send({ feedType: 'POST_INVENTORY_AVAILABILITY_DATA', marketplaceIds: ['ATVPDKIKX0DER'], inputFeedDocumentId: 'doc-1' });
    expect(res.headers['x-retailer-status']).toBe('500');
    expect(t.store.retailer_states.all()).toEqual(before);
  });

  it('When the fault is combined with delay, then both are applied and named', async () => {
    const res = await relayWith('delay=1, retailer-fault=timeout');
    expect(res.status).toBe(504);
    expect(res.headers['preference-applied']).toBe('delay=1, retailer-fault=timeout');
  });

  it('When the channel is not connected, then 409 as always and the fault is not named as applied', async () => {
    const res = await relayWith('retailer-fault=throttle', channels.unconnected);
    expect(res.status).toBe(409);
    expect(res.headers['preference-applied']).toBeUndefined();
  });

  it('When the fault value is unknown, then 422 naming the knob and nothing is relayed', async () => {
    const res = await relayWith('retailer-fault=explode');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['Prefer.retailer-fault']);
    expect(res.body.message).toContain('throttle, timeout, error');
    expect(t.store.channel_calls.where('channel_id', channels.connected)).toEqual([]);
  });

  it('When the raw endpoint form asks for a fault, then it is honoured the same way', async () => {
    const res = await request(t.app)
      .delete(relayPath(channels.connected, 'listings/2021-08-01/items/SELLER/SKU-1'))
      .set(t.auth('owner'))
      .set('Prefer', 'retailer-fault=timeout');
    expect(res.status).toBe(504);
  });

  it('When Prefer: code=429 or code=200 is asked of the relay, then the example carries Retry-After or X-Retailer-Status like a real answer', async () => {
    const throttled = await relayWith('code=429').expect(429);
    expect(throttled.headers['retry-after']).toBe('2');
    expect(throttled.body.message).toMatch(/Retry after 2 seconds/);
    const relayed = await relayWith('code=200').expect(200);
    expect(relayed.headers['x-retailer-status']).toBe('200');
    expect(JSON.parse(relayed.body.response)).toHaveProperty('payload');
    // Nothing was relayed: an asked-for status changes nothing and reaches no retailer.
    expect(t.store.channel_calls.where('channel_id', channels.connected)).toHaveLength(0);
    expect(t.errors).toEqual([]);
  });

  it('When a retailer fault is asked of an operation that is not a relay, then it answers as usual and says in Sandbox-Prefer-Ignored that the fault was ignored', async () => {
    const search = await request(t.app)
      .get(`/2024-09/channels/${channels.connected}/catalog-search`)
      .query({ keywords: 'a' })
      .set(t.auth('owner'))
      .set('Prefer', 'retailer-fault=throttle')
      .expect(200);
    expect(search.headers['sandbox-prefer-ignored']).toMatch(/^retailer-fault is honoured by the relay operations only .*searchChannelCatalog ignored it\.$/);
    expect(search.headers['preference-applied']).toBeUndefined();
    const relayed = await relayWith('retailer-fault=throttle').expect(429);
    expect(relayed.headers['sandbox-prefer-ignored']).toBeUndefined();
  });
});
