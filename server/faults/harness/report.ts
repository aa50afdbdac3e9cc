/** One line of the results table: a scenario and what it found. */
export interface ScenarioResult {
  scenario: string;
  /** What was sent and acknowledged, in words: "1000 agent msgs / 50 chats". */
  counts: string;
  missing: number;
  duplicates: number;
  orderViolations: number;
  /** Other broken expectations, each in words (a bad exit code, a failed integrity check...). */
  failures: string[];
  ms: number;
  notes: string[];
}

export const passed = (r: ScenarioResult) => r.missing === 0 && r.duplicates === 0 && r.orderViolations === 0 && r.failures.length === 0;

/** The results as a Markdown table, then the notes and failures of each scenario. */
export function formatTable(results: ScenarioResult[]): string {
  const header = ['scenario', 'counts', 'missing', 'duplicates', 'order violations', 'time', 'result'];
  const rows = results.map((r) => [
    r.scenario,
    r.counts,
    String(r.missing),
    String(r.duplicates),
    String(r.orderViolations),
    `${(r.ms / 1000).toFixed(1)} s`,
    passed(r) ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  for (const r of results) {
    for (const note of r.notes) out.push(`- ${r.scenario}: ${note}`);
    for (const failure of r.failures) out.push(`- ${r.scenario}: FAILED: ${failure}`);
  }
  return out.join('\n');
}
