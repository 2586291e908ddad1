import type { Handlers } from '../handler-map.js';
import type { Ctx } from '../context.js';
import type { FieldErrors } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, failOn, noContent, ok } from '../../http/reply.js';
import { editRecord } from '../../store/edit-record.js';
import { addIdentifier } from '../products/add-identifier.js';
import { deleteForecastsForCostIds, deleteSupplierItemCascade } from './cascade.js';
import { catchUpMerchant, catchUpSupplier, catchUpSupplierOf } from './catch-up.js';
import { presentSupplierItem, presentSupplierItemIdentifier } from './present.js';
import type { SupplierItemRecord } from './records.js';
import { mergeCostTiers, type CostTierInput } from './rules/cost-tiers.js';
import { supplierItemRefErrors, supplierSkuErrors } from './rules/supplier-item-refs.js';

/** The 422 checks shared by create and update: references of the merchant, SKU unique within the supplier, tier rules. */
function itemErrors(
  ctx: Ctx,
  merchantId: string,
  refs: { supplier_id?: string; product_id?: string | null },
  sku: { value: string | null | undefined; supplierId: string; selfId?: string },
  tiers: { existing: SupplierItemRecord['costs']; incoming?: CostTierInput[] },
): { errors: FieldErrors; costs?: SupplierItemRecord['costs']; removedTierIds: string[] } {
  const errors: FieldErrors = supplierItemRefErrors(merchantId, refs, {
    supplierMerchant: (id) => ctx.store.suppliers.get(id)?.merchant_id,
    productMerchant: (id) => ctx.store.products.get(id)?.merchant_id,
  });
  // SKU uniqueness only means something within a supplier the item may belong to.
  if (!errors.supplier_id) Object.assign(errors, supplierSkuErrors(sku.value, ctx.store.supplier_items.where('supplier_id', sku.supplierId), sku.selfId));
  if (!tiers.incoming) return { errors, removedTierIds: [] };
  const merged = mergeCostTiers(tiers.existing, tiers.incoming, () => ctx.newId());
  if (!merged.ok) return { errors: { ...errors, ...merged.errors }, removedTierIds: [] };
  return { errors, costs: merged.merge.costs, removedTierIds: merged.merge.removed_ids };
}

export const supplierItemHandlers = {
  listSupplierItems: ({ query }, ctx) => {
    catchUpMerchant(ctx.store, ctx.catalogues, query.merchant_id, ctx.clock.now());
    const needle = query.q?.toLowerCase();
    const items = ctx.store.supplier_items
      .where('merchant_id', query.merchant_id)
      .filter(
        (i) =>
          (query.supplier_id === undefined || i.supplier_id === query.supplier_id) &&
          (query.product_id === undefined || i.product_id === query.product_id) &&
          (!needle || [i.sku, i.description].some((text) => text?.toLowerCase().includes(needle))),
      )
      .sort(byCreation);
    const page = paginate(items, query, ctx.url);
    return ok({ ...page, data: page.data.map((i) => presentSupplierItem(i, ctx.store)) });
  },

  createSupplierItem: ({ body }, ctx) => {
    // A SKU an ended attempt found is taken, as it is once a read has applied that attempt.
    catchUpSupplierOf(ctx.store, ctx.catalogues, body.supplier_id, body.merchant_id, ctx.clock.now());
    const checked = itemErrors(
      ctx,
      body.merchant_id,
      { supplier_id: body.supplier_id, product_id: body.product_id },
      { value: body.sku, supplierId: body.supplier_id },
      { existing: [], incoming: body.costs },
    );
    failOn(checked.errors);
    const item = ctx.store.supplier_items.insert(
      ctx.newRecord({
        merchant_id: body.merchant_id,
        supplier_id: body.supplier_id,
        sku: body.sku,
        description: body.description ?? null,
        product_id: body.product_id ?? null,
        costs: checked.costs!,
        stock_quantity: body.stock_quantity ?? null,
      }),
    );
    return created({ data: presentSupplierItem(item, ctx.store) });
  },

  getSupplierItem: ({ bound: { supplier_item: item } }, ctx) => {
    catchUpSupplier(ctx.store, ctx.catalogues, ctx.store.suppliers.get(item.supplier_id)!, ctx.clock.now());
    return ok({ data: presentSupplierItem(ctx.store.supplier_items.get(item.id)!, ctx.store) });
  },

  updateSupplierItem: ({ bound, body }, ctx) => {
    // The edit applies over what the attempts that ended before it found (in the item's supplier, and in the one it
    // moves to, whose SKUs it must not repeat): the item is read again after.
    const now = ctx.clock.now();
    catchUpSupplierOf(ctx.store, ctx.catalogues, bound.supplier_item.supplier_id, bound.supplier_item.merchant_id, now);
    if (body.supplier_id !== undefined) catchUpSupplierOf(ctx.store, ctx.catalogues, body.supplier_id, bound.supplier_item.merchant_id, now);
    const item = ctx.store.supplier_items.get(bound.supplier_item.id)!;
    const supplierId = body.supplier_id ?? item.supplier_id;
    const checked = itemErrors(
      ctx,
      item.merchant_id,
      { supplier_id: body.supplier_id, product_id: body.product_id },
      { value: body.sku !== undefined ? body.sku : item.sku, supplierId, selfId: item.id },
      { existing: item.costs, incoming: body.costs },
    );
    failOn(checked.errors);
    const patch: Partial<SupplierItemRecord> = { supplier_id: supplierId };
    if (body.sku !== undefined) patch.sku = body.sku;
    if (body.description !== undefined) patch.description = body.description;
    if (body.product_id !== undefined) patch.product_id = body.product_id;
    if (checked.costs) patch.costs = checked.costs;
    if (body.stock_quantity !== undefined) patch.stock_quantity = body.stock_quantity;
    editRecord(ctx.store.supplier_items, item.id, patch, ctx.clock.nowIso());
    deleteForecastsForCostIds(ctx.store, checked.removedTierIds);
    return noContent();
  },

  deleteSupplierItem: ({ bound: { supplier_item: item } }, ctx) => {
    // Attempts that ended before the delete are applied first, so none of them brings the item back later.
    catchUpSupplierOf(ctx.store, ctx.catalogues, item.supplier_id, item.merchant_id, ctx.clock.now());
    deleteSupplierItemCascade(ctx.store, item.id);
    return noContent();
  },

  createSupplierItemIdentifier: ({ bound: { supplier_item: item }, body }, ctx) => {
    const identifier = addIdentifier(ctx, ctx.store.supplier_item_identifiers, 'supplier_item_id', item.id, body);
    return created({ data: presentSupplierItemIdentifier(identifier) });
  },

  deleteSupplierItemIdentifier: ({ bound }, ctx) => {
    ctx.store.supplier_item_identifiers.remove(bound.supplier_item_identifier.id);
    return noContent();
  },
} satisfies Partial<Handlers>;
