import { describe, expect, it } from 'vitest';
import { parsePrefer, preferencePairs, prefersStrict } from '../../src/knobs/prefer-header.js';

const knobs = (h: string | string[] | undefined, max?: number) => {
  const r = parsePrefer(h, { maxDelayMs: max });
  if (!r.ok) throw new Error(`expected knobs, got ${JSON.stringify(r.error)}`);
  return r.knobs;
};
const errorOf = (h: string | string[]) => {
  const r = parsePrefer(h);
  if (r.ok) throw new Error('expected an error');
  return r.error;
};

describe('Prefer header', () => {
  it('When there is no Prefer header, then no knob is set', () => {
    expect(knobs(undefined)).toEqual({ applied: '' });
    expect(knobs('')).toEqual({ applied: '' });
  });

  it('When code and delay are given comma- or semicolon-separated, then both are parsed', () => {
    expect(knobs('code=404, delay=250')).toEqual({ code: 404, delay: 250, applied: 'code=404, delay=250' });
    expect(knobs('code=503;delay=0')).toEqual({ code: 503, delay: 0, applied: 'code=503, delay=0' });
  });

  it('When values are quoted, names upper-cased or the header is repeated, then it still parses', () => {
    expect(knobs('Code="422"')).toMatchObject({ code: 422 });
    expect(knobs(['code=404', 'delay=10'])).toMatchObject({ code: 404, delay: 10 });
  });

  it('When a knob is given twice, then the first one counts (RFC 7240)', () => {
    expect(knobs('code=404, code=500')).toMatchObject({ code: 404 });
  });

  it('When dynamic=true or standard preferences are sent, then they are ignored', () => {
    expect(knobs('dynamic=true, return=minimal, respond-async, wait=5, x-unknown=1')).toEqual({ applied: '' });
  });

  it('When a retailer fault is asked for, then it is one of throttle, timeout, error', () => {
    expect(knobs('retailer-fault=throttle')).toMatchObject({ retailerFault: 'throttle' });
    expect(knobs('retailer-fault=TIMEOUT')).toMatchObject({ retailerFault: 'timeout', applied: 'retailer-fault=timeout' });
    expect(errorOf('retailer-fault=explode').errors).toEqual({
      'Prefer.retailer-fault': ["The Prefer retailer-fault must be one of throttle, timeout, error, got 'explode'."],
    });
  });

  it.each([['abc'], ['99'], ['600'], ['40.4'], ['-1'], ['']])('When code is %j, then the error names Prefer.code', (value) => {
    const e = errorOf(`code=${value}`);
    expect(Object.keys(e.errors)).toEqual(['Prefer.code']);
    expect(e.message).toMatch(/Prefer code must be an integer from 100 to 599/);
  });

  it('When code has no value, then the error says so', () => {
    expect(errorOf('code').errors['Prefer.code']![0]).toMatch(/got nothing/);
  });

  it('When delay is negative, fractional or over the bound, then the error names Prefer.delay and the bound', () => {
    expect(errorOf('delay=-5').errors['Prefer.delay']![0]).toMatch(/from 0 to 10000, got '-5'/);
    expect(errorOf('delay=1.5').errors).toHaveProperty(['Prefer.delay']);
    expect(errorOf('delay=10001').errors).toHaveProperty(['Prefer.delay']);
    expect(knobs('delay=10000')).toMatchObject({ delay: 10000 });
    expect(parsePrefer('delay=600', { maxDelayMs: 500 }).ok).toBe(false);
  });

  it('When several knobs are bad, then every one is named and the message counts the rest', () => {
    const e = errorOf('code=abc, delay=x, retailer-fault=');
    expect(Object.keys(e.errors)).toEqual(['Prefer.code', 'Prefer.delay', 'Prefer.retailer-fault']);
    expect(e.message).toMatch(/\(and 2 more errors\)$/);
  });

  it('When a quoted value contains a separator, then it stays one value', () => {
    expect(preferencePairs('x="a,b;c", code=404')).toEqual(
      new Map([
        ['x', 'a,b;c'],
        ['code', '404'],
      ]),
    );
  });

  it('When strict is asked for, then it is a knob that is applied, even next to a bad knob', () => {
    expect(knobs('strict, code=404')).toEqual({ strict: true, code: 404, applied: 'strict, code=404' });
    expect(prefersStrict(parsePrefer('delay=x; strict'))).toBe(true);
    expect(prefersStrict(parsePrefer('return=minimal'))).toBe(false);
    expect(prefersStrict(parsePrefer(undefined))).toBe(false);
    expect(prefersStrict(undefined)).toBe(false);
  });
});
