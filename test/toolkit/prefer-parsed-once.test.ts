import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import * as preferHeader from '../../src/knobs/prefer-header.js';
import { testApp } from '../helpers/app.js';

// Every importer of parsePrefer gets the counting one: the knobs middleware, the tolerant reader, the adapter, the relay.
vi.mock('../../src/knobs/prefer-header.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/knobs/prefer-header.js')>();
  return { ...original, parsePrefer: vi.fn(original.parsePrefer) };
});

describe('the Prefer header of one request', () => {
  it('When a request carries knobs that several steps read (strict, code), then Prefer is parsed once', async () => {
    const t = await testApp();
    const parse = vi.mocked(preferHeader.parsePrefer);
    parse.mockClear();
    // An unknown query parameter makes the tolerant reader ask about strict mode; code is answered by the adapter.
    const res = await request(t.app).get('/2024-09/merchants?unknown=1').set(t.auth('owner')).set('Prefer', 'code=401').expect(401);
    expect(res.headers['preference-applied']).toBe('code=401');
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockClear();
    await request(t.app).get('/2024-09/merchants?unknown=1').set(t.auth('owner')).set('Prefer', 'strict, delay=0').expect(422);
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
