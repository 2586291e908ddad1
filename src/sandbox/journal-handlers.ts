import type { Handlers } from '../areas/handler-map.js';
import type { Ctx } from '../areas/context.js';
import { noContent, ok, text } from '../http/reply.js';
import { negotiate } from '../http/accept.js';
import { httpError } from '../http/errors.js';
import { renderJunit, renderMarkdown } from '../observe/coverage-formats.js';

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

/** What a CI job reads after its tests: the request journal and the contract coverage. */
export const journalHandlers = {
  listSandboxRequests: ({ query }, ctx) =>
    ok({
      data: ctx.observations.journal.list({
        method: query.method,
        path: query.path,
        operationId: query.operation_id,
        status: query.status,
        workspace: journalScope(query.workspace, ctx),
        limit: query.limit ?? 100,
      }),
    }),

  clearSandboxRequests: ({ query }, ctx) => {
    ctx.observations.journal.clear(journalScope(query.workspace, ctx));
    return noContent();
  },

  getSandboxCoverage: ({ query, headers }, ctx) => {
    const form = coverageForm(query.format, headers.accept);
    const workspace = ctx.worlds.nameOf(ctx.world);
    const report = { workspace, ...ctx.observations.coverageOf(workspace)!.report() };
    if (form === 'junit') return text(200, 'application/xml', renderJunit(report));
    if (form === 'markdown') return text(200, 'text/markdown', renderMarkdown(report));
    return ok({ data: report });
  },
} satisfies Partial<Handlers>;
