import type { WorldRuleBreach } from '../world-rules.js';

/** The channels holding more records of a collection than the handlers keep per channel, one breach each. */
export function channelsPastBound(
  records: readonly { channel_id: string }[],
  bound: number,
  collection: string,
  message: (channel: string, held: number) => string,
): WorldRuleBreach[] {
  const perChannel = new Map<string, number>();
  for (const record of records) perChannel.set(record.channel_id, (perChannel.get(record.channel_id) ?? 0) + 1);
  return [...perChannel].filter(([, held]) => held > bound).map(([channel, held]) => ({ collection, field: 'channel_id', message: message(channel, held) }));
}
