const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count as people read it, in binary steps.
 *
 * @example
 * humanSize(512);     // '512 B'
 * humanSize(1536);    // '1.5 KB'
 * humanSize(5242880); // '5 MB'
 */
export function humanSize(bytes: number | undefined): string | undefined {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return undefined;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${rounded} ${UNITS[unit]}`;
}
