/**
 * `1234567` → `1,234,567`, as `toLocaleString('en-US')` writes it, without Intl: the first
 * toLocaleString of a process sets up ICU's number formatting, ~13 ms of a command's start.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US')
  const digits = String(Math.abs(value))
  const groups: string[] = []
  for (let end = digits.length; end > 0; end -= 3)
    groups.unshift(digits.slice(Math.max(0, end - 3), end))
  return `${value < 0 ? '-' : ''}${groups.join(',')}`
}
