const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Site ids are UUIDs; anything else names no site. */
export function isTargetId(value: string): boolean {
  return UUID.test(value);
}
