import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

// The package index loads all of faker's locales (most of faker's share of start-up); the English entry point loads one.
// Its instance carries the Faker class and the merged English + base definitions, so new instances cost nothing more.
// It is loaded on the first call, not by the start: a new default world is seeded on another thread
// (src/seeding-thread.ts), so the server answers its first requests without faker. require() of an ES module is
// synchronous and prints no warning on the Node releases package.json's engines allow (22.13 and later).
const require = createRequire(import.meta.url);
let english: { FakerClass: new (options: { locale: Faker['rawDefinitions'] }) => Faker; definitions: Faker['rawDefinitions'] } | undefined;

/** A fresh, unseeded Faker with the English locale over faker's base data (what `[en, base]` gives). */
export function newFaker(): Faker {
  english ??= (() => {
    const { faker } = require('@faker-js/faker/locale/en') as typeof import('@faker-js/faker/locale/en');
    return { FakerClass: faker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker, definitions: faker.rawDefinitions };
  })();
  return new english.FakerClass({ locale: english.definitions });
}
