// The texts a write makes on every request, made the cheap way, are the texts the plain way makes: a record's
// timestamps and the journal's arrival time are Date.prototype.toISOString's, a new record's id is the sha256
// derived UUID of its world's salt and counter, and the journal's redaction gives isSecretKey's verdicts.
import { hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IsoTimes } from '../../src/clock.js';
import { IdSequence } from '../../src/store/id-sequence.js';
import { isSecretKey, SecretNames } from '../../src/observe/redact.js';

/** The id as the bytes of the digest make it: version 4 in byte 6, variant 10 in byte 8. */
function idFromBytes(salt: string, n: number): string {
  const bytes = hash('sha256', `${salt}:${n}`, 'buffer');
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const MAX_TIME = 8.64e15;

describe('texts made on every write', () => {
  it('When instants are formatted one after another, within a second and across seconds, then each is toISOString of it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_TIME, max: MAX_TIME - 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 2500 }), { minLength: 1, maxLength: 40 }),
        (start, steps) => {
          const iso = new IsoTimes();
          let time = start;
          for (const step of steps) {
            time += step;
            const date = new Date(time);
            expect(iso.of(date)).toBe(date.toISOString());
          }
        },
      ),
    );
  });

  it('When an invalid date is formatted, then it throws toISOString RangeError, after a valid one too', () => {
    const iso = new IsoTimes();
    expect(() => iso.of(new Date(Number.NaN))).toThrow(RangeError);
    iso.of(new Date(0));
    expect(() => iso.of(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('When a sequence hands out ids, then each is the UUID its salt and counter give, version 4 and variant 10', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 }), fc.nat({ max: 1_000_000 }), (salt, issued) => {
        const sequence = new IdSequence({ salt, issued });
        for (let n = issued; n < issued + 20; n++) {
          const id = sequence.next();
          expect(id).toBe(idFromBytes(salt, n));
          expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        }
      }),
    );
  });

  it('When names are asked again and again, past the bound too, then the verdicts are isSecretKey ones', () => {
    const names = new SecretNames(8);
    const keys = ['authorization', 'Access-Token', 'api_key', 'sku', 'code', 'state', 'merchant_id', `${'x'.repeat(100)}token`, 'title'];
    for (let round = 0; round < 5; round++) {
      for (const key of keys) {
        expect(names.is(key)).toBe(isSecretKey(key));
        expect(names.is(key, 'query')).toBe(isSecretKey(key, 'query'));
      }
    }
  });
});
