// A channel's call log: the relay appends each call and keeps the newest CALL_LOG_LIMIT; a loaded workspace
// bundle's world is held to the same bound before it is served.
import type { Collections } from '../collections.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { channelsPastBound } from './per-channel-bound.js';
import type { ChannelCallRecord } from './records.js';

/** How many calls a channel's log keeps; older ones are dropped so a busy integration cannot grow the store forever. */
export const CALL_LOG_LIMIT = 500;

/** Appends a call to its channel's log, dropping the oldest past CALL_LOG_LIMIT. */
export function logCall(store: Collections, call: ChannelCallRecord): void {
  store.channel_calls.insert(call);
  const calls = store.channel_calls.where('channel_id', call.channel_id);
  for (const old of calls.slice(0, Math.max(0, calls.length - CALL_LOG_LIMIT))) store.channel_calls.remove(old.id);
}

/** Channels whose log holds more calls than the relay keeps. */
export function callLogBreaches(store: Collections): WorldRuleBreach[] {
  return channelsPastBound(
    store.channel_calls.all(),
    CALL_LOG_LIMIT,
    'channel_calls',
    (channel, held) => `Channel ${channel} has ${held} calls in its log; the log keeps the newest ${CALL_LOG_LIMIT}.`,
  );
}
