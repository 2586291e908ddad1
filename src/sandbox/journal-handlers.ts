import type { Handlers } from '../contract/handler-map.js';
import { noContent, ok } from '../http/reply.js';

/** What a CI job reads after its tests: the request journal and the contract coverage. */
export const journalHandlers = {
  listSandboxRequests: ({ query }, ctx) =>
    ok({
      data: ctx.worlds.journal.list({
        method: query.method,
        path: query.path,
        operationId: query.operation_id,
        status: query.status,
        // The adapter resolved (and 404'd) the name; filtering uses the world's canonical name.
        workspace: query.workspace === undefined ? undefined : ctx.worlds.nameOf(ctx.world),
        limit: query.limit ?? 100,
      }),
    }),

  clearSandboxRequests: ({ query }, ctx) => {
    ctx.worlds.journal.clear(query.workspace === undefined ? undefined : ctx.worlds.nameOf(ctx.world));
    return noContent();
  },

  getSandboxCoverage: (_input, ctx) => {
    const workspace = ctx.worlds.nameOf(ctx.world);
    return ok({ data: { workspace, ...ctx.worlds.coverageOf(workspace)!.report() } });
  },
} satisfies Partial<Handlers>;
