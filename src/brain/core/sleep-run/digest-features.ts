/**
 * Finished work from session digests, filed under the feature PRD it belongs to (REM-sleep step
 * 5 for digests; completed task files have their own path in consolidate-features.ts). Only PRDs
 * that exist are written: a session never gets a PRD of its own. An item belongs to a PRD when it
 * names the PRD (its slug or id when specific, a task it lists in `related_tasks`, a task whose
 * file says `feature: <slug>`, or a sub-task of one), or, for a changed file, when the PRD names
 * that file. The rest of the session's work stays in the digest and the changelog.
 */
import type { DigestItem, SessionDigest } from '../../../engine/core/digest/session-digest.ts'
import { indexOfRepeat } from '../../../engine/core/extractive/similar-lines.ts'
import {
  fieldList,
  fieldText,
  parseFrontmatter,
  updateFrontmatter,
} from '../../../engine/core/frontmatter.ts'
import { inlineText } from '../../../engine/core/markdown-text.ts'
import { redactSecrets } from '../../../engine/core/redact-secrets.ts'
import {
  ensureSection,
  parseMarkdown,
  prependListItems,
  renderMarkdown,
} from '../markdown/markdown-document.ts'
import { sentencesOf } from './changelog-entries.ts'
import type { BrainText } from './consolidate-features.ts'
import { entryText, sessionSource } from './digest-entries.ts'

/** A PRD line keeps whole sentences up to about this length (the digest keeps the rest). */
const MAX_ITEM_CHARS = 240
/** Lines one session adds to one PRD: its most telling finished items, not a replay. */
const MAX_ITEMS_PER_SESSION = 6
/** Digest lines that restate the session as a whole, not one piece of finished work. */
const WHOLE_SESSION_ITEM = /^(?:(?:From the )?wrap-up|Last test run|Pushed)\b/i

/** What one PRD is known by. */
interface FeatureKeys {
  /** Task and feature ids naming it (`spotter-gqc`; a sub-task `spotter-gqc.6` belongs too). */
  ids: string[]
  /** Paths of files it names (`lib/spotter/services/transcript_renderer.ex`). */
  files: string[]
}

/** The PRD files the digests' finished work changes, and how many PRDs got entries. */
export function digestFeatureEntries(input: {
  digests: readonly SessionDigest[]
  features: readonly BrainText[]
  tasks: readonly BrainText[]
  date: string
  /** The model cited on every line, as the core files cite it. */
  model: string
}): { files: BrainText[]; featuresUpdated: number } {
  const keys = input.features.map((feature) => featureKeys(feature, input.tasks))
  const files: BrainText[] = []
  // Oldest session first, each prepended: the newest ends on top (the seeds' LIFO rule).
  const oldestFirst = [...input.digests].sort((left, right) =>
    (left.endedAt ?? '').localeCompare(right.endedAt ?? ''),
  )
  for (const [index, feature] of input.features.entries()) {
    const key = keys[index] as FeatureKeys
    if (key.ids.length === 0 && key.files.length === 0) continue
    const prd = parseMarkdown(feature.text)
    const changelog = ensureSection(prd, 'Changelog')
    const added: string[] = []
    for (const digest of oldestFirst) {
      const source = sessionSource(digest.sessionId)
      const lines: string[] = []
      for (const item of belongingItems(digest, key)) {
        const text = item.text
        if (text === '') continue
        if (indexOfRepeat(text, [...changelog.lines, ...lines]) >= 0) continue
        const sources = [source, ...item.sources].join(', ')
        lines.push(
          `- ${inlineText(redactSecrets(text))} <!-- sources: ${sources}; ${input.model} ${input.date} -->`,
        )
        if (lines.length === MAX_ITEMS_PER_SESSION) break
      }
      if (lines.length === 0) continue
      const day = digest.date ?? input.date
      // A heading right under `## Changelog` reads better a blank line down.
      if (!changelog.lines.some((line) => line.trim() !== '')) changelog.lines = ['']
      // prependListItems keeps a blank line between this entry and a heading below it.
      prependListItems(changelog, [
        `### ${day} - Session ${digest.sessionId.slice(0, 8)}`,
        ...lines,
      ])
      added.push(...lines)
    }
    if (added.length === 0) continue
    // One blank line before the next section, however many the entries brought.
    while (
      changelog.lines.length > 1 &&
      changelog.lines.at(-1) === '' &&
      changelog.lines.at(-2) === ''
    )
      changelog.lines.pop()
    files.push({
      path: feature.path,
      text: updateFrontmatter(renderMarkdown(prd), { updated: input.date }),
    })
  }
  return { files, featuresUpdated: files.length }
}

