// Both identifier POSTs (product, supplier item) check and store an identifier the same way; only the owner differs.
import type { components } from '../../contract/document/generated.js';
import type { Ctx } from '../context.js';
import type { Collection } from '../../store/collection.js';
import { failOn } from '../../http/reply.js';
import { duplicateIdentifierErrors } from './rules/identifier-duplicates.js';

type IdentifierCreate = components['schemas']['IdentifierCreate'];

/** An identifier record of an owner named by `K` (`product_id`, `supplier_item_id`). */
type OwnedIdentifier<K extends string> = IdentifierCreate & Record<K, string> & { id: string; created_at: string; updated_at: string };

/** Stores the identifier under its owner, or answers 422 when the owner already has that type and value. */
export function addIdentifier<K extends string>(
  ctx: Pick<Ctx, 'newRecord'>,
  identifiers: Collection<OwnedIdentifier<K>>,
  ownerKey: K,
  ownerId: string,
  body: IdentifierCreate,
): OwnedIdentifier<K> {
  // TypeScript cannot resolve a generic key's type, nor type a computed key as more than an index signature: the
  // casts say what K is (one owner-id field of type string).
  failOn(duplicateIdentifierErrors(identifiers.where(ownerKey, ownerId as OwnedIdentifier<K>[K]), body));
  const owner = { [ownerKey]: ownerId } as Record<K, string>;
  return identifiers.insert(ctx.newRecord({ ...owner, type: body.type, value: body.value }));
}
