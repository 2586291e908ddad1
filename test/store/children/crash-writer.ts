// Commits a never-ending burst of creates and updates and prints each one once commit() has resolved
// ("ack <id>" and "count <n>"): the parent kill -9s this process mid-burst and checks that nothing printed is lost.
// stdout is a pipe, which Node writes synchronously on Linux, so a printed line was acknowledged before any kill.
import { JournalPersistence } from '../../../src/store/persistence-journal.js';
import type { Snapshot } from '../../../src/store/persistence.js';
import { aProduct } from '../helpers.js';

const [file, initial, compactBytes] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
// compactGrowth 0: compact every compactBytes, so the kill also lands inside compactions.
const persistence = JournalPersistence.open(file, { compactMinBytes: compactBytes, compactGrowth: 0, snapshotChunkBytes: 16 * 1024 });
// Like the store: records are replaced, never mutated, so a snapshot taken earlier stays valid while it is written.
const products = new Map<string, unknown>();
let counter = { id: 'counter', n: 0 };
for (let i = 0; i < initial; i++) products.set(aProduct(i).id, aProduct(i));
const snapshot = (): Snapshot => ({ format: 1, seed: 1, collections: { counters: [counter], products: [...products.values()] } });
await persistence.replaceAll(snapshot());
process.stdout.write('ready\n');

let next = initial;
// 16 commits in flight at a time, like 16 concurrent requests: exercises group commit under the kill.
async function worker(): Promise<void> {
  for (;;) {
    const product = aProduct(next++);
    products.set(product.id, product);
    counter = { id: 'counter', n: counter.n + 1 };
    const mine = counter.n;
    await persistence.commit(
      [
        { c: 'products', op: 'put', id: product.id, rec: product },
        { c: 'counters', op: 'put', id: 'counter', rec: counter },
      ],
      snapshot,
    );
    process.stdout.write(`ack ${product.id}\ncount ${mine}\n`);
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
