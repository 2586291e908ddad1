import type { Handlers } from '../handler-map.js';
import { scrapingHandlers } from './scraping-handlers.js';
import { supplierHandlers } from './supplier-handlers.js';
import { supplierItemHandlers } from './supplier-item-handlers.js';

/** Every Sourcing operation: suppliers, supplier items with their identifiers, scraping requests and attempts. */
export const sourcingHandlers = {
  ...supplierHandlers,
  ...supplierItemHandlers,
  ...scrapingHandlers,
} satisfies Partial<Handlers>;
