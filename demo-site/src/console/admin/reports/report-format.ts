/** A duration in whole seconds as a person reads it: "45 s", "3 min 20 s", "2 h 5 min", "1 d 3 h"; none: "–". */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const first = units.findIndex(([size]) => seconds >= size);
  const [bigSize, bigUnit] = units[first]!;
  const [smallSize, smallUnit] = units[first + 1]!;
  const big = Math.floor(seconds / bigSize);
  const small = Math.floor((seconds % bigSize) / smallSize);
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}

/** A share (0..1) as a whole percentage; none: "–". */
export function formatShare(share: number | null): string {
  return share === null ? '–' : `${Math.round(share * 100)}%`;
}

/** CSAT of a count of positive and negative ratings, as the API defines it: positive / (positive + negative). */
export function csatOf(positive: number, negative: number): number | null {
  return positive + negative === 0 ? null : positive / (positive + negative);
}
