/**
 * A digest gotcha taken apart into symptom, cause and fix. The digest states each gotcha on one
 * line in one of two shapes: the ones it followed through the session's calls as
 * `` `error line` in `command` → cause → fix `` (several failures of one command fixed by one run
 * as `` `command`: `error` → fix; `error` → fix ``), and the bullets of Claude Code's compaction
 * summaries as `problem: what caused it. Fixed by …`. A gotcha whose fix is only a rerun, or a
 * bare "changed <file>" with no cause, teaches nothing and is dropped here.
 */

/** One gotcha, taken apart. */
export interface GotchaParts {
  /** The error as it showed (the real error line, or the summary's name for the problem). */
  symptom: string
  /** The command or tool that failed, when the digest names one (`git push`, `mix test`). */
  command: string
  /** A hook reported it after an edit. */
  fromHook: boolean
  /** Why it happened, in the agent's words; '' when not stated. */
  cause: string
  /** What resolved it: a code change or a different command. */
  fix: string
  /** `command` when the fix is running a different command, `change` for a code change. */
  fixKind: 'command' | 'change'
}

/** `` `error` in `command` ``, `` `error` (a hook, after an edit) `` or `` `error` `` and its remedy. */
const TRACKED = /^`([^`]+)`(?: in `([^`]+)`| (\(a hook, after an edit\)))?\s*(?:→\s*(.*))?$/
/** `` `command`: `error` → … ; `error` → … `` */
const CHAIN = /^`([^`]+)`:\s+(`.*)$/
/** A remedy that only says the command passed again: no fix to learn. */
const RERUN_ONLY = /^passed on a rerun\.?$/i
/** A sentence that states a fix (what was done or needs doing), not only what went wrong. */
const FIX_STATEMENT =
  /\b(?:fix(?:ed|es)?|resolv\w*|solv\w*|add(?:ed|ing|s)?|use[sd]?|using|replac\w*|renam\w*|remov\w*|extract\w*|rewr(?:ite|ote|itten)|chang(?:e|ed|ing)|mov(?:e|ed|ing)|switch\w*|set|wrapp?\w*|import\w*|updat\w*|defin\w*|install\w*|delet\w*|revert\w*|convert\w*|bound|bind\w*|pin(?:ned)?|forc\w*|dropp?\w*|match\w*|need(?:s|ed)? to|must|instead)\b/i
