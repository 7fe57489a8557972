/**
 * A small reader and writer for the YAML frontmatter of brain files. The SessionStart hook reads
 * every core, task, feature and knowledge file, so this replaces the `yaml` package on that path:
 * measured on Node 20, importing `yaml` costs ~30 ms and parsing 100 frontmatters ~50 ms, which
 * alone would exceed the hook's budget of about one bare `node -e 0`. This reader handles the
 * subset brains use (scalars, quoted strings, `[a, b]` and `- item` lists, `|`/`>` blocks, and
 * nested maps of those, as in a skill's `metadata:`); the `yaml` package is its test oracle.
 */

/** A frontmatter value: plain and quoted scalars stay strings; numbers are not converted. */
export type FrontmatterValue = string | boolean | null | string[] | FrontmatterMap

/** A nested map: `key:` followed by indented `name: value` lines. */
export interface FrontmatterMap {
  [key: string]: FrontmatterValue
}

/** A markdown file split into its frontmatter fields and the text after it. */
export interface ParsedDocument {
  data: Record<string, FrontmatterValue>
  body: string
}

const KEY_LINE = /^([A-Za-z0-9_][\w.-]*)\s*:(?:\s+(.*))?$/

/**
 * Splits `text` into frontmatter and body; a file without frontmatter has empty `data`. Only the
 * frontmatter is cut into lines (the hook parses ~100 files per SessionStart); the body comes
 * back with CRLF line ends made LF.
 */
export function parseFrontmatter(text: string): ParsedDocument {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const fields: string[] = []
  let start = 0
  for (let index = 0; ; index += 1) {
    const newline = source.indexOf('\n', start)
    const raw = newline === -1 ? source.slice(start) : source.slice(start, newline)
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (index === 0) {
      if (line.trimEnd() !== '---') return { data: {}, body: source }
    } else if (/^(---|\.\.\.)\s*$/.test(line)) {
      const body = newline === -1 ? '' : source.slice(newline + 1).replaceAll('\r\n', '\n')
      return { data: parseFields(fields), body }
    } else {
      fields.push(line)
    }
    if (newline === -1) return { data: {}, body: source }
    start = newline + 1
  }
}

function parseFields(lines: string[]): Record<string, FrontmatterValue> {
  const data: Record<string, FrontmatterValue> = {}
  let index = 0
  while (index < lines.length) {
    const match = KEY_LINE.exec(lines[index] ?? '')
    index += 1
    if (!match?.[1]) continue
    const key = match[1]
    const raw = (match[2] ?? '').trim()
    const nested: string[] = []
    while (index < lines.length && isContinuation(lines[index] ?? '')) {
      nested.push(lines[index] ?? '')
      index += 1
    }
    data[key] = fieldValue(raw, nested)
  }
  return data
}

/** Lines that belong to the key above: indented, list items, or blank inside a block. */
function isContinuation(line: string): boolean {
  // Most lines start a key: a visible ASCII character other than `-` answers without a regex.
  const first = line.charCodeAt(0)
  if (first > 0x20 && first < 0x7f && first !== 0x2d) return false
  return line.trim() === '' || /^\s/.test(line) || line.startsWith('- ') || line === '-'
}

function fieldValue(raw: string, nested: string[]): FrontmatterValue {
  if ((raw.startsWith('|') || raw.startsWith('>')) && /^[|>][+-]?$/.test(raw)) {
    return blockScalar(raw, nested)
  }
  if (raw === '' || raw.startsWith('#')) {
    const first = nested.find((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    if (first === undefined) return null
    const indent = first.length - first.trimStart().length
    // An indented `name: value` opens a nested map: its lines, less that indent, are fields again.
    if (indent > 0 && KEY_LINE.test(first.slice(indent))) {
      return parseFields(nested.map((line) => line.slice(Math.min(indent, leadingSpaces(line)))))
    }
    const items = nested.map((line) => line.trim()).filter((line) => line.startsWith('-'))
    if (items.length > 0) return items.map((item) => String(scalar(item.slice(1).trim()) ?? ''))
    return null
  }
  if (raw === '{}') return {}
  if (raw.startsWith('[') && raw.endsWith(']')) return inlineList(raw.slice(1, -1))
  return scalar(raw)
}

function leadingSpaces(line: string): number {
  return line.length - line.trimStart().length
}

function blockScalar(indicator: string, nested: string[]): string {
  const contentLines = nested.map((line) => line.replace(/^\s+/, ''))
  while (contentLines.length > 0 && contentLines[contentLines.length - 1] === '') contentLines.pop()
  return indicator.startsWith('>')
    ? contentLines.join(' ').replace(/ {2,}/g, ' ')
    : contentLines.join('\n')
}

function inlineList(inner: string): string[] {
  const items: string[] = []
  for (const match of inner.matchAll(/\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]+)\s*(?:,|$)/g)) {
    const value = scalar((match[1] ?? '').trim())
    if (value !== null && value !== '') items.push(String(value))
  }
  return items
}

