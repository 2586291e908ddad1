import type { Handlers } from '../handler-map.js';
import { catalogHandlers } from './catalog-handlers.js';
import { importHandlers } from './import-handlers.js';

/** The nine Marketplaces operations. */
export const marketplaceHandlers = { ...catalogHandlers, ...importHandlers } satisfies Partial<Handlers>;
