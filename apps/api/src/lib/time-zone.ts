/**
 * Calendar days and wall-clock times in an IANA time zone (the console sends the user's), from the time zone
 * database that Intl carries: no offset is assumed constant, so days of 23 or 25 hours (daylight saving time)
 * and days that start at 01:00 are right.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether `name` is a time zone Intl knows (`Asia/Tokyo`, `UTC`, …). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

const MS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch of a UTC wall time (any year: Date.UTC maps years 0-99 to 1900-1999). */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0) {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  return date.getTime();
}

/** The wall-clock fields of `instant` (whole seconds) in `timeZone`. */
function wallClock(instant: number, timeZone: string) {
  const fields: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) fields[part.type] = part.value;
  const year = Number(fields.year) * (fields.era === 'BC' || fields.era === 'B' ? -1 : 1);
  return {
    year,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    second: Number(fields.second),
  };
}

/** `timeZone`'s offset from UTC at `instant`, in milliseconds (Asia/Tokyo: +9 h). */
export function offsetAt(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const w = wallClock(whole, timeZone);
  return utc(w.year, w.month, w.day, w.hour, w.minute, w.second) - whole;
}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

/** The calendar day (YYYY-MM-DD) that `instant` falls on in `timeZone`. */
export function calendarDay(instant: Date, timeZone: string): string {
  const w = wallClock(instant.getTime(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * The first instant of calendar day `day` (YYYY-MM-DD) in `timeZone`: local midnight, or, where a clock change
 * skips midnight, the moment the day begins; where midnight happens twice, the first one.
 */
export function startOfDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const midnight = utc(year, month, date);
  // The offsets in force around that day: one of them is the day's first instant's.
  const offsets = new Set([-MS_PER_DAY, 0, MS_PER_DAY].map((shift) => offsetAt(midnight + shift, timeZone)));
  const candidates = [...offsets]
    .map((offset) => midnight - offset)
    .filter((instant) => calendarDay(new Date(instant), timeZone) === day)
    .sort((a, b) => a - b);
  // Every day has a first instant among these; the fallback only guards against an unknown time zone rule.
  return new Date(candidates[0] ?? midnight);
}

/** The first instant of the day after `day` in `timeZone`: the exclusive end of an inclusive range of days. */
export function startOfNextDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(utc(year, month, date) + MS_PER_DAY);
  const nextDay = `${pad(next.getUTCFullYear(), 4)}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
  return startOfDay(nextDay, timeZone);
}

/**
 * ISO 8601 with the offset in force in `timeZone` (RFC 3339 §5.6): `2026-11-20T18:30:00.000+09:00`; in UTC,
 * `…Z` as `Date.toISOString` writes it.
 */
export function isoInTimeZone(instant: Date, timeZone: string): string {
  if (timeZone === 'UTC') return instant.toISOString();
  const ms = instant.getTime();
  const offset = offsetAt(ms, timeZone);
  const local = new Date(ms + offset).toISOString().slice(0, -1);
  const minutes = Math.round(offset / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  return `${local}${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}
