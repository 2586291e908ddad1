// Real-browser tests run Debian's chromium through playwright-core (no bundled browser download),
// so CI installs `chromium` with apt and this helper finds it at a fixed path.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Server, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { skippableDescribe } from './skippable-suite.js';

/** Where the browser lives; CHROMIUM_PATH overrides it for machines that keep it elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless chromium that never talks to Google and runs as root in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const isCI = /^(1|true)$/i.test(process.env.CI ?? '');
const chromiumMissing = !existsSync(CHROMIUM_PATH);

/**
 * Why browser tests are skipped, or undefined when they run. On a laptop without chromium they skip with a
 * message; in CI (CI=true) they never skip, so a missing browser fails the build instead of hiding it.
 */
export const browserSkipReason: string | undefined =
  chromiumMissing && !isCI ? `chromium not found at ${CHROMIUM_PATH}; install it (apt-get install -y chromium) or set CHROMIUM_PATH` : undefined;

/** A describe() for browser suites: skipped with a visible reason locally, always run in CI. */
export const describeWithBrowser = skippableDescribe('browser', browserSkipReason);

/** One browser with its own throwaway profile; close() kills it and deletes the profile. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Launches chromium with a fresh, empty user-data-dir so no state leaks between test files; `extraArgs` are added
 * to CHROMIUM_ARGS (e.g. a host mapping, so a page is visited under a public name).
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<BrowserSession> {
  if (chromiumMissing) {
    // Only reachable in CI (elsewhere the suite was skipped): fail loudly with the fix.
    throw new Error(
      `chromium not found at ${CHROMIUM_PATH} and CI=true, so browser tests fail instead of skipping. Install it with: apt-get install -y chromium`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'sandbox-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A server on 127.0.0.1 with an OS-chosen port, because the browser needs a real URL (supertest has none). */
export interface LoopbackServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Serves a server (or any request listener, such as an Express app) on 127.0.0.1:0 for a browser to open; a listening server is served where it listens. */
export async function serveOnLoopback(handler: RequestListener | Server): Promise<LoopbackServer> {
  const server = handler instanceof Server ? handler : createServer(handler);
  if (!server.listening) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets from the browser would otherwise hold close() open.
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
