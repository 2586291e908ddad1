import { invalidInput } from '../errors.js';
import { participations } from '../marketplaces.js';
import type { OperationContext } from '../operation.js';
import { list } from '../query.js';
import type { OperationResult } from '../types.js';

/** The required marketplace-id list parameter, checked against the seller's participations, or the 400 to answer. */
export function marketplaceIds(ctx: OperationContext, name: string): string[] | OperationResult {
  const ids = list(ctx.query, name);
  if (ids.length === 0) return invalidInput(`Missing required parameter ${name}.`);
  const known = new Set(participations(ctx.marketplaceId).map((m) => m.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) return invalidInput(`Invalid ${name}: the seller does not participate in ${unknown.join(', ')}.`);
  return ids;
}

/** Whether a helper answered an error instead of a value. */
export const isResult = (value: unknown): value is OperationResult => typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
