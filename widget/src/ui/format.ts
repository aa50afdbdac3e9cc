/** spec 2.1 file_size (bytes) as people read it in their language: "812 byte", "12.3 kB", "4 MB". */
export function formatSize(bytes: number | undefined, locale = 'en'): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  }).format(value);
}

/** spec 2.1 duration (seconds) as "0:07", "12:30" or "1:02:03". */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.round(seconds);
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}
