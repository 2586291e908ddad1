// Both identifier POSTs (product, supplier item) refuse the same type and value twice on one record, so a
// representation never lists a duplicate.
import type { FieldErrors, IdentifierType } from '../record-types.js';

/** 422 `value` error when the owner already has an identifier of that type and value. */
export function duplicateIdentifierErrors(
  existing: readonly { type: IdentifierType; value: string }[],
  candidate: { type: IdentifierType; value: string },
): FieldErrors {
  return existing.some((i) => i.type === candidate.type && i.value === candidate.value) ? { value: ['The value has already been taken.'] } : {};
}
