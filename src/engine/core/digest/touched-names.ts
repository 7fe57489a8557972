/**
 * The names a session's own edits defined, imported or removed. A compile error about one of them
 * ("undefined function `load_session_data/1`", "unused import `SpotterWeb.TranscriptComponents`",
 * "`@max_result_lines` undefined") is an edit in progress: the agent used a name before writing
 * it, or removed one still in use, and the next edit put it right. That teaches nothing a later
 * session needs; an error about a name from a library (`get/2`, fixed by an import) does.
 */

/** Definitions in the usual languages: `def name`, `function name`, `class Name`, `const name`. */
const DEFINITION =
  /\b(?:defp?|defmacrop?|defmodule|defstruct|function|func|fn|class|interface|type|const|let|var|struct|enum|trait|module)\s+([A-Za-z_][\w.?!]*)/g

/** `alias X`, `import X`, `require X`, `use X`, an Elixir attribute `@name value`. */
const BINDING = /^\s*(?:(?:alias|import|require|use|from)\s+([A-Z][\w.]*)|@([a-z_]\w*)\s)/gm

/** Identifiers as a compiler names them: `Mod.fun/2`, `@attr`, `snake_case`, `CamelCase`. */
const IDENTIFIER = /@?[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*(?:\/\d+)?/g

/** Errors about a name being missing or unused. */
const NAME_ERROR =
  /\b(?:undefined|unused|not defined|is not defined|cannot find (?:name|module|symbol|function)|has no attribute|unknown (?:function|variable|module|attribute)|no such (?:function|module))\b/i

/** Shortest name compared (shorter ones, like `get`, are too common to tell). */
const MIN_NAME = 4

/** Adds the names that the edit `input` (an Edit, MultiEdit or Write) defined, bound or removed. */
export function noteTouchedNames(names: Set<string>, input: Record<string, unknown>): void {
  const pairs = Array.isArray(input.edits) ? input.edits : [input]
  for (const pair of pairs) {
    if (typeof pair !== 'object' || pair === null) continue
    const { old_string: before, new_string: after, content } = pair as Record<string, unknown>
    const written = typeof after === 'string' ? after : typeof content === 'string' ? content : ''
    for (const match of written.matchAll(DEFINITION)) addName(names, match[1] as string)
    for (const match of written.matchAll(BINDING)) addName(names, (match[1] ?? match[2]) as string)
    if (typeof before === 'string') {
      const kept = new Set(written.match(IDENTIFIER) ?? [])
      for (const name of before.match(IDENTIFIER) ?? []) if (!kept.has(name)) addName(names, name)
    }
  }
}

/** The name an error is about: right after "undefined function" / "unused import", or right before "undefined". */
const NAMED_AFTER =
  /\b(?:undefined|unused|unknown|cannot find|no such)\s+(?:(?:remote\s+)?(?:function|variable|module|attribute|import|alias|type|name|symbol|field)s?\s+)?`?(@?[A-Za-z_][\w.]*(?:\/\d+)?)/gi
const NAMED_BEFORE =
  /`?(@?[A-Za-z_][\w.]*(?:\/\d+)?)`?\s+(?:is\s+)?(?:undefined|not defined|unused|is never used)\b/gi

/** True when `symptom` is a missing or unused name that the session's own edits touched. */
export function isEditInProgress(symptom: string, names: ReadonlySet<string>): boolean {
  if (!NAME_ERROR.test(symptom)) return false
  const named = [...symptom.matchAll(NAMED_AFTER), ...symptom.matchAll(NAMED_BEFORE)].map(
    (match) => match[1] as string,
  )
  // The name itself, not the module it lives in: `Mod.fun/2` is about `fun` (and `Mod`, once).
  return named.some((name) =>
    piecesOf(name)
      .slice(-2)
      .some((piece) => names.has(piece)),
  )
}

function addName(names: Set<string>, name: string): void {
  for (const piece of piecesOf(name)) names.add(piece)
}

/** `Spotter.Services.TranscriptRenderer.render/2` → its parts worth comparing, without arity or `@`. */
function piecesOf(name: string): string[] {
  return name
    .replace(/\/\d+$/, '')
    .replace(/^@/, '')
    .split('.')
    .filter((piece) => piece.length >= MIN_NAME && !COMMON_WORDS.has(piece.toLowerCase()))
}

/** Words that happen to be identifiers in every language and name nothing of the session's. */
const COMMON_WORDS = new Set([
  'error',
  'function',
  'module',
  'import',
  'variable',
  'undefined',
  'unused',
  'defined',
  'alias',
  'name',
  'true',
  'false',
  'null',
  'self',
  'this',
  'then',
  'when',
  'with',
  'else',
  'case',
  'cond',
  'from',
  'file',
  'line',
  'lines',
  'expected',
  'compile',
  'warning',
])
