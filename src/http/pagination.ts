import type { components } from '../contract/document/generated.js';

/** The Laravel-style `meta` of a list, as the contract gives it. */
export type PageMeta = components['schemas']['PaginationMeta'];

/** The Laravel-style `links` of a list, as the contract gives it. */
export type PageLinks = components['schemas']['PaginationLinks'];

export interface Page<T> {
  data: T[];
  meta: PageMeta;
  links: PageLinks;
}

/** Laravel's default page size; the specification names none. */
export const DEFAULT_PER_PAGE = 15;

/** The stable order of every list: oldest first, then by id, so pages never shuffle between requests. */
export function byCreation<T extends { created_at: string; id: string }>(a: T, b: T): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * One page of `items` (already filtered and ordered), with meta and links as absolute URLs built from the request
 * URL, keeping its other query parameters. A page past the end is empty, with from/to null.
 */
export function paginate<T>(items: readonly T[], query: PageQuery, requestUrl: string): Page<T> {
  return paginateCounted({ total: items.length, slice: (start, count) => items.slice(start, start + count) }, query, requestUrl);
}

/** What a list asks for: a page and its size. */
export interface PageQuery {
  page?: number;
  per_page?: number;
}

/**
 * One page of a list that is never built whole: its `total`, and `slice` making the page's items only (a list
 * whose items cost work to make pays for one page, whatever its length).
 */
export function paginateCounted<T>(list: { total: number; slice(start: number, count: number): T[] }, query: PageQuery, requestUrl: string): Page<T> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const page = query.page ?? 1;
  const { total } = list;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const data = list.slice(start, perPage);
  const url = new URL(requestUrl);
  const path = `${url.origin}${url.pathname}`;
  // One copy of the query, its `page` set again for each link (set keeps the first one's place and drops the others).
  const params = url.searchParams;
  const pageUrl = (n: number) => {
    params.set('page', String(n));
    return `${path}?${params.toString()}`;
  };
  return {
    data,
    meta: {
      current_page: page,
      from: data.length > 0 ? start + 1 : null,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length > 0 ? start + data.length : null,
      total,
    },
    links: {
      first: pageUrl(1),
      last: pageUrl(lastPage),
      prev: page > 1 ? pageUrl(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? pageUrl(page + 1) : null,
    },
  };
}
