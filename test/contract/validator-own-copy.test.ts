import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract, parseYaml } from '../../src/contract/document/load-contract.js';
import { validatorOptions } from '../../src/pipeline/mount-contract.js';
import { defaultConfig } from '../../src/config.js';
import { bindingPlans } from '../../src/access/binding-plans.js';
import { handlers } from '../../src/handlers.js';
import { routeBindings } from '../../src/areas/route-bindings.js';
import { validatorMiddleware } from '../../src/contract/validator/own-copy.js';
import { demo, testApp } from '../helpers/app.js';

// The validator prepares (and changes) its own copy of the contract; the sandbox's copy serves the docs, the
// operation list and the examples, so it must stay as the YAML reads.
describe("The validator's own copy of the contract", () => {
  it('When the validator has been built and has answered, then the contract the sandbox shares is as the YAML reads', async () => {
    const t = await testApp();
    await request(t.app).get(`/2024-09/products?merchant_id=${demo.merchant}`).set(t.auth('owner')).expect(200);
    await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant }).expect(422);
    expect(t.runtime.contract).toStrictEqual(parseYaml(loadContract().text));
  });

  it('When the validator is not the release the tuning was written for, then its own middleware() builds the same steps', () => {
    const t = { contract: loadContract().doc };
    type Handlers = Parameters<typeof validatorOptions>[1];
    const options = () =>
      validatorOptions({ ...t, config: defaultConfig } as never, handlers as unknown as Handlers, bindingPlans(t.contract, routeBindings), routeBindings);
    const names = (steps: { name: string }[]) => steps.map((step) => step.name);
    const tuned = validatorMiddleware(t.contract, options(), true);
    const untuned = validatorMiddleware(t.contract, options(), false);
    expect(names(untuned)).toEqual(names(tuned));
    expect(names(tuned)).toContain('securityMiddleware');
  });
});
