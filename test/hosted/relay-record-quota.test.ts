// Every relay call adds a record to its channel's log (the newest 500 kept per channel), and a workspace may hold
// 20,000 channels: without the record quota on the relay, GETs alone could fill a workspace with ten million call
// records while every create was refused for the quota. The relay operations count against WORKSPACE_MAX_RECORDS
// like any operation that adds records.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearer, hostedApp, newWorkspace } from './support.js';

const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
const RELAY = `/2024-09/channels/retailer/${CHANNEL}/call/sellers%2Fv1%2FmarketplaceParticipations`;

describe('the relay and the record quota', () => {
  it('When a workspace holds the records it may add, then a relay call that would log one more answers 422 naming the quota, and its log is unchanged', async () => {
    const t = await hostedApp({ workspaceMaxRecords: 2 });
    const ws = await newWorkspace(t.app);
    const owner = bearer(ws.tokens.owner);
    const logged = async () => (await request(t.app).get(`/_sandbox/channels/${CHANNEL}/calls?per_page=1`).set(owner).expect(200)).body.meta.total;
    const before = await logged();
    await request(t.app).get(RELAY).set(owner).expect(200);
    await request(t.app).get(RELAY).set(owner).expect(200);
    const refused = await request(t.app).get(RELAY).set(owner);
    expect(refused.status, refused.text.slice(0, 300)).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['quota']);
    expect(await logged()).toBe(before + 2);
    expect(t.errors).toEqual([]);
  });
});
