// Tries to claim a data file and reports the outcome on stdout, as a second sandbox start would meet it.
import { JournalPersistence } from '../../../src/store/persistence-journal.js';
import { StoreFileError } from '../../../src/store/persistence.js';

try {
  const persistence = JournalPersistence.open(process.argv[2]);
  await persistence.close();
  process.stdout.write('opened\n');
} catch (error) {
  if (!(error instanceof StoreFileError)) throw error;
  process.stdout.write(`refused ${error.message}\n`);
}
