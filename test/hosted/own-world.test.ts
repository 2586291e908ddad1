import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearer, hostedApp, newWorkspace } from './support.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';

for (const hosted of [true, false]) {
  describe(`the control plane acts on the caller's own world (${hosted ? 'hosted' : 'local'} mode)`, () => {
    const setup = async () => {
      const t = await hostedApp({ hosted, ...(hosted ? {} : { adminToken: undefined }) });
      const [a, b] = [await newWorkspace(t.app), await newWorkspace(t.app)];
      return { t, a, b, as: (ws: typeof a) => bearer(ws.tokens.owner) };
    };

    it("When a workspace token advances or reads the clock, then only that workspace's clock moves", async () => {
      const { t, a, b, as } = await setup();
      const moved = await request(t.app).post('/_sandbox/clock/advance').set(as(a)).send({ hours: 5 }).expect(200);
      expect(moved.body.data).toMatchObject({ workspace: a.id, offset_ms: 5 * 3_600_000 });
      expect((await request(t.app).get('/_sandbox/clock').set(as(a)).expect(200)).body.data.offset_ms).toBe(5 * 3_600_000);
      expect((await request(t.app).get('/_sandbox/clock').set(as(b)).expect(200)).body.data).toMatchObject({ workspace: b.id, offset_ms: 0 });
      expect(t.worlds.defaultWorld.clock.offset).toBe(0);
      expect(t.errors).toEqual([]);
    });

    it('When a workspace token resets, then only its world goes back to the seed', async () => {
      const { t, a, b, as } = await setup();
      for (const ws of [a, b])
        await request(t.app)
          .put(`/2024-09/merchants/${MERCHANT}`)
          .set(as(ws))
          .send({ name: `Renamed ${ws.id}` })
          .expect(204);
      await request(t.app).post('/_sandbox/reset').set(as(a)).expect(204);
      const nameIn = async (ws: typeof a) => (await request(t.app).get(`/2024-09/merchants/${MERCHANT}`).set(as(ws)).expect(200)).body.data.name;
      expect(await nameIn(a)).toBe('Demo Outfitters');
      expect(await nameIn(b)).toBe(`Renamed ${b.id}`);
    });

    it("When a workspace token reads the journal and the coverage, then they show that workspace's requests alone", async () => {
      const { t, a, b, as } = await setup();
      await request(t.app).get('/2024-09/merchants').set(as(a)).expect(200);
      await request(t.app).get(`/2024-09/merchants/${MERCHANT}`).set(as(b)).expect(200);
      const journal = (await request(t.app).get('/_sandbox/requests').set(as(a)).expect(200)).body.data as { workspace: string; operation_id: string }[];
      expect(journal.length).toBeGreaterThan(0);
      expect(new Set(journal.map((e) => e.workspace))).toEqual(new Set([a.id]));
      expect(journal.map((e) => e.operation_id)).not.toContain('getMerchant');
      const coverage = (await request(t.app).get('/_sandbox/coverage').set(as(a)).expect(200)).body.data;
      expect(coverage.workspace).toBe(a.id);
      const answered = (id: string) => coverage.operations.find((o: { operation_id: string }) => o.operation_id === id).answered;
      expect(answered('listMerchants')).toEqual(['200']);
      expect(answered('getMerchant')).toEqual([]);
      // Clearing with a token clears that workspace's entries only.
      await request(t.app).delete('/_sandbox/requests').set(as(a)).expect(204);
      const left = (await request(t.app).get('/_sandbox/requests').set(as(b)).expect(200)).body.data as { operation_id: string }[];
      expect(left.map((e) => e.operation_id)).toContain('getMerchant');
    });

    it("When a workspace token reads a channel's call log, then it is the log of that workspace's channel", async () => {
      const { t, a, as } = await setup();
      const res = await request(t.app).get(`/_sandbox/channels/${CHANNEL}/calls`).set(as(a)).expect(200);
      expect(res.body.data).toEqual([]);
      expect(t.errors).toEqual([]);
    });

    it('When a workspace token names another workspace, by query or by path, then 403 and nothing happens to it', async () => {
      const { t, a, b, as } = await setup();
      await request(t.app).post('/_sandbox/clock/advance').query({ workspace: b.id }).set(as(a)).send({ hours: 1 }).expect(403);
      await request(t.app).get('/_sandbox/requests').query({ workspace: b.id }).set(as(a)).expect(403);
      await request(t.app).get('/_sandbox/coverage').query({ workspace: 'default' }).set(as(a)).expect(403);
      await request(t.app).post('/_sandbox/reset').query({ workspace: b.id }).set(as(a)).expect(403);
      await request(t.app).get(`/_sandbox/channels/${CHANNEL}/calls`).query({ workspace: b.id }).set(as(a)).expect(403);
      await request(t.app).post(`/_sandbox/workspaces/${b.id}/reset`).set(as(a)).expect(403);
      const refused = await request(t.app).delete(`/_sandbox/workspaces/${b.id}`).set(as(a)).expect(403);
      expect(refused.body.message).toMatch(/own workspace/);
      expect(t.worlds.workspace(b.id)).toBeDefined();
      expect(t.worlds.workspace(b.id)!.world.clock.offset).toBe(0);
      // Its own id is fine.
      await request(t.app).post(`/_sandbox/workspaces/${a.id}/reset`).set(as(a)).expect(204);
      await request(t.app).delete(`/_sandbox/workspaces/${a.id}`).set(as(a)).expect(204);
      expect(t.worlds.workspace(a.id)).toBeUndefined();
      expect(t.errors).toEqual([]);
    });
  });
}

describe('local mode keeps its convenience', () => {
  it('When a control-plane call names a workspace without a token, then it acts on that workspace', async () => {
    const t = await hostedApp({ hosted: false, adminToken: undefined });
    const ws = await newWorkspace(t.app);
    await request(t.app).post('/_sandbox/clock/advance').query({ workspace: ws.id }).send({ hours: 2 }).expect(200);
    expect(t.worlds.workspace(ws.id)!.world.clock.offset).toBe(2 * 3_600_000);
    await request(t.app).get('/_sandbox/requests').expect(200);
    await request(t.app).delete(`/_sandbox/workspaces/${ws.id}`).expect(204);
  });
});
