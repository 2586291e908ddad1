import type { Handlers } from '../areas/handler-map.js';
import type { Ctx } from '../areas/context.js';
import { noContent, ok, text } from '../http/reply.js';
import { renderJunit, renderMarkdown } from '../observe/coverage-formats.js';

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

  getSandboxCoverage: ({ query }, ctx) => {
    const workspace = ctx.worlds.nameOf(ctx.world);
    const report = { workspace, ...ctx.observations.coverageOf(workspace)!.report() };
    if (query.format === 'junit') return text(200, 'application/xml', renderJunit(report));
    if (query.format === 'markdown') return text(200, 'text/markdown', renderMarkdown(report));
    return ok({ data: report });
  },
} satisfies Partial<Handlers>;
