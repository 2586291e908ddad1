// The four demo tokens of a workspace once shared one secret (`ws_<id>.<secret>.demo-member-token`): writing
// `owner` for `member` in the member's token gave owner rights (deleting the merchant answered 204). Each token
// now has its own secret, so nothing written from one token is another.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearer, hostedApp, newWorkspace } from '../hosted/support.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

describe('regression: a role token derived from another', () => {
  it("When the member rewrites its token into the owner's old form, then 401, and the owner's work is still the owner's alone", async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    const member = ws.tokens.member;
    // The old exploit, then the old form written with the member's secret: neither acts as the owner.
    const rewritten = member.replace('member', 'owner');
    const deleted = await request(t.app).delete(`/2024-09/merchants/${MERCHANT}`).set(bearer(rewritten));
    expect([401, 403]).toContain(deleted.status);
    const secret = member.slice(`ws_${ws.id}.`.length);
    await request(t.app)
      .delete(`/2024-09/merchants/${MERCHANT}`)
      .set(bearer(`ws_${ws.id}.${secret}.demo-owner-token`))
      .expect(401);
    await request(t.app).get(`/2024-09/merchants/${MERCHANT}`).set(bearer(ws.tokens.owner)).expect(200);
    // No two tokens share their random part (the 24 characters after the prefix), in one workspace or across two.
    const other = await newWorkspace(t.app);
    const secrets = [ws, other].flatMap((w) => Object.values(w.tokens).map((token) => token.slice(`ws_${w.id}.`.length).slice(0, 24)));
    expect(new Set(secrets).size).toBe(8);
    expect(t.errors).toEqual([]);
  });
});
