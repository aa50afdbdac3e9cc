/**
 * A datetime-local input's value (`2026-11-22T09:30`, the admin's own clock) as the ISO 8601 time the API
 * takes; empty or unreadable gives undefined, so the filter is left out or the API's check names the field.
 */
export function localInputToIso(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