/** The PRD's names: slug and id when specific, `related_tasks`, and the tasks that point at it. */
function featureKeys(feature: BrainText, tasks: readonly BrainText[]): FeatureKeys {
  const slug = feature.path.replace(/^.*\//, '').replace(/\.md$/, '')
  const { data, body } = parseFrontmatter(feature.text)
  const pointing = tasks.flatMap((task) =>
    fieldText(parseFrontmatter(task.text).data, 'feature') === slug
      ? [task.path.replace(/^state\//, '').replace(/\.md$/, '')]
      : [],
  )
  const ids = [slug, fieldText(data, 'id') ?? '', ...fieldList(data, 'related_tasks'), ...pointing]
    .map((id) => id.toLowerCase())
    .filter(isSpecific)
  // The PRD's own Changelog cites files it was told about; only the rest of it says what it covers.
  const covered = body.replace(/^## Changelog[\s\S]*?(?=^## |(?![\s\S]))/im, '')
  return { ids: [...new Set(ids)], files: [...new Set(pathsIn(covered))] }
}

/**
 * An id specific enough to name one piece of work in free text: it holds a digit, dot, hyphen
 * or underscore (`spotter-gqc`, `feat_9qLM`, `auth-v2`); a plain word like `login` is not.
 */
function isSpecific(id: string): boolean {
  return id.length >= 4 && /\p{L}/u.test(id) && /[0-9._-]/.test(id)
}

/** The digest's finished items that belong to the PRD (see the header), in digest order. */
function belongingItems(digest: SessionDigest, key: FeatureKeys): DigestItem[] {
  const named = [...digest.commits, ...digest.done]
    .filter((item) => !WHOLE_SESSION_ITEM.test(item.text) && namesAny(item.text, key.ids))
    .map((item) => ({ ...item, text: itemText(item.text) }))
  const changed = digest.changes.flatMap((area) =>
    area.items.flatMap((item) => {
      const paths = changedPaths(area.area, item.text)
      const path = paths.find((candidate) => key.files.some((file) => samePath(candidate, file)))
      return path === undefined ? [] : [{ ...item, text: changeText(path, item.text) }]
    }),
  )
  return [...named, ...changed]
}

/** True when `text` names one of `ids`, or a sub-task of one (`spotter-gqc.6` for `spotter-gqc`). */
function namesAny(text: string, ids: readonly string[]): boolean {
  if (ids.length === 0) return false
  const tokens = (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._/-]*/gu) ?? []).map((token) =>
    token.replace(/[._/-]+$/, ''),
  )
  return tokens.some((token) => ids.some((id) => token === id || token.startsWith(`${id}.`)))
}

/** The project paths a change item is about: its code-quoted file names, under the area's folder. */
function changedPaths(area: string, text: string): string[] {
  const folder = area.endsWith('/') && area !== '../../../core/sleep-run/' ? area : ''
  return [...text.matchAll(/`([^`\s]+\.[A-Za-z0-9]+)`/g)].map((match) =>
    `${folder}${match[1] ?? ''}`.replace(/^\.\//, ''),
  )
}

/** File paths a PRD names: words with a slash or a file extension (`src/auth.ts`, `app.js`). */
function pathsIn(text: string): string[] {
  return (text.match(/[A-Za-z0-9_.~-]*(?:\/[A-Za-z0-9_.-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}\b/g) ?? [])
    .map((path) => path.replace(/^\.\//, ''))
    .filter((path) => /[/_-]/.test(path) && !/^\d/.test(path) && !/^https?:/.test(path))
}

/** One path names the other: equal, or one is the other's tail after a folder boundary. */
function samePath(left: string, right: string): boolean {
  return left === right || left.endsWith(`/${right}`) || right.endsWith(`/${left}`)
}

/**
 * A finished item as one PRD line: its leading whole sentences within MAX_ITEM_CHARS (a sentence
 * the digest cut short with `…` is dropped); when none fits, the item's lead-in (`Closed \`x\``).
 */
function itemText(whole: string): string {
  const text = entryText(whole)
  const cut = text.endsWith('…')
  const sentences = sentencesOf(cut ? text.slice(0, -1) : text)
  if (cut) sentences.pop()
  const kept = leading(sentences, ' ')
  if (kept !== '') return kept
  const leadIn = /^([^:]{3,80}):\s/.exec(text)?.[1]
  return leadIn ? `${leadIn}.` : ''
}

/**
 * A change item (`\`file.ex\` (new): what changed; what else`) as one PRD line: the file by its
 * project path, then the whole clauses that fit (a clause the digest cut short is dropped).
 */
function changeText(path: string, whole: string): string {
  const text = entryText(whole)
  const parts = /^`[^`]+`(\s*\(new\))?:\s*(.*)$/.exec(text)
  const file = `\`${path}\`${parts?.[1] ?? ''}`
  const cut = text.endsWith('…')
  const clauses = (parts?.[2] ?? '').replace(/…$/, '').split(/;\s+/).filter(Boolean)
  if (cut) clauses.pop()
  const kept = leading(clauses, '; ')
  return kept === '' ? file : `${file}: ${kept}`
}

/** The leading `parts` joined by `separator` within MAX_ITEM_CHARS ('' when the first is longer). */
function leading(parts: readonly string[], separator: string): string {
  const kept: string[] = []
  for (const part of parts) {
    if ([...kept, part].join(separator).length > MAX_ITEM_CHARS) break
    kept.push(part)
  }
  return kept.join(separator)
}
