// An id sequence never runs out (issue 31, finding 8): past MAX_IDS_PER_SALT ids under one salt it draws another, so
// a create never fails for want of a new id; the contract bounds a bundle's ids.issued at the same figure.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { IdSequence, MAX_IDS_PER_SALT } from '../../src/world.js';

describe('the id sequence', () => {
  it('When it stands where exact integers end (2^53 - 1), then its next ids are all distinct', () => {
    const ids = new IdSequence({ salt: '0123456789abcdef', issued: 2 ** 53 - 1 });
    const made = Array.from({ length: 5 }, () => ids.next());
    expect(new Set(made).size).toBe(5);
    expect(ids.state.issued).toBeLessThanOrEqual(MAX_IDS_PER_SALT);
  });

  it('When it reaches MAX_IDS_PER_SALT, then it goes on under a new salt, from 0', () => {
    const ids = new IdSequence({ salt: '0123456789abcdef', issued: MAX_IDS_PER_SALT });
    ids.next();
    expect(ids.state.salt).not.toBe('0123456789abcdef');
    expect(ids.state.issued).toBe(1);
  });

  it("When the contract bounds a bundle's ids.issued, then the bound is MAX_IDS_PER_SALT", () => {
    const schemas = (loadContract().doc.components as { schemas: Record<string, unknown> }).schemas;
    const bundle = schemas.SandboxWorkspaceBundle as { properties: { ids: { properties: { issued: { maximum: number } } } } };
    expect(bundle.properties.ids.properties.issued.maximum).toBe(MAX_IDS_PER_SALT);
  });
});
