// How the console writes a moment and a count (British English, as the rest of the console).
const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A date and time to the minute: "26 Nov 2026, 06:02". */
export const when = (iso: string) => moment.format(new Date(iso));

/** A count with thousands separators: "12,345". */
export const number = (n: number) => n.toLocaleString('en-GB');

const clockTime = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' });

/** The time of a moment today ("14:02"), or its date and time on another day (as `when`). */
export const clock = (iso: string) => {
  const at = new Date(iso);
  return at.toDateString() === new Date().toDateString() ? clockTime.format(at) : moment.format(at);
};
