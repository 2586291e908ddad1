import { describe, expect, it } from 'vitest';
import { CONTRACT_FORMATS } from '../../src/contract/document/formats.js';

const isDate = CONTRACT_FORMATS.date.validate;
const isDateTime = CONTRACT_FORMATS['date-time'].validate;

describe('the contract uuid, date and date-time formats', () => {
  it('When a uuid is 8-4-4-4-12 hex digits (either case), then it passes; with urn:uuid:, braces or no hyphens, then it fails', () => {
    const isUuid = (text: string) => CONTRACT_FORMATS.uuid.validate.test(text);
    expect(['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA'].map(isUuid)).toEqual([true, true]);
    const bad = [
      'urn:uuid:aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      '{aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa}',
      'aaaaaaaaaaaa4aaa8aaaaaaaaaaaaaaa',
      'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa\n',
    ];
    expect(bad.map(isUuid)).toEqual(bad.map(() => false));
  });

  it('When a date names a real day (a leap day included), then it passes; month 13, 30 February or 29 February 2023, then it fails', () => {
    expect(['2024-02-29', '2000-02-29', '0000-01-01', '9999-12-31'].map(isDate)).toEqual([true, true, true, true]);
    expect(['2024-13-01', '2024-02-30', '2023-02-29', '1900-02-29', '2024-1-01', '2024-00-10'].map(isDate)).toEqual([false, false, false, false, false, false]);
  });

  it('When a date-time is one Date reads as that instant, then it passes; 25 h, a leap second, +05 or +25:00, then it fails', () => {
    const good = ['2024-09-01T00:00:00Z', '2024-09-01t00:00:00.123456z', '2024-09-01T23:59:59+05:30', '2024-09-01T00:00:00-0800', '9999-12-31T23:59:59Z'];
    expect(good.map(isDateTime)).toEqual(good.map(() => true));
    for (const text of good) expect(Number.isFinite(Date.parse(text))).toBe(true);
    const bad = [
      '2024-13-01T00:00:00Z',
      '2024-02-30T00:00:00Z',
      '2024-09-01T25:00:00Z',
      '2024-06-30T23:59:60Z',
      '2024-09-01T00:00:00+05',
      '2024-09-01T00:00:00+25:00',
      '2024-09-01 00:00:00Z',
      '2024-09-01T00:00:00',
    ];
    expect(bad.map(isDateTime)).toEqual(bad.map(() => false));
  });

  it('When an offset moves the instant out of years 0000 to 9999, then it fails (its ISO text would not have four digits)', () => {
    expect(isDateTime('0000-01-01T00:00:00+01:00')).toBe(false);
    expect(isDateTime('9999-12-31T23:59:59-23:59')).toBe(false);
    expect(isDateTime('0000-01-01T00:00:00-01:00')).toBe(true);
  });
});
