// Both identifier POSTs (product, supplier item) refuse the same type and value twice on one record, so a
// representation never lists a duplicate; a loaded world is held to the same rule (repeatedIdentifiers).
import { keyOf, repeatedKeys } from '../../repeated-keys.js';
import type { FieldErrors, IdentifierType } from '../record-types.js';

type Identifier = { type: IdentifierType; value: string };

const sameIdentifier = (a: Identifier, b: Identifier) => a.type === b.type && a.value === b.value;

/** 422 `value` error when the owner already has an identifier of that type and value. */
export function duplicateIdentifierErrors(existing: readonly Identifier[], candidate: Identifier): FieldErrors {
  return existing.some((i) => sameIdentifier(i, candidate)) ? { value: ['The value has already been taken.'] } : {};
}

/** The identifiers that repeat the type and value of an earlier identifier of the same owner (`ownerOf`). */
export function repeatedIdentifiers<T extends Identifier>(identifiers: Iterable<T>, ownerOf: (identifier: T) => string): T[] {
  return repeatedKeys(identifiers, (i) => keyOf(ownerOf(i), i.type, i.value));
}
