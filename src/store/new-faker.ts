import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';

// The package index loads all of faker's locales (most of faker's share of start-up); the English entry point loads one.
// Its instance carries the Faker class and the merged English + base definitions, so new instances cost nothing more.
const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;

/** A fresh, unseeded Faker with the English locale over faker's base data (what `[en, base]` gives). */
export function newFaker(): Faker {
  return new FakerClass({ locale: englishFaker.rawDefinitions });
}
