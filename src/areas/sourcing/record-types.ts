// Shapes of the stored sourcing records (plain JSON, snake_case, ISO timestamps), taken from the contract's schemas.
// records.ts declares the collections over these; kept apart so pure rules and seed generators need no store import.
import type { components } from '../../contract/document/generated.js';

type Schemas = components['schemas'];

export type { FieldErrors, IdentifierType } from '../products/record-types.js';

/** A supplier as stored; presented as is. */
export type SupplierRecord = Schemas['Supplier'];

/** One cost tier, embedded in its supplier item; `id` is the supplier_item_cost_id forecasts refer to. */
export type CostTierRecord = Schemas['CostTier'];

/**
 * A supplier item as stored, with its tiers embedded (ordered by minimum_order_quantity); `identifiers` live in
 * their own collection and are joined in at presentation. Opportunity forecasts read `stock_quantity` for the
 * low-stock risk factors.
 */
export type SupplierItemRecord = Omit<Schemas['SupplierItem'], 'identifiers'>;

/** An identifier of a supplier item; its own collection so DELETE /supplier-items/identifiers/{id} is a direct lookup. */
export type SupplierItemIdentifierRecord = Schemas['SupplierItemIdentifier'];

/** How often a scraping request runs. */
export type ScrapingFrequency = Schemas['ScrapingFrequency'];

/**
 * A scraping request as stored. Attempts are not stored: they, and the request's status, attempts_finished_count
 * and next_attempt_at, are derived from these fields and the clock. `applied_attempts` (internal, never presented)
 * counts the attempts, in order, whose found items have already been written into supplier items, so catching up
 * never applies an attempt twice.
 */
export type ScrapingRequestRecord = Omit<Schemas['ScrapingRequest'], keyof ScrapingRequestState> & { applied_attempts: number };

/** The part of a ScrapingRequest's presentation derived from the schedule and the clock. */
export type ScrapingRequestState = Pick<Schemas['ScrapingRequest'], 'status' | 'attempts_finished_count' | 'next_attempt_at'>;
