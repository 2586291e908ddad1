import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { channels, ORDERS, ORDERS_QUERY, relayPath, storedSecrets } from './support.js';

describe('secrets never leave the store', () => {
  it('When a whole channel workflow runs, then no response body, log line, journal entry or call-log entry holds a stored token or code', async () => {
    const lines: string[] = [];
    const t = await testApp({ logLevel: 'debug' }, { requestLog: (line) => lines.push(line) });
    const owner = t.auth('owner');
    const bodies: string[] = [];
    const keep = (res: request.Response) => {
      bodies.push(res.text ?? '', JSON.stringify(res.body ?? ''));
      return res;
    };

    // Connection data by hand, with an expiry in the past so the relay refreshes (a new secret is minted).
    const sent = { access_token: 'Atza|hand-stored-access-token-0123456789', refresh_token: 'Atzr|hand-stored-refresh-token-0123456789' };
    keep(
      await request(t.app)
        .post(`/2024-09/channels/retailer/${channels.unconnected}/connection-data`)
        .set(owner)
        .send({ ...sent, access_token_expires_at: '2024-01-01T00:00:00Z' }),
    );
    keep(await request(t.app).get(relayPath(channels.unconnected, ORDERS)).query(ORDERS_QUERY).set(owner));
    keep(
      await request(t.app)
        .get(relayPath(channels.unconnected, 'orders/v0/orders'))
        .query({ ...ORDERS_QUERY, access_token: sent.access_token })
        .set(owner),
    );
    keep(await request(t.app).get(`/2024-09/channels/${channels.unconnected}/catalog-search`).set(owner));

    // The consent flow on the other channel: a code travels in the redirect and the callback's query.
    const connectedFlow = await request(t.app).get(`/2024-09/channels/retailer/${channels.connected}/get-auth-url`).set(owner);
    keep(connectedFlow);
    const url = new URL(connectedFlow.body.url);
    keep(await request(t.app).get(url.pathname + url.search));
    const decided = keep(
      await request(t.app)
        .post('/_retailer/authorize')
        .type('form')
        .send({ state: url.searchParams.get('state'), decision: 'approve' }),
    );
    const callback = new URL(decided.headers.location);
    keep(await request(t.app).get(callback.pathname + callback.search));
    keep(await request(t.app).get(relayPath(channels.connected, 'sellers/v1/marketplaceParticipations')).set(owner));

    // Everything a client can read back about channels.
    keep(await request(t.app).get('/2024-09/channels').query({ merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' }).set(owner));
    for (const id of [channels.connected, channels.unconnected]) {
      keep(await request(t.app).get(`/2024-09/channels/${id}`).set(owner));
      keep(await request(t.app).get(`/_sandbox/channels/${id}/calls`));
    }

    const secrets = [...storedSecrets(t), sent.access_token, sent.refresh_token, callback.searchParams.get('code')!];
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    const callLog = JSON.stringify(t.store.channel_calls.all());
    const journalText = JSON.stringify(t.runtime.observations.journal.list());
    const logText = lines.join('\n') + t.errors.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      for (const [where, text] of [
        ['response bodies', bodies.join('\n')],
        ['log lines', logText],
        ['journal', journalText],
        ['call log', callLog],
      ]) {
        expect(text.includes(secret), `${where} contain a secret`).toBe(false);
      }
    }
    // Secret-free facts are still there.
    expect(callLog).toContain('orders/v0/orders');
    expect(t.errors).toEqual([]);
  });

  it('When the journal records a channel and its call log, then the token expiry and refreshed_token show as answered, the tokens stay redacted', async () => {
    const t = await testApp();
    const owner = t.auth('owner');
    const expiry = '2099-01-01T00:00:00.000Z';
    const stored = await request(t.app)
      .post(`/2024-09/channels/retailer/${channels.unconnected}/connection-data`)
      .set(owner)
      .send({ access_token: 'Atza|journal-access-0123456789', refresh_token: 'Atzr|journal-refresh-0123456789', access_token_expires_at: expiry });
    expect(stored.body.data.access_token_expires_at).toBe(expiry);
    await request(t.app).get(relayPath(channels.unconnected, 'sellers%2Fv1%2FmarketplaceParticipations')).set(owner);
    const calls = await request(t.app).get(`/_sandbox/channels/${channels.unconnected}/calls`);
    expect(calls.body.data[0].refreshed_token).toBe(false);

    const journal = await request(t.app).get('/_sandbox/requests');
    const entry = (operation: string) => journal.body.data.find((e: any) => e.operation_id === operation);
    const connection = entry('storeChannelConnectionData');
    expect(connection.request.body).toMatchObject({ access_token: '[REDACTED]', refresh_token: '[REDACTED]', access_token_expires_at: expiry });
    expect(connection.response.body.data.access_token_expires_at).toBe(expiry);
    expect(entry('listChannelCalls').response.body.data[0].refreshed_token).toBe(false);
  });
});
