import { emptyState, withFeed } from '../channel-state.js';
import { invalidInput, notFoundError } from '../errors.js';
import { participations } from '../marketplaces.js';
import type { OperationContext, OperationOutcome, RetailerOperation } from '../operation.js';
import type { RetailerFeed } from '../record-types.js';
import { feedProblem, nameProblem } from '../state-limits.js';
import { fnv1a } from '../../store/stable-hash.js';

const IN_QUEUE_MS = 30_000;
const IN_PROGRESS_MS = 60_000;

/** A feed's processing status is derived from its age, so the sandbox clock moves it along without a worker. */
function presentFeed(feed: RetailerFeed, now: Date) {
  const age = now.getTime() - Date.parse(feed.created_at);
  const at = (ms: number) => new Date(Date.parse(feed.created_at) + ms).toISOString();
  const status = age < IN_QUEUE_MS ? 'IN_QUEUE' : age < IN_PROGRESS_MS ? 'IN_PROGRESS' : 'DONE';
  return {
    feedId: feed.feed_id,
    feedType: feed.feed_type,
    marketplaceIds: feed.marketplace_ids,
    createdTime: feed.created_at,
    processingStatus: status,
    ...(status !== 'IN_QUEUE' ? { processingStartTime: at(IN_QUEUE_MS) } : {}),
    ...(status === 'DONE' ? { processingEndTime: at(IN_PROGRESS_MS), resultFeedDocumentId: `amzn1.tortuga.4.na.result.${feed.feed_id}` } : {}),
  };
}

function createFeed(ctx: OperationContext): OperationOutcome {
  const b = ctx.body as Record<string, unknown> | undefined;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return invalidInput('The request body must be a JSON object.');
  if (typeof b.feedType !== 'string' || b.feedType.length === 0) return invalidInput('feedType is required.');
  if (typeof b.inputFeedDocumentId !== 'string' || b.inputFeedDocumentId.length === 0) return invalidInput('inputFeedDocumentId is required.');
  const ids = b.marketplaceIds;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string'))
    return invalidInput('marketplaceIds must be a non-empty array of strings.');
  const known = new Set(participations(ctx.marketplaceId).map((m) => m.id));
  if (!ids.every((id) => known.has(id))) return invalidInput('Invalid marketplaceIds: the seller does not participate in every one.');
  const tooMuch = nameProblem('feedType', b.feedType) ?? nameProblem('inputFeedDocumentId', b.inputFeedDocumentId) ?? feedProblem(ctx.state);
  if (tooMuch) return invalidInput(tooMuch);
  const state = ctx.state ?? emptyState(ctx.channelId, ctx.now);
  const feed: RetailerFeed = {
    feed_id: `${10000 + (fnv1a(ctx.channelId) % 90000)}${String(state.feeds.length + 1).padStart(6, '0')}`,
    feed_type: b.feedType,
    // Each once: a list repeating a marketplace names no more of them.
    marketplace_ids: [...new Set(ids as string[])],
    input_feed_document_id: b.inputFeedDocumentId,
    created_at: ctx.now.toISOString(),
  };
  return { status: 202, body: { feedId: feed.feed_id }, state: withFeed(state, feed, ctx.now) };
}

function getFeed(ctx: OperationContext): OperationOutcome {
  const feed = ctx.state?.feeds.find((f) => f.feed_id === ctx.params.feedId);
  if (!feed) return notFoundError(`Feed ${ctx.params.feedId} was not found.`);
  return { status: 200, body: presentFeed(feed, ctx.now) };
}

/** The feeds API 2021-06-30 operations (documents are not simulated: any inputFeedDocumentId is taken). */
export const feedOperations: RetailerOperation[] = [
  { name: 'createFeed', method: 'POST', path: 'feeds/2021-06-30/feeds', limit: { rate: 0.0083, burst: 15 }, run: createFeed },
  { name: 'getFeed', method: 'GET', path: 'feeds/2021-06-30/feeds/{feedId}', limit: { rate: 2, burst: 15 }, run: getFeed },
];
