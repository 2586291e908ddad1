import type { Handlers } from '../../contract/handler-map.js';
import { notFound, unprocessable } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, ok } from '../../http/reply.js';
import { failOn } from '../products/field-errors.js';
import { catchUpSupplier } from './catch-up.js';
import { presentScrapingRequest } from './present.js';
import { attemptFilterErrors, filterAttempts, resolveSchedule, scheduleAttempts } from './rules/scraping-schedule.js';
import { ownedSupplier } from './supplier-handlers.js';

export const scrapingHandlers = {
  listScrapingRequests: ({ params, query }, ctx) => {
    const supplier = ownedSupplier(params.supplier, ctx);
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, supplier, now);
    const requests = ctx.store.scraping_requests.where('supplier_id', supplier.id).sort(byCreation);
    const page = paginate(requests, query, ctx.url);
    return ok({ ...page, data: page.data.map((r) => presentScrapingRequest(r, now)) });
  },

  createScrapingRequest: ({ params, body }, ctx) => {
    const supplier = ownedSupplier(params.supplier, ctx);
    const now = ctx.clock.now();
    const resolved = resolveSchedule(body, now);
    if (!resolved.ok) unprocessable(resolved.errors);
    const request = ctx.store.scraping_requests.insert(
      ctx.newRecord({
        merchant_id: supplier.merchant_id,
        supplier_id: supplier.id,
        source_url: body.source_url,
        ...resolved.schedule,
        applied_attempts: 0,
      }, now.toISOString()),
    );
    return created({ data: presentScrapingRequest(request, now) });
  },

  getScrapingRequest: ({ params }, ctx) => {
    const supplier = ownedSupplier(params.supplier, ctx);
    const found = ctx.store.scraping_requests.get(params.supplier_scraping_request);
    // A request of another supplier is not this supplier's: 404, whoever owns it.
    if (!found || found.supplier_id !== supplier.id) notFound('scraping request');
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, supplier, now);
    return ok({ data: presentScrapingRequest(ctx.store.scraping_requests.get(found.id)!, now) });
  },

  listScrapingAttempts: ({ params, query }, ctx) => {
    const supplier = ownedSupplier(params.supplier, ctx);
    failOn(attemptFilterErrors(query));
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, supplier, now);
    const attempts = ctx.store.scraping_requests.where('supplier_id', supplier.id).flatMap((r) => scheduleAttempts(r, now));
    // filterAttempts orders by scheduled_to_run_at then id; paginate keeps that order.
    return ok(paginate(filterAttempts(attempts, query), query, ctx.url));
  },
} satisfies Partial<Handlers>;
