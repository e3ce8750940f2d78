import holidayJp from '@holiday-jp/holiday_jp';

/**
 * Quiet hours (docs/product.md#quiet-hours): when a person does not want to hear of updates. Checks
 * keep running; updates found inside are held and sent as one digest per channel when the quiet
 * hours end. Everything is read in the person's time zone.
 */
export interface QuietHours {
  /** A daily window "HH:MM"–"HH:MM" (it may pass midnight: 20:00–08:00); both empty for none. */
  from: string;
  until: string;
  /** Weekdays quiet all day: 0 Sunday … 6 Saturday. */
  allDay: readonly number[];
  /** Japanese public holidays quiet all day (the holiday_jp data set, kept up to date by its project). */
  holidays: boolean;
  /** Failure alerts, recoveries and silence alerts are sent at once even inside quiet hours. */
  alertsBreakThrough: boolean;
}

export const NO_QUIET_HOURS: QuietHours = {
  from: '',
  until: '',
  allDay: [],
  holidays: false,
  alertsBreakThrough: true,
};

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** What is wrong with quiet hours as entered; null when they are valid. */
export function quietHoursProblem(
  quiet: QuietHours,
): 'quiet_hours_time_invalid' | 'quiet_hours_day_invalid' | null {
  const times = [quiet.from, quiet.until];
  if (!(times.every((time) => time === '') || times.every((time) => TIME.test(time)))) {
    return 'quiet_hours_time_invalid';
  }
  if (quiet.from !== '' && quiet.from === quiet.until) return 'quiet_hours_time_invalid';
  if (quiet.allDay.some((day) => !Number.isInteger(day) || day < 0 || day > 6))
    return 'quiet_hours_day_invalid';
  if (new Set(quiet.allDay).size !== quiet.allDay.length) return 'quiet_hours_day_invalid';
  return null;
}

/** Whether the quiet hours hold any time at all. */
export function hasQuietHours(quiet: QuietHours): boolean {
  return quiet.from !== '' || quiet.allDay.length > 0 || quiet.holidays;
}

interface LocalMoment {
  /** YYYY-MM-DD in the zone. */
  date: string;
  weekday: number;
  /** Minutes since local midnight. */
  minute: number;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formats = new Map<string, Intl.DateTimeFormat>();

function local(at: Date, timeZone: string): LocalMoment {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether `at` falls inside the quiet hours, read in `timeZone`. */
export function isQuiet(quiet: QuietHours, at: Date, timeZone: string): boolean {
  if (!hasQuietHours(quiet)) return false;
  const moment = local(at, timeZone);
  if (quiet.allDay.includes(moment.weekday)) return true;
  if (quiet.holidays && holidayJp.isHoliday(moment.date)) return true;
  if (quiet.from === '') return false;
  const [from, until] = [minutes(quiet.from), minutes(quiet.until)];
  return from < until
    ? moment.minute >= from && moment.minute < until
    : moment.minute >= from || moment.minute < until;
}

const MINUTE_MS = 60_000;
/** Quiet hours end within a week and a holiday run; past this they are taken to end (never hold for ever). */
const LONGEST_QUIET_MS = 16 * 24 * 60 * MINUTE_MS;

/**
 * The first minute at or after `at` that is not quiet: when held updates go out as a digest.
 * Quiet hours that never end (every day all day) end after 16 days, so nothing is held for ever.
 */
export function quietEnds(quiet: QuietHours, at: Date, timeZone: string): Date {
  // Every boundary falls on a whole local minute (zones are whole minutes off UTC).
  let probe = new Date(Math.ceil(at.getTime() / MINUTE_MS) * MINUTE_MS);
  const limit = at.getTime() + LONGEST_QUIET_MS;
  while (probe.getTime() < limit && isQuiet(quiet, probe, timeZone)) {
    probe = new Date(probe.getTime() + MINUTE_MS);
  }
  return probe;
}