function scalar(raw: string): string | boolean | null {
  if (raw.startsWith('"')) {
    const closing = raw.lastIndexOf('"')
    try {
      return JSON.parse(raw.slice(0, closing > 0 ? closing + 1 : undefined)) as string
    } catch {
      return raw.slice(1, closing > 0 ? closing : undefined)
    }
  }
  if (raw.startsWith("'")) {
    const closing = raw.lastIndexOf("'")
    return raw.slice(1, closing > 0 ? closing : undefined).replaceAll("''", "'")
  }
  const plain = (raw.includes('#') ? raw.replace(/\s+#.*$/, '') : raw).trim()
  if (plain === 'true' || plain === 'True') return true
  if (plain === 'false' || plain === 'False') return false
  if (plain === 'null' || plain === '~' || plain === '') return null
  return plain
}

/** The field as a string, or null when missing, empty or not a scalar. */
export function fieldText(data: Record<string, FrontmatterValue>, key: string): string | null {
  const value = data[key]
  if (typeof value === 'string') return value === '' ? null : value
  if (typeof value === 'boolean') return String(value)
  return null
}

/** The field as a list: a list stays a list, a comma-separated string is split, missing is []. */
export function fieldList(data: Record<string, FrontmatterValue>, key: string): string[] {
  const value = data[key]
  if (Array.isArray(value)) return value
  if (typeof value === 'string' && value !== '') {
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
  }
  return []
}

/** Renders `data` as a frontmatter block (with both `---` lines) followed by `body`. */
export function renderFrontmatter(
  data: Record<string, FrontmatterValue | undefined>,
  body: string,
): string {
  const lines = ['---']
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue
    lines.push(...fieldLines(key, value))
  }
  lines.push('---')
  return `${lines.join('\n')}\n${body}`
}

function fieldLines(key: string, value: FrontmatterValue): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${key}: []`]
    return [`${key}:`, ...value.map((item) => `  - ${quoteIfNeeded(item)}`)]
  }
  if (value === null) return [`${key}: null`]
  if (typeof value === 'boolean') return [`${key}: ${value}`]
  if (typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return [`${key}: {}`]
    return [
      `${key}:`,
      ...entries.flatMap(([name, item]) => fieldLines(name, item).map((line) => `  ${line}`)),
    ]
  }
  return [`${key}: ${quoteIfNeeded(value)}`]
}

/** Plain when YAML would read it back as the same string, JSON-quoted otherwise. */
function quoteIfNeeded(value: string): string {
  const plainSafe =
    value !== '' &&
    value === value.trim() &&
    !/[\n\r\t]|: |\s#|:$/.test(value) &&
    !/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/^(true|false|yes|no|on|off|null|~)$/i.test(value) &&
    !/^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value) &&
    // YAML 1.2's other numbers: hexadecimal, octal, infinity, not-a-number.
    !/^(?:0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/.test(value)
  return plainSafe ? value : JSON.stringify(value)
}

/**
 * Sets top-level scalar fields in place, line by line, so every other line of a hand-edited
 * frontmatter (comments, nested maps, quoting) survives as written. Adds a frontmatter when absent.
 */
export function updateFrontmatter(text: string, fields: Record<string, string | null>): string {
  const lines = text.split('\n')
  const closingIndex = () =>
    lines[0]?.trimEnd() === '---' ? lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(l)) : -1
  if (closingIndex() === -1) return renderFrontmatter(fields, text)
  for (const [key, value] of Object.entries(fields)) {
    const rendered = fieldLines(key, value)[0] ?? ''
    const end = closingIndex()
    const at = lines.findIndex(
      (line, index) => index > 0 && index < end && line.startsWith(`${key}:`),
    )
    if (at === -1) {
      lines.splice(end, 0, rendered)
      continue
    }
    let stale = 0
    while (at + 1 + stale < end && isContinuation(lines[at + 1 + stale] ?? '')) stale += 1
    // An unchanged value keeps its line as written (quotes and all): no churn in diffs.
    const current = parseFields(lines.slice(at, at + 1 + stale))[key]
    if (stale === 0 && current === value) continue
    lines.splice(at, 1 + stale, rendered)
  }
  return lines.join('\n')
}
