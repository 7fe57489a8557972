/** The soak's results: one row per count, violations marked, printed as a table. */

/** One measured count. `limit` set: the row is a check, violated when `value` exceeds it. */
export interface SoakRow {
  label: string
  value: number | string
  limit?: number
  /** A few examples of what went wrong, for the reader to start from. */
  samples?: string[]
}

/** What one part measured. */
export interface PartResult {
  part: 'stops' | 'kills' | 'fuzz' | 'burst'
  seconds: number
  rows: SoakRow[]
}

/** True when the row is a check that failed. */
export function isViolation(row: SoakRow): boolean {
  return row.limit !== undefined && typeof row.value === 'number' && row.value > row.limit
}

/** The results as a markdown table, then the samples of each violated row. */
export function formatResults(results: readonly PartResult[]): string {
  const lines = ['| part | count | value | must be | |', '|---|---|---|---|---|']
  for (const result of results) {
    lines.push(`| ${result.part} | wall time | ${result.seconds.toFixed(0)} s | | |`)
    for (const row of result.rows) {
      const value = typeof row.value === 'number' ? row.value.toLocaleString('en-US') : row.value
      const limit = row.limit === undefined ? '' : `≤ ${row.limit}`
      const verdict = row.limit === undefined ? '' : isViolation(row) ? '**FAIL**' : 'ok'
      lines.push(`| ${result.part} | ${row.label} | ${value} | ${limit} | ${verdict} |`)
    }
  }
  for (const result of results) {
    for (const row of result.rows) {
      // Failures that are not checks (a `sleep run` refused, say) are shown too: they explain counts.
      if (!row.samples?.length || (row.limit !== undefined && !isViolation(row))) continue
      lines.push('', `${result.part} / ${row.label}, e.g.:`)
      for (const sample of row.samples.slice(0, 5)) lines.push(`  - ${sample.slice(0, 300)}`)
    }
  }
  return lines.join('\n')
}

/** Progress on stderr, so stdout stays the table. */
export function progress(message: string): void {
  process.stderr.write(`[soak] ${message}\n`)
}
