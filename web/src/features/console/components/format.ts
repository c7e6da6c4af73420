// How the console writes a moment and a count (British English, as the rest of the console).
const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A date and time to the minute: "26 Nov 2026, 06:02". */
export const when = (iso: string) => moment.format(new Date(iso));

/** A count with thousands separators: "12,345". */
export const number = (n: number) => n.toLocaleString('en-GB');
