import { describe, expect, it } from 'vitest';
import { calendarDay, isoInTimeZone, isTimeZone, offsetAt, startOfDay, startOfNextDay } from './time-zone.ts';

describe('time zones', () => {
  it('knows IANA names and refuses anything else', () => {
    expect(isTimeZone('Asia/Tokyo')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(65))).toBe(false);
  });

  it('starts a day at local midnight', () => {
    expect(startOfDay('2026-11-20', 'Asia/Tokyo').toISOString()).toBe('2026-11-19T15:00:00.000Z');
    expect(startOfDay('2026-11-20', 'UTC').toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(startOfDay('2026-11-20', 'America/Los_Angeles').toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect(startOfDay('2026-11-20', 'Asia/Kolkata').toISOString()).toBe('2026-11-19T18:30:00.000Z');
    expect(startOfDay('2026-01-01', 'Pacific/Kiritimati').toISOString()).toBe('2025-12-31T10:00:00.000Z');
  });

  it('ends a day when the next begins: 23 and 25 hours on the days clocks change', () => {
    // New York: clocks go forward on 2026-03-08 and back on 2026-11-01.
    const hours = (day: string) =>
      (startOfNextDay(day, 'America/New_York').getTime() - startOfDay(day, 'America/New_York').getTime()) / 3_600_000;
    expect(hours('2026-03-08')).toBe(23);
    expect(hours('2026-11-01')).toBe(25);
    expect(hours('2026-11-02')).toBe(24);
    expect(startOfNextDay('2026-12-31', 'Asia/Seoul').toISOString()).toBe('2026-12-31T15:00:00.000Z');
    expect(startOfNextDay('2028-02-28', 'UTC').toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('starts a day whose midnight a clock change skips at the moment it begins', () => {
    // Santiago de Chile moves from -04:00 to -03:00 at 00:00 on 2026-09-06: the day begins at 01:00 local.
    const start = startOfDay('2026-09-06', 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(calendarDay(start, 'America/Santiago')).toBe('2026-09-06');
    expect(calendarDay(new Date(start.getTime() - 1), 'America/Santiago')).toBe('2026-09-05');
  });

  it('writes instants with the local offset', () => {
    const instant = new Date('2026-11-20T09:30:00.123Z');
    expect(isoInTimeZone(instant, 'Asia/Tokyo')).toBe('2026-11-20T18:30:00.123+09:00');
    expect(isoInTimeZone(instant, 'America/St_Johns')).toBe('2026-11-20T06:00:00.123-03:30');
    expect(isoInTimeZone(instant, 'UTC')).toBe('2026-11-20T09:30:00.123Z');
    expect(isoInTimeZone(instant, 'Europe/London')).toBe('2026-11-20T09:30:00.123+00:00');
    expect(offsetAt(instant.getTime(), 'Asia/Kolkata')).toBe(5.5 * 3_600_000);
    expect(calendarDay(instant, 'Pacific/Honolulu')).toBe('2026-11-19');
  });
});
