import express, { Router, type Request, type Response } from 'express';
import {
  AUTHORIZATION_MESSAGES,
  completeAuthorization,
  decideAuthorization,
  DEFAULT_MARKETPLACE_ID,
  pendingAuthorization,
  randomTokens,
  renderConsentPage,
  renderErrorPage,
  renderSuccessPage,
  type AuthorizationProblem,
} from '../../retailer/index.js';
import type { World } from '../../world.js';
import type { Worlds } from '../../worlds.js';
import { saveConnection } from './connection.js';
import { retailerPort } from './retailer-instance.js';

/** Where the consent page posts its decision and where the sandbox receives the retailer's redirect. */
export const CONSENT_PATH = '/_retailer/authorize';
export const CALLBACK_PATH = '/_retailer/callback';

type Problem = AuthorizationProblem | 'channel_gone' | 'not_a_member' | 'bad_decision';

const MESSAGES: Record<Problem, string> = {
  ...AUTHORIZATION_MESSAGES,
  channel_gone: 'The channel of this authorization no longer exists. Nothing was stored.',
  not_a_member: "The user who requested this authorization is no longer a member of the channel's merchant. Nothing was stored.",
  bad_decision: 'The consent form was not submitted with Approve or Deny.',
};

// A denial is the seller's refusal (403); every other failure is a link or code that cannot be used (400).
const statusOf = (problem: Problem) => (problem === 'access_denied' || problem === 'not_a_member' ? 403 : 400);

/** Thrown inside a transaction to undo what the callback wrote before it found a problem. */
class Refused extends Error {
  constructor(readonly problem: Problem) {
    super(problem);
  }
}

// The flow's pages carry single-use secrets in their URLs: never cache them, never leak them in a Referer.
function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).type('html').send(html);
}

const sendProblem = (res: Response, problem: Problem) => sendPage(res, statusOf(problem), renderErrorPage({ message: MESSAGES[problem] }));

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Records that a request proved it may act in `world` (src/access/auth.ts's actsIn): journaled there, kept alive. */
export type ActsIn = (req: Request, worlds: Worlds, world: World) => void;

/** The simulated retailer's pages and the sandbox's OAuth callback (HTML, outside the contract). */
export function consentPages(worlds: Worlds, actsIn: ActsIn): Router {
  /**
   * The world these pages act in. No API token arrives with them, so the state names it: in a workspace it starts
   * with the workspace's `ws_<id>.` prefix, like its tokens (see stateTokens). A gone workspace: no world. The
   * prefix proves nothing: only a state the retailer accepted files the page under its workspace (actsIn).
   */
  const worldOf = (state: string): World | undefined => worlds.worldOfSecret(state);
  const router = Router({ caseSensitive: true });

  router.get(CONSENT_PATH, (req, res) => {
    const state = text(req.query.state) ?? '';
    const world = worldOf(state);
    if (!world) return sendProblem(res, 'unknown_state');
    const store = world.store.collections;
    const pending = pendingAuthorization(retailerPort(store), state, world.clock.now());
    if (!pending.ok) return sendProblem(res, pending.problem);
    actsIn(req, worlds, world);
    const channel = store.channels.get(pending.value.channel_id);
    const merchant = channel && store.merchants.get(channel.merchant_id);
    if (!channel || !merchant) return sendProblem(res, 'channel_gone');
    // The state rides in the form's URL too, so a proxy routing by it (deploy/nginx) sends the decision to this replica.
    const action = `${CONSENT_PATH}?state=${encodeURIComponent(pending.value.id)}`;
    sendPage(res, 200, renderConsentPage({ merchantName: merchant.name, channelName: channel.name, state: pending.value.id, action }));
  });

  router.post(CONSENT_PATH, express.urlencoded({ extended: false, limit: '16kb' }), async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const decision = text(body.decision);
      if (decision !== 'approve' && decision !== 'deny') return sendProblem(res, 'bad_decision');
      const state = text(body.state) ?? '';
      const world = worldOf(state);
      if (!world) return sendProblem(res, 'unknown_state');
      const decided = await world.store.transact(() =>
        decideAuthorization(retailerPort(world.store.collections), {
          state,
          approve: decision === 'approve',
          now: world.clock.now(),
          tokens: randomTokens,
        }),
      );
      if (!decided.ok) return sendProblem(res, decided.problem);
      actsIn(req, worlds, world);
      // No body: Express's redirect text would repeat the URL, and with it the single-use code.
      res.status(302).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).location(decided.value.redirect).end();
    } catch (error) {
      next(error);
    }
  });

  router.get(CALLBACK_PATH, async (req, res, next) => {
    try {
      const state = text(req.query.state) ?? '';
      const world = worldOf(state);
      if (!world) return sendProblem(res, 'unknown_state');
      const store = world.store.collections;
      const connected = await world.store.transact(() => {
        const now = world.clock.now();
        const done = completeAuthorization(retailerPort(store), {
          state,
          code: text(req.query.code),
          error: text(req.query.error),
          now,
          tokens: randomTokens,
        });
        if (!done.ok) throw new Refused(done.problem);
        const channel = store.channels.get(done.value.channelId);
        const merchant = channel && store.merchants.get(channel.merchant_id);
        if (!channel || !merchant) throw new Refused('channel_gone');
        const member = store.memberships.where('user_id', done.value.userId).some((m) => m.merchant_id === merchant.id);
        if (!member) throw new Refused('not_a_member');
        const previous = store.channel_connections.get(channel.id);
        saveConnection(store, channel.id, { ...done.value.tokens, marketplace_id: previous?.marketplace_id ?? DEFAULT_MARKETPLACE_ID }, now.toISOString());
        return { channelName: channel.name, merchantName: merchant.name };
      });
      actsIn(req, worlds, world);
      sendPage(res, 200, renderSuccessPage(connected));
    } catch (error) {
      if (error instanceof Refused) sendProblem(res, error.problem);
      else next(error);
    }
  });

  return router;
}
