import type { Faker } from '@faker-js/faker';
import { newFaker } from './new-faker.js';
import { fnv1a } from './stable-hash.js';

/** Seeded records are dated before this instant, so the same seed gives the same file on any day. */
export const SEED_REF_DATE = new Date('2024-09-01T00:00:00.000Z');

/** What an area's seeder gets: its own seeded faker, the fixed reference date and the collections (C) to fill. */
export interface SeedContext<C> {
  faker: Faker;
  refDate: Date;
  store: C;
  seed: number;
}

/** A seeded Faker per area, so adding records to one area never shifts another area's random stream. */
export function areaFaker(seed: number, area: string): Faker {
  return reseedAreaFaker(newFaker(), seed, area);
}

/**
 * Gives `faker` exactly the stream a new areaFaker(seed, area) would have. Building a Faker costs more than what a
 * record takes from it, so code that seeds one per record reuses one instance.
 */
export function reseedAreaFaker(faker: Faker, seed: number, area: string): Faker {
  faker.seed(seed ^ hashString(area));
  faker.setDefaultRefDate(SEED_REF_DATE);
  return faker;
}

/** FNV-1a cut to 31 bits, for deriving per-area and per-record faker seeds. */
export const hashString = (text: string): number => fnv1a(text) >>> 1;
