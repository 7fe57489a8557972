/**
 * What the session says about a change, in a few words: the agent announces an edit just before
 * making it ("Now add the `TranscriptSelection` hook to app.js."), and a file written whole opens
 * with its own description (a doc comment). Both are the author's words about that very change,
 * so a digest can say what changed in a file without reading the diff.
 */
import { leadingSentences, oneLine, sentencesOf } from './digest-text.ts'

/** Longest note kept for one change, in characters. */
const NOTE_CHARS = 150

/** A status remark that opens a message before the agent says what it does next. */
const STATUS_ONLY =
  /^(?:good|great|perfect|ok(?:ay)?|done|right|expected|clean compile|all (?:tests )?pass\w*|progress)\b(?:\W+\w+){0,5}\W*$/i

/** The words that announce a step: removed, leaving the step itself ("add the hook"). */
const ANNOUNCE =
  /^(?:(?:now|next|then|first|finally|also|ok(?:ay)?|good|great|perfect|right|so)[,.!:—-]*\s+)*(?:(?:let me|let's|i'll|i will|i'm going to|i am going to|i need to|we need to|we'll|i should|i have to|time to)\s+(?:also\s+|now\s+|just\s+|first\s+)*)?/i

/** Verbs a change note opens with once the announcement is gone. */
const CHANGE_VERB =
  /^(?:add|adds|added|create|creates|write|writes|update|updates|replace|rewrite|remove|delete|drop|rename|move|extract|refactor|fix|change|make|register|wire|implement|introduce|switch|use|set|mark|merge|split|inline|export|import|expose|store|keep|convert|enable|disable|allow|handle|support|include|apply|put|give|define|document)\b/i

/** Steps too generic to tell a reader anything about the change. */
const GENERIC =
  /^(?:\w+\s+){0,2}(?:(?:all|the|these|those|remaining|other)\s+)*(?:changes?|edits?|updates?|fix(?:es)?|files?|tests?|code|it|them|this|that)\b(?:\s+(?:now|too|as well|at once|in one (?:batch|go)|in parallel))?\W*$/i

/**
 * The change the agent announced in `text` right before an edit, as a short verb phrase
 * ("add the `:state` attribute and `:close` action"), or '' when it only narrates.
 */
export function announcedChange(text: string): string {
  const sentences = sentencesOf(oneLine(text.replace(/```[\s\S]*?```/g, ' ')))
  for (const [index, sentence] of sentences.entries()) {
    if (STATUS_ONLY.test(sentence)) continue
    const step = sentence
      .replace(ANNOUNCE, '')
      .replace(/[:.!]+$/, '')
      .trim()
    if (!CHANGE_VERB.test(step)) continue
    const previous = sentences[index - 1]
    // "The config lacks X. Let me add it.": the step is only clear with the sentence before it.
    const vague = /\b(?:it|them|this|that)\s*$/i.test(step) && step.split(/\s+/).length <= 4
    if (vague && previous !== undefined && !STATUS_ONLY.test(previous))
      return shortNote(lowerFirst(`${previous.replace(/[.!]+$/, '')}: ${step}`))
    if (GENERIC.test(step)) return ''
    // The agent's "my" is the reader's "the": the note outlives the session.
    const note = step.replace(/\bmy\b/gi, 'the')
    return shortNote(lowerFirst(note))
  }
  return ''
}

/**
 * The description a whole file opens with: an Elixir `@moduledoc`, a Python docstring, a leading
 * block or line comment (after a shebang), or a markdown file's title. '' when there is none.
 */
