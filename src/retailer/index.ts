/** The simulated retailer's public surface, for the channels handlers, the seed and the HTML routes. */
export { createRetailer, type Retailer, type RetailerChannel, type RetailerOptions } from './retailer.js';
export { relayCall, ensureAccess, type ChannelConnection, type RelayCall, type RelayOutcome, type RelayResult } from './relay.js';
export { searchChannelCatalogItems, type ChannelCatalogItem, type ChannelCatalogQuery } from './catalog-search.js';
export { endpointCheck, type EndpointCheck, type EndpointSchema } from './endpoint.js';
export {
  startAuthorization,
  pendingAuthorization,
  decideAuthorization,
  completeAuthorization,
  authorizationUrl,
  AUTHORIZATION_MESSAGES,
  type AuthorizationProblem,
} from './auth/authorization.js';
export { adoptGrant, issueGrant, revokeGrant, refreshAccessToken, checkAccessToken, type IssuedTokens } from './auth/grants.js';
export { randomTokens, tokensFrom, LIFETIME_MS, type TokenSource } from './auth/tokens.js';
export { createStorePort, type RetailerCollections } from './store-port.js';
export type { RetailerStatePort } from './state-port.js';
export { renderConsentPage, renderSuccessPage, renderErrorPage } from './html/pages.js';
export { DEFAULT_MARKETPLACE_ID } from './marketplaces.js';
export type { RetailerMethod, RetailerRequest, RetailerResponse } from './types.js';
export { RETAILER_STATE_LIMITS, retailerStateProblems } from './state-limits.js';
