/** Holidays as the form holds them: dates as YYYY-MM-DD, one per line (commas and spaces also separate). */
export function holidaysFromText(text: string): string[] {
  return text.split(/[\s,]+/).filter((date) => date !== '');
}

export function holidaysToText(dates: readonly string[]): string {
  return dates.join('\n');
}
