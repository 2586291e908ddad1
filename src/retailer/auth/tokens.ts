import { randomBytes } from 'node:crypto';

/** What the authorization server mints; prefixes follow the modelled retailer's so tokens look familiar in logs. */
export type TokenKind = 'access' | 'refresh' | 'code' | 'state';

/** Makes new secrets; injected so tests and the seed get deterministic tokens. */
export type TokenSource = (kind: TokenKind) => string;

const PREFIX: Record<TokenKind, string> = { access: 'Atza|', refresh: 'Atzr|', code: 'AN', state: 'st_' };

/** Secrets from the OS random source (runtime only; seeds pass a faker-backed source). */
export const randomTokens: TokenSource = (kind) => `${PREFIX[kind]}${randomBytes(kind === 'access' || kind === 'refresh' ? 36 : 18).toString('base64url')}`;

/** A deterministic source over any string generator, e.g. `() => faker.string.alphanumeric(32)`. */
export const tokensFrom =
  (next: () => string): TokenSource =>
  (kind) =>
    `${PREFIX[kind]}${next()}`;

/** Lifetimes: access tokens one hour and codes five minutes (the modelled retailer's), states ten minutes. */
export const LIFETIME_MS = { access: 3_600_000, code: 300_000, state: 600_000 } as const;
