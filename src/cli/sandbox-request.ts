// One GET against a running sandbox for the client commands, with global fetch. Whatever keeps the command from
// getting its answer (no sandbox there, a refused token, an unknown workspace, a timeout) becomes a ClientError
// naming it, which the command turns into exit 2.

/** The command could not do what it was asked: exit 2, the message on stderr. */
export class ClientError extends Error {}

/** Longest wait for one answer: a CI step never hangs on a sandbox that stopped answering. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** GETs `path` (with `query`) from the sandbox at `url`, as `token`; answers the 2xx response, else throws ClientError. */
export async function getFromSandbox(url: string, path: string, token: string | undefined, query: Record<string, string | undefined> = {}): Promise<Response> {
  const target = new URL(url + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) target.searchParams.set(name, value);
  let res: Response;
  try {
    res = await fetch(target, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new ClientError(`cannot reach the sandbox at ${url}: ${why}`);
  }
  if (res.ok) return res;
  const text = await res.text().catch(() => '');
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {
    // Not the sandbox's JSON (a proxy's page): its first characters say what answered.
  }
  throw new ClientError(`GET ${target.pathname} answered ${res.status}: ${message}`);
}
