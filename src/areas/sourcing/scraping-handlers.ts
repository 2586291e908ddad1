import type { Handlers } from '../handler-map.js';
import { unprocessable } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, failOn, ok } from '../../http/reply.js';
import { catchUpSupplier } from './catch-up.js';
import { presentScrapingRequest } from './present.js';
import { attemptFilterErrors, filterAttempts, listedAttempts, presentAttempt, resolveSchedule } from './rules/scraping-schedule.js';

/**
 * Scraping requests a merchant may have, over all its suppliers. With at most 100 attempts each, it bounds what one
 * read has to catch up with (catch-up.ts) and what a list of attempts or requests computes, whatever the clock did.
 */
export const MAX_SCRAPING_REQUESTS_PER_MERCHANT = 20;

export const scrapingHandlers = {
  listScrapingRequests: ({ bound: { supplier }, query }, ctx) => {
    const now = ctx.clock.now();
    catchUpSupplier(ctx.store, ctx.catalogues, supplier, now);
    const requests = ctx.store.scraping_requests.where('supplier_id', supplier.id).sort(byCreation);
    const page = paginate(requests, query, ctx.url);
    return ok({ ...page, data: page.data.map((r) => presentScrapingRequest(r, now)) });
  },

  createScrapingRequest: ({ bound: { supplier }, body }, ctx) => {
    if (ctx.store.scraping_requests.countWhere('merchant_id', supplier.merchant_id) >= MAX_SCRAPING_REQUESTS_PER_MERCHANT) {
      unprocessable({
        supplier: [
          `The merchant already has ${MAX_SCRAPING_REQUESTS_PER_MERCHANT} scraping requests, the most a merchant may have; delete a supplier to remove its requests.`,
        ],
      });
    }
    const now = ctx.clock.now();
    const resolved = resolveSchedule(body, now);
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
    const attempts = listedAttempts(ctx.store.scraping_requests.where('supplier_id', supplier.id), now);
    // filterAttempts orders by scheduled_to_run_at then id; paginate keeps that order. Only the page's attempts
    // are presented, since an attempt's found count is the costly part.
    const page = paginate(filterAttempts(attempts, query), query, ctx.url);
    return ok({ ...page, data: page.data.map((a) => presentAttempt(a.request, a.timing, now, ctx.catalogues)) });
  },
} satisfies Partial<Handlers>;
