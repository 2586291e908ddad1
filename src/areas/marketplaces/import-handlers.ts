import type { Handlers } from '../handler-map.js';
import { unprocessable } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, ok } from '../../http/reply.js';
import { distinctIdentifiers, importSchedule, importStatus, presentCatalogItemImport } from './catalog-import-rules.js';
import { refuseOverPendingImportCaps } from './import-limits.js';
import { processDueImports } from './import-processing.js';

/** Catalog item imports: owned by the merchant that asked, processed on the sandbox clock. */
export const importHandlers = {
  listCatalogItemImports: ({ query }, ctx) => {
    const now = ctx.clock.now();
    processDueImports(ctx.store, now);
    const imports = ctx.store.catalog_item_imports
      .where('merchant_id', query.merchant_id)
      .filter((r) => query.marketplace_id === undefined || r.marketplace_id === query.marketplace_id)
      .filter((r) => query.status === undefined || importStatus(r, now) === query.status)
      .sort(byCreation);
    const page = paginate(imports, query, ctx.url);
    return ok({ ...page, data: page.data.map((r) => presentCatalogItemImport(r, now)) });
  },

  createCatalogItemImport: ({ body }, ctx) => {
    if (!ctx.store.marketplaces.has(body.marketplace_id)) unprocessable({ marketplace_id: ['The selected marketplace id is invalid.'] });
    const now = ctx.clock.now();
    // Imports that completed by now stop being pending once processed; the caps count only the rest.
    processDueImports(ctx.store, now);
    const identifiers = distinctIdentifiers(body.identifiers);
    refuseOverPendingImportCaps(ctx.store, body.merchant_id, identifiers.length);
    const record = ctx.store.catalog_item_imports.insert(
      ctx.newRecord(
        {
          merchant_id: body.merchant_id,
          marketplace_id: body.marketplace_id,
          identifiers,
          ...importSchedule(now, identifiers.length),
          found_marketplace_catalog_item_ids: [],
          not_found_identifiers: [],
          processed: false,
        },
        now.toISOString(),
      ),
    );
    return created({ data: presentCatalogItemImport(record, now) });
  },
} satisfies Partial<Handlers>;
