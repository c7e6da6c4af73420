// The one way member screens write a date ("26 Nov 2026") and a moment ("26 Nov 2026, 14:02"), in
// the member's own time zone. The formatters are made on first use, not when a screen loads: the
// first Intl.DateTimeFormat a page makes loads time-zone data on its thread (see
// features/auth/api/register.ts).
let dayFormat: Intl.DateTimeFormat | undefined;
let momentFormat: Intl.DateTimeFormat | undefined;

/** "26 Nov 2026". */
export function formatDay(when: string | Date): string {
  dayFormat ??= new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
  return dayFormat.format(new Date(when));
}

/** "26 Nov 2026, 14:02". */
export function formatMoment(when: string | Date): string {
  momentFormat ??= new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return momentFormat.format(new Date(when));
}
