// A journal entry as a list of requests shows it (GET /_sandbox/requests?fields=summary): what a row needs, without
// the headers, bodies and trail that make a whole entry tens of kilobytes. A poller reading under a flood pays for
// these few fields only; it reads one entry whole (`id=`) when a person opens it.
import type { components } from '../contract/document/generated.js';
import type { JournalEntry } from './request-journal.js';

export type JournalSummary = components['schemas']['SandboxRequestSummary'];

export function summaryOf(entry: JournalEntry): JournalSummary {
  return {
    id: entry.id,
    at: entry.at,
    workspace: entry.workspace,
    method: entry.method,
    path: entry.path,
    query: entry.request.query,
    operation_id: entry.operation_id,
    status: entry.status,
    duration_ms: entry.duration_ms,
    ...(entry.trail && { response_check: entry.trail.response_check }),
    ...(entry.loaded && { loaded: true }),
  };
}