export function openingDocComment(path: string, content: string): string {
  const head = content.slice(0, 2000)
  if (/\.(?:md|markdown)$/i.test(path)) {
    const title = /^#+\s+(.+)$/m.exec(head)?.[1]
    return title === undefined ? '' : firstStatement(title)
  }
  const moduledoc = /@moduledoc\s+(?:~[sS])?"""\s*\n([\s\S]*?)"""/.exec(head)?.[1]
  if (moduledoc !== undefined) return firstStatement(moduledoc)
  const lines = head.split('\n')
  let at = lines[0]?.startsWith('#!') ? 1 : 0
  while (at < lines.length && (lines[at] as string).trim() === '') at++
  const first = (lines[at] ?? '').trim()
  if (/^(?:"""|''')/.test(first)) {
    const body = head.slice(head.indexOf(first)).slice(3)
    return firstStatement(body.slice(0, Math.max(0, body.search(/"""|'''/))))
  }
  if (first.startsWith('/**') || first.startsWith('/*')) {
    const end = head.indexOf('*/')
    const body = head.slice(head.indexOf(first) + 2, end === -1 ? undefined : end)
    return firstStatement(body.replace(/^\s*\*+ ?/gm, ''))
  }
  const commentLines: string[] = []
  for (const line of lines.slice(at)) {
    const comment = /^\s*(?:\/\/|#(?!!)|--)\s?(.*)$/.exec(line)
    if (comment === null) break
    commentLines.push(comment[1] as string)
  }
  return firstStatement(commentLines.join('\n'))
}

/** The first sentence of a description, without comment decoration or tags. */
function firstStatement(text: string): string {
  const flat = oneLine(text.replace(/^\s*@\w+.*$/gm, ' '))
  if (flat === '' || /^false$/i.test(flat)) return ''
  const first = sentencesOf(flat)[0] ?? flat
  return shortNote(first.replace(/[.:]+$/, ''))
}

function shortNote(text: string): string {
  return leadingSentences(text, NOTE_CHARS)
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? `${(text[0] as string).toLowerCase()}${text.slice(1)}` : text
}

/** Lines that carry no change of their own (braces, `end`, blank). */
const TRIVIAL_LINE = /^(?:[\s{}()[\];,]*|end|do|else|\}\s*else\s*\{|<\/?\w+>)$/

/** Longest line kept to say what an edit changed. */
const CODE_CHARS = 90

/**
 * What an edit added, in its own code: the first lines of an Edit's `new_string` (or a MultiEdit's
 * edits) that its `old_string` did not have, at most two, trimmed. '' for a whole-file Write (its
 * doc comment says more) or an edit that only removed lines.
 */
export function addedCodeOf(input: Record<string, unknown>, about = ''): string {
  // A whole file written: its lines about what the agent named (`default`, `ALTER TABLE`).
  if (typeof input.content === 'string' && about !== '') return linesAbout(input.content, about)
  const pairs = Array.isArray(input.edits)
    ? input.edits.filter(
        (edit): edit is Record<string, unknown> => typeof edit === 'object' && edit !== null,
      )
    : [input]
  const added: string[] = []
  for (const pair of pairs) {
    if (typeof pair.new_string !== 'string') continue
    const before = new Set(
      (typeof pair.old_string === 'string' ? pair.old_string : '')
        .split('\n')
        .map((line) => line.trim()),
    )
    for (const raw of pair.new_string.split('\n')) {
      const line = raw.trim()
      if (
        before.has(line) ||
        TRIVIAL_LINE.test(line) ||
        line.startsWith('#') ||
        line.startsWith('//')
      )
        continue
      added.push(line.length > CODE_CHARS ? `${line.slice(0, CODE_CHARS - 1)}…` : line)
      if (added.length === 2) return added.join('; ')
    }
  }
  return added.join('; ')
}

/** Words of a statement worth finding in code: four letters or more, not the common ones. */
const COMMON_WORD =
  /^(?:this|that|with|which|when|will|would|uses?|from|into|have|does|doesn't|exist|exists|rows?|fail|first|then|them|they|there|their|auto-generated|generated)$/i

/** The lines (two at most, in file order) of `content` naming the most words of `about`, trimmed. */
function linesAbout(content: string, about: string): string {
  const words = (about.toLowerCase().match(/[a-z_][a-z0-9_]{3,}/g) ?? []).filter(
    (word) => !COMMON_WORD.test(word),
  )
  if (words.length === 0) return ''
  const scored: { line: string; score: number; at: number }[] = []
  for (const [at, raw] of content.split('\n').entries()) {
    const line = raw.trim()
    if (
      line === '' ||
      TRIVIAL_LINE.test(line) ||
      /^(?:#|\/\/|\*|@moduledoc|def(?:module)?\b)/.test(line)
    )
      continue
    const lower = line.toLowerCase()
    const score = new Set(words.filter((word) => lower.includes(word))).size
    if (score > 0) scored.push({ line, score, at })
  }
  return scored
    .sort((left, right) => right.score - left.score || left.at - right.at)
    .slice(0, 2)
    .sort((left, right) => left.at - right.at)
    .map(({ line }) => (line.length > CODE_CHARS ? `${line.slice(0, CODE_CHARS - 1)}…` : line))
    .join('; ')
}

/**
 * The announced change, if it is this edit's: an announcement naming code (`` use `:auto` mode ``)
 * that the edit does not contain was about another plan, not about what the edit did.
 */
export function editNote(note: string, input: Record<string, unknown>): string {
  const spans = [...note.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string)
  if (spans.length === 0) return note
  const written = ['old_string', 'new_string', 'content', 'edits']
    .map((key) => (typeof input[key] === 'string' ? input[key] : JSON.stringify(input[key] ?? '')))
    .join('\n')
  const named = spans.filter((span) => !/\.\w{1,5}$|\//.test(span))
  return named.length === 0 || named.some((span) => written.includes(span)) ? note : ''
}
