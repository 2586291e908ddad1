import { createHash } from 'node:crypto';
import type { Handlers } from '../areas/handler-map.js';
import type { Ctx } from '../areas/context.js';
import { noContent, ok, reply, text } from '../http/reply.js';
import { negotiate } from '../http/accept.js';
import { httpError } from '../http/errors.js';
import { renderJunit, renderMarkdown } from '../observe/coverage-formats.js';
import { summaryOf } from '../observe/journal-summary.js';
import type { JournalFilter } from '../observe/request-journal.js';

/** The coverage report's forms, by `format` and by the media type `Accept` names; JSON first, the default. */
const COVERAGE_FORMS = { 'application/json': 'json', 'application/xml': 'junit', 'text/markdown': 'markdown' } as const;
const COVERAGE_MEDIA = Object.keys(COVERAGE_FORMS) as (keyof typeof COVERAGE_FORMS)[];

/** `format` decides; without it, `Accept` does, and an `Accept` that allows none of the three forms is 406. */
function coverageForm(format: string | undefined, accept: string | string[] | undefined): string {
  if (format !== undefined) return format;
  const media = negotiate(Array.isArray(accept) ? accept.join(', ') : accept, COVERAGE_MEDIA);
  if (media === undefined)
    httpError(
      406,
      `The coverage report is available as ${COVERAGE_MEDIA.join(', ')}; Accept allows none of them. Send one of them, or format=json|junit|markdown.`,
    );
  return COVERAGE_FORMS[media as keyof typeof COVERAGE_FORMS];
}

/**
 * Whose journal a call reads or clears: the world it named or its workspace token chose (the adapter resolved and
 * 404'd the name; filtering uses the world's canonical name); undefined, every world's, only for a call on the
 * default world without `workspace`.
 */
const journalScope = (named: string | undefined, ctx: Ctx): string | undefined =>
  named === undefined && ctx.world === ctx.worlds.defaultWorld ? undefined : ctx.worlds.nameOf(ctx.world);

/**
 * The ETag of a listing: the version of what its scope holds (src/observe/request-journal.ts) and the query itself,
 * weak (the same entries, not the same bytes: a listing is JSON made anew each time).
 */
function journalETag(version: string, filter: JournalFilter & { summary: boolean }): string {
  return `W/"${createHash('sha256').update(version).update(JSON.stringify(filter)).digest('base64url').slice(0, 22)}"`;
}

/** RFC 9110's If-None-Match: `*`, or a list of tags compared weakly. */
function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (Array.isArray(header)) return header.some((one) => noneMatch(one, etag));
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** What a CI job reads after its tests: the request journal and the contract coverage. */
export const journalHandlers = {
  listSandboxRequests: ({ query, headers }, ctx) => {
    const filter: JournalFilter = {
      method: query.method,
      path: query.path,
      operationId: query.operation_id,
      status: query.status,
      workspace: journalScope(query.workspace, ctx),
      limit: query.limit ?? 100,
      after: query.after,
      id: query.id,
    };
    const summary = query.fields === 'summary';
    const journal = ctx.observations.journal;
    // A poller's "nothing new" costs the version of one ring and a hash, never a listing.
    const etag = journalETag(journal.version(filter.workspace), { ...filter, summary });
    if (noneMatch(headers['if-none-match'], etag)) return reply(304, undefined, { ETag: etag });
    const { entries, unlisted } = journal.page(filter);
    return reply(200, { data: summary ? entries.map(summaryOf) : entries, unlisted }, { ETag: etag });
  },

  clearSandboxRequests: ({ query }, ctx) => {
    ctx.observations.journal.clear(journalScope(query.workspace, ctx));
    return noContent();
  },

  getSandboxCoverage: ({ query, headers }, ctx) => {
    const form = coverageForm(query.format, headers.accept);
    const workspace = ctx.worlds.nameOf(ctx.world);
    const report = { workspace, ...ctx.observations.coverageOf(workspace)!.report() };
    // Without `format`, Accept chose the form: a cache keeps one answer per Accept.
    const vary = query.format === undefined ? 'Accept' : undefined;
    if (form === 'junit') return { ...text(200, 'application/xml', renderJunit(report)), vary };
    if (form === 'markdown') return { ...text(200, 'text/markdown', renderMarkdown(report)), vary };
    return { ...ok({ data: report }), vary };
  },
} satisfies Partial<Handlers>;
