// The contract's `uuid`, `date` and `date-time` as the sandbox reads them: an id as the service writes it, a day of
// the calendar and an instant the sandbox can compute with and show again. Ajv's formats are looser: its `uuid` takes
// a `urn:uuid:` prefix (which no record's id has, so such a merchant_id named no merchant and was never checked
// for membership), and its fast `date`/`date-time` only check the shape (`2024-13-01`, `T25:00`, `+05` and the leap
// second `23:59:60` pass, and would reach a handler as an invalid Date). Every check of the contract (the request and
// answer validator, a loaded bundle's records) and the record bindings use these instead.

/** A UUID as ids are written: 8-4-4-4-12 hex digits, no `urn:uuid:` prefix or braces (either case, as Ajv's). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])t(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;

/** The first and last instants whose ISO text has a four-digit year (what every `date-time` the sandbox shows has). */
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether day `d` of month `m` (1-based) exists in year `y` (proleptic Gregorian). */
function dayExists(y: number, m: number, d: number): boolean {
  if (d <= 28) return true;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return d <= days;
}

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && dayExists(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null || !dayExists(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  // Only an offset at either end of the calendar can move the instant out of four-digit years.
  if (match[1] !== '0000' && match[1] !== '9999') return true;
  const time = Date.parse(text);
  return time >= EARLIEST && time <= LATEST;
}

/** Ajv format definitions of `uuid`, `date` and `date-time` (the validator's `formats` option, or `ajv.addFormat`). */
export const CONTRACT_FORMATS = {
  uuid: { type: 'string', validate: UUID },
  date: { type: 'string', validate: isDate },
  'date-time': { type: 'string', validate: isDateTime },
} as const;
