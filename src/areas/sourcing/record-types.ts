// Shapes of the stored sourcing records (plain JSON, snake_case, ISO timestamps). Wave 2's records.ts declares the
// collections over these; kept apart so pure rules and seed generators need no store import.
import type { IdentifierType } from '../products/record-types.js';

export type { FieldErrors, IdentifierType } from '../products/record-types.js';

/** A supplier as stored; presented as is. */
export interface SupplierRecord {
  id: string;
  merchant_id: string;
  name: string;
  default_currency: string;
  created_at: string;
  updated_at: string;
}

/** Money as the contract has it: a value and a three-letter currency. */
export interface MoneyValue {
  value: number;
  currency: string;
}

/** One cost tier, embedded in its supplier item; `id` is the supplier_item_cost_id forecasts refer to. */
export interface CostTierRecord {
  id: string;
  minimum_order_quantity: number;
  cost: MoneyValue;
}

/** A supplier item as stored, with its tiers embedded (ordered by minimum_order_quantity). */
export interface SupplierItemRecord {
  id: string;
  merchant_id: string;
  supplier_id: string;
  sku: string | null;
  description: string | null;
  product_id: string | null;
  costs: CostTierRecord[];
  /** Units the supplier has in stock; null when unknown. Opportunity forecasts read it for the low-stock risk factors. */
  stock_quantity: number | null;
  created_at: string;
  updated_at: string;
}

/** An identifier of a supplier item; its own collection so DELETE /supplier-items/identifiers/{id} is a direct lookup. */
export interface SupplierItemIdentifierRecord {
  id: string;
  supplier_item_id: string;
  type: IdentifierType;
  value: string;
  created_at: string;
  updated_at: string;
}

/** How often a scraping request runs. */
export type ScrapingFrequency = 'once' | 'hourly' | 'daily' | 'weekly';

/**
 * A scraping request as stored. Attempts are not stored: they are derived from these fields and the clock.
 * `applied_attempts` (internal, never presented) counts the attempts, in order, whose found items have already
 * been written into supplier items, so catching up never applies an attempt twice.
 */
export interface ScrapingRequestRecord {
  id: string;
  merchant_id: string;
  supplier_id: string;
  source_url: string;
  frequency: ScrapingFrequency;
  starts_at: string;
  max_attempts: number;
  applied_attempts: number;
  created_at: string;
  updated_at: string;
}
