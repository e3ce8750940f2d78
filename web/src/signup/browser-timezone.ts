/**
 * docs/product.md#time-zones: the default zone is the browser's offset as an Etc/GMT zone (POSIX sign,
 * so UTC+9 is Etc/GMT-9). An offset that is not whole hours has no such zone: none is sent.
 */
export function browserTimezone(now = new Date()): string | undefined {
  const minutesEast = -now.getTimezoneOffset();
  if (minutesEast % 60 !== 0) return undefined;
  const hours = minutesEast / 60;
  if (hours === 0) return 'Etc/GMT';
  return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}
