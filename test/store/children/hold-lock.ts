// Holds a data file open until killed: the "running sandbox" a second process must not share the file with.
import { JournalPersistence } from '../../../src/store/persistence-journal.js';

const persistence = JournalPersistence.open(process.argv[2]);
if (!(await persistence.load())) await persistence.replaceAll({ format: 1, seed: 1, collections: {} });
process.stdout.write(`ready ${process.pid}\n`);
process.on('SIGTERM', () => void persistence.close().then(() => process.exit(0)));
setInterval(() => {}, 1 << 30);
