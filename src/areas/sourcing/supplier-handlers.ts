import type { Handlers } from '../handler-map.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, noContent, ok } from '../../http/reply.js';
import { editRecord } from '../../store/edit-record.js';
import { deleteSupplierCascade } from './cascade.js';
import { catchUpSupplier } from './catch-up.js';
import { presentSupplier } from './present.js';
import type { SupplierRecord } from './records.js';

export const supplierHandlers = {
  listSuppliers: ({ query }, ctx) => {
    const needle = query.q?.toLowerCase() ?? '';
    const suppliers = ctx.store.suppliers
      .where('merchant_id', query.merchant_id)
      .filter((s) => s.name.toLowerCase().includes(needle))
      .sort(byCreation);
    const page = paginate(suppliers, query, ctx.url);
    return ok({ ...page, data: page.data.map(presentSupplier) });
  },

  createSupplier: ({ body }, ctx) => {
    const supplier = ctx.store.suppliers.insert(
      ctx.newRecord({
        merchant_id: body.merchant_id,
        name: body.name,
        default_currency: body.default_currency,
      }),
    );
    return created({ data: presentSupplier(supplier) });
  },

  getSupplier: ({ bound: { supplier } }, ctx) => {
    catchUpSupplier(ctx.store, ctx.catalogues, supplier, ctx.clock.now());
    return ok({ data: presentSupplier(supplier) });
  },

  updateSupplier: ({ bound: { supplier }, body }, ctx) => {
    // Finds of attempts that ended before this change use the currency they were scraped in.
    catchUpSupplier(ctx.store, ctx.catalogues, supplier, ctx.clock.now());
    const patch: Partial<SupplierRecord> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.default_currency !== undefined) patch.default_currency = body.default_currency;
    editRecord(ctx.store.suppliers, supplier.id, patch, ctx.clock.nowIso());
    return noContent();
  },

  deleteSupplier: ({ bound: { supplier } }, ctx) => {
    deleteSupplierCascade(ctx.store, supplier.id);
    return noContent();
  },
} satisfies Partial<Handlers>;