/** Words of an error message. */
const ERRORISH =
  /\b(?:error|exception|fail(?:s|ed|ure)?|cannot|can't|undefined|not found|warning|invalid|refused)\b/i
/** How a summary bullet says what fixed it. */
const FIX_OPENER = /^(?:fixed|resolved|solved|solution|fix)(?: it)?(?: by| with|:)?\s+/i

/** The gotchas in one digest item (a chain holds several); [] when none states a real fix. */
export function gotchaPartsOf(text: string): GotchaParts[] {
  const line = text.trim()
  const chain = CHAIN.exec(line)
  if (chain?.[1] && chain[2]) {
    const truncated = line.endsWith('…')
    const segments = chain[2].split(/;\s+(?=`)/)
    // A cut chain's last failure lost its fix mid-sentence.
    if (truncated && segments.length > 1) segments.pop()
    return segments.flatMap((segment) => {
      const parts = trackedParts(segment.replace(/…$/, ''))
      return parts === null ? [] : [{ ...parts, command: parts.command || chain[1] || '' }]
    })
  }
  const tracked = trackedParts(line)
  if (tracked !== null) return [tracked]
  if (TRACKED.test(line)) return []
  const summary = summaryParts(line)
  return summary === null ? [] : [summary]
}

function trackedParts(segment: string): GotchaParts | null {
  const match = TRACKED.exec(segment)
  if (!match?.[1]) return null
  const remedy = (match[4] ?? '')
    .split(/\s+→\s+/)
    .map((part) => part.trim().replace(/\.$/, ''))
    .filter((part) => part !== '')
  if (remedy.length === 0 || RERUN_ONLY.test(remedy.at(-1) ?? '')) return null
  const base = { symptom: match[1], command: match[2] ?? '', fromHook: match[3] !== undefined }
  const last = remedy.at(-1) as string
  const cause = remedy.slice(0, -1).join(' → ')
  const kind = fixKindOf(last)
  if (remedy.length === 1) {
    // One part is a fix when it reads as one, else only a cause: no fix, no gotcha.
    if (kind === null) return null
    if (kind.bare) return null
    return { ...base, cause: '', fix: last, fixKind: kind.kind }
  }
  if (kind === null) return null
  return { ...base, cause, fix: last, fixKind: kind.kind }
}

/**
 * What a fix is: a different command (a lone `command`), a code change (what the agent changed,
 * or `changed <file>`: bare, only useful with a cause), or null when it states no fix.
 */
function fixKindOf(fix: string): { kind: 'command' | 'change'; bare: boolean } | null {
  if (/^`[^`]+`$/.test(fix)) return { kind: 'command', bare: false }
  // What the edits added, in their own code (`` `a.ex`: `import X` ``), and commands run with them.
  if (/`[^`\s]+`:\s*`[^`]+`/.test(fix)) return { kind: 'change', bare: false }
  if (/^`[^`]+`(?:;\s*(?:then\s+)?`[^`]+`)+$/.test(fix)) return { kind: 'command', bare: false }
  if (/^changed `[^`]+`$/.test(fix)) return { kind: 'change', bare: true }
  if (/, then `[^`]+`$/.test(fix) || FIX_STATEMENT.test(fix)) return { kind: 'change', bare: false }
  return null
}

/** `problem: cause sentences. Fix sentences.` from a compaction summary's errors list. */
function summaryParts(text: string): GotchaParts | null {
  const flat = text.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim()
  const firstStop = sentenceEnd(flat)
  const head = flat.slice(0, firstStop)
  const colon = head.lastIndexOf(': ')
  if (colon < 8) return null
  // "gqc.4: …": a task id is no part of the problem.
  let symptom = flat.slice(0, colon).replace(/^[\w-]+\.\d+:\s+/, '')
  const rest = flat.slice(colon + 2).trim()
  const sentences = rest.split(/(?<=[.!?]["')]?)\s+(?=[A-Z`"'(])/)
  const fixAt = sentences.findIndex(
    (sentence, index) =>
      FIX_OPENER.test(sentence) || (index > 0 ? FIX_STATEMENT.test(sentence) : false),
  )
  const first = sentences[0] ?? ''
  let cause: string
  let fix: string
  if (fixAt > 0) {
    cause = sentences.slice(0, fixAt).join(' ')
    fix = sentences.slice(fixAt).join(' ')
  } else if (FIX_STATEMENT.test(first) || FIX_OPENER.test(first)) {
    cause = ''
    fix = rest
  } else return null
  fix = fix.replace(FIX_OPENER, '')
  if (symptom.length < 8 || fix.length < 8) return null
  const fixKind = /^(?:used |ran |run )?`[^`]+`(?:\s*\(.*\))?\.?$/i.test(fix) ? 'command' : 'change'
  // "Did X first: Some error "…". Fixed by Y": the error is the symptom, what was done its cause.
  if (cause !== '' && ERRORISH.test(cause) && !ERRORISH.test(symptom))
    [symptom, cause] = [cause.replace(/\.$/, ''), symptom]
  return {
    symptom,
    command: '',
    fromHook: false,
    cause: cause.replace(/\.$/, ''),
    fix: capitalised(fix.replace(/\.$/, '')),
    fixKind,
  }
}

/** Where the first sentence ends: after `.`, `!` or `?` and a space, outside quotes and code. */
function sentenceEnd(text: string): number {
  let quoted = false
  let coded = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]
    if (char === '`') coded = !coded
    else if (char === '"' && !coded) quoted = !quoted
    else if (!quoted && !coded && /[.!?]/.test(char ?? '') && text[index + 1] === ' ')
      return index + 1
  }
  return text.length
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
