import type { Handlers } from '../../contract/handler-map.js';
import { unprocessable } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, ok } from '../../http/reply.js';
import { failOn } from '../products/field-errors.js';
import { catchUpSupplier } from './catch-up.js';
import { presentScrapingRequest } from './present.js';
import { attemptFilterErrors, filterAttempts, resolveSchedule, scheduleAttempts } from './rules/scraping-schedule.js';

export const scrapingHandlers = {
  listScrapingRequests: ({ bound: { supplier }, query }, ctx) => {
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, supplier, now);
    const requests = ctx.store.scraping_requests.where('supplier_id', supplier.id).sort(byCreation);
    const page = paginate(requests, query, ctx.url);
    return ok({ ...page, data: page.data.map((r) => presentScrapingRequest(r, now)) });
  },

  createScrapingRequest: ({ bound: { supplier }, body }, ctx) => {
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

  getScrapingRequest: ({ bound: { supplier, supplier_scraping_request: request } }, ctx) => {
    const now = ctx.clock.now();
    // Catching up may record finished attempts on the request: it is read again after.
    catchUpSupplier(ctx.store, supplier, now);
    return ok({ data: presentScrapingRequest(ctx.store.scraping_requests.get(request.id)!, now) });
  },

  listScrapingAttempts: ({ bound: { supplier }, query }, ctx) => {
    failOn(attemptFilterErrors(query));
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, supplier, now);
    const attempts = ctx.store.scraping_requests.where('supplier_id', supplier.id).flatMap((r) => scheduleAttempts(r, now));
    // filterAttempts orders by scheduled_to_run_at then id; paginate keeps that order.
    return ok(paginate(filterAttempts(attempts, query), query, ctx.url));
  },
} satisfies Partial<Handlers>;
