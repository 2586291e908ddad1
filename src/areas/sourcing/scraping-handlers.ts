import type { Handlers } from '../handler-map.js';
import { unprocessable } from '../../http/errors.js';
import { byCreation, paginate, paginateCounted } from '../../http/pagination.js';
import { created, failOn, ok } from '../../http/reply.js';
import { catchUpSupplier } from './catch-up.js';
import { presentScrapingRequest } from './present.js';
import { scrapingRequestsOverLimit } from './scraping-limits.js';
import { attemptFilterErrors, presentAttempt, resolveSchedule } from './rules/scraping-schedule.js';
import { keptAttempts } from './rules/attempt-page.js';

export const scrapingHandlers = {
  listScrapingRequests: ({ bound: { supplier }, query }, ctx) => {
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, ctx.catalogues, supplier, now);
    const requests = ctx.store.scraping_requests.where('supplier_id', supplier.id).sort(byCreation);
    const page = paginate(requests, query, ctx.url);
    return ok({ ...page, data: page.data.map((r) => presentScrapingRequest(r, now)) });
  },

  createScrapingRequest: ({ bound: { supplier }, body }, ctx) => {
    const over = scrapingRequestsOverLimit(ctx.store.scraping_requests.countWhere('merchant_id', supplier.merchant_id), 1);
    if (over) unprocessable({ supplier: [over] });
    const now = ctx.clock.now();
    const resolved = resolveSchedule(body, now, ctx.clock.latestReach());
    if (!resolved.ok) unprocessable(resolved.errors);
    const request = ctx.store.scraping_requests.insert(
      ctx.newRecord(
        {
          merchant_id: supplier.merchant_id,
          supplier_id: supplier.id,
          source_url: body.source_url,
          ...resolved.schedule,
          applied_attempts: 0,
        },
        now.toISOString(),
      ),
    );
    return created({ data: presentScrapingRequest(request, now) });
  },

  getScrapingRequest: ({ bound: { supplier, supplier_scraping_request: request } }, ctx) => {
    const now = ctx.clock.now();
    // Catching up may record finished attempts on the request: it is read again after.
    catchUpSupplier(ctx.store, ctx.catalogues, supplier, now);
    return ok({ data: presentScrapingRequest(ctx.store.scraping_requests.get(request.id)!, now) });
  },

  listScrapingAttempts: ({ bound: { supplier }, query }, ctx) => {
    failOn(attemptFilterErrors(query));
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, ctx.catalogues, supplier, now);
    // Only the page's attempts are made, and presented (an attempt's found count is the costly part).
    const page = paginateCounted(keptAttempts(ctx.store.scraping_requests.where('supplier_id', supplier.id), query, now), query, ctx.url);
    return ok({ ...page, data: page.data.map((a) => presentAttempt(a.request, a.timing, now, ctx.catalogues)) });
  },
} satisfies Partial<Handlers>;
