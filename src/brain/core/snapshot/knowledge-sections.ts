/**
 * The snapshot's knowledge tiers (seed 000 phases 2 and 4, docs/design/origins.md): an index of
 * every note with staleness, the first paragraph of warm notes, and pinned notes in full.
 */
import { daysSince } from '../../../engine/core/dates.ts'
import { clip, firstParagraph, inlineText } from '../../../engine/core/markdown-text.ts'
import { isStale, isWarm, type KnowledgeDocument } from '../knowledge.ts'
import type { KnowledgeAccess } from '../sleep-state.ts'
import { textComparator } from './compare-text.ts'
import { block, linesWithin, moreLine, nestHeadings, plural } from './section-text.ts'
import type { SectionDraft } from './snapshot-types.ts'

/** Index entries kept by the summary form. */
const SUMMARY_INDEX_ENTRIES = 10
/** Warm notes kept by the summary form. */
const SUMMARY_WARM = 3
/** Longest first paragraph a warm note contributes (seed 000). */
const WARM_PARAGRAPH_CHARS = 300

/** What the knowledge sections need besides the notes. */
export interface KnowledgeContext {
  access: Record<string, KnowledgeAccess>
  /** Lowercase tags of the active tasks, for the warm tier's tag overlap. */
  activeTaskTags: ReadonlySet<string>
  now: Date
  /** Full forms past this many characters are not rendered further (see `linesWithin`). */
  limit?: number
}

const pathOf = (document: KnowledgeDocument) => `_agent_context/knowledge/${document.slug}.md`

const limitOf = (context: KnowledgeContext) => context.limit ?? Number.POSITIVE_INFINITY

/** Notes by slug. */
function bySlug(documents: KnowledgeDocument[]) {
  const compare = textComparator(documents.map((document) => document.slug))
  return (a: KnowledgeDocument, b: KnowledgeDocument) => compare(a.slug, b.slug)
}

/** Most recently read first, then never-read notes by slug. */
function byRecentAccess(access: Record<string, KnowledgeAccess>, documents: KnowledgeDocument[]) {
  const readAt = (document: KnowledgeDocument) => access[document.slug]?.last_accessed ?? ''
  const compareTimes = textComparator(documents.map(readAt))
  const slugOrder = bySlug(documents)
  return (a: KnowledgeDocument, b: KnowledgeDocument) =>
    compareTimes(readAt(b), readAt(a)) || slugOrder(a, b)
}

/** Every note, one line each, with a staleness note after 30 days unread. */
export function knowledgeIndexSection(
  documents: KnowledgeDocument[],
  context: KnowledgeContext,
): SectionDraft {
  const draft = { name: 'Knowledge Index', importance: 3, head: false }
  if (documents.length === 0) return { ...draft, full: '', summary: '', line: '' }
  // Each note's staleness and line are worked out once: the summary and full forms share them.
  const notes = new Map<KnowledgeDocument, { stale: boolean; line?: string }>()
  const noteOf = (document: KnowledgeDocument) => {
    let note = notes.get(document)
    if (note === undefined) {
      note = { stale: isStale(document, context.access[document.slug], context.now) }
      notes.set(document, note)
    }
    return note
  }
  const staleness = (document: KnowledgeDocument) => {
    const record = context.access[document.slug]
    if (!noteOf(document).stale) return ''
    if (!record) return ' (stale: never read)'
    return ` (stale: last read ${daysSince(record.last_accessed, context.now)} days ago)`
  }
  const render = (document: KnowledgeDocument) => {
    const note = noteOf(document)
    if (note.line !== undefined) return note.line
    const about = document.summary ? `: ${clip(document.summary, 160)}` : ''
    const tags = document.tags.length > 0 ? ` [${document.tags.join(', ')}]` : ''
    const pinned = document.pinned ? ' (pinned)' : ''
    note.line = `- **${document.slug}** (${pathOf(document)})${about}${tags}${pinned}${staleness(document)}`
    return note.line
  }
  const sorted = [...documents].sort(bySlug(documents))
  const recent = [...documents]
    .sort(byRecentAccess(context.access, documents))
    .slice(0, SUMMARY_INDEX_ENTRIES)
  const hidden = documents.length - recent.length
  const stale = documents.filter((document) => noteOf(document).stale).length
  const staleNote = stale > 0 ? ` (${stale} stale)` : ''
  const tip = '- After reading a note, run `somnus knowledge touch <slug>` so it stays fresh.'
  return {
    ...draft,
    full: block('Knowledge Index', [...linesWithin(sorted, render, limitOf(context)), tip]),
    summary: block('Knowledge Index', [
      ...recent.map(render),
      ...(hidden > 0 ? [moreLine(hidden, `notes${staleNote}`, 'run `somnus knowledge list`')] : []),
      tip,
    ]),
    line: `- Knowledge Index: ${plural(documents.length, 'note')}${staleNote} in _agent_context/knowledge/: run \`somnus knowledge list\``,
  }
}

/** Notes read within 7 days or tagged like an active task: their first paragraph. */
export function warmKnowledgeSection(
  documents: KnowledgeDocument[],
  context: KnowledgeContext,
): SectionDraft {
  const draft = { name: 'Warm Knowledge', importance: 2, head: false }
  const warm = documents
    .filter((document) => !document.pinned)
    .filter((document) =>
      isWarm(document, context.access[document.slug], context.activeTaskTags, context.now),
    )
    .sort(byRecentAccess(context.access, documents))
  if (warm.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const render = (document: KnowledgeDocument) => {
    const paragraph = firstParagraph(document.body, WARM_PARAGRAPH_CHARS) ?? document.summary ?? ''
    return `- **${document.slug}**: ${paragraph}`
  }
  const shown = warm.slice(0, SUMMARY_WARM)
  return {
    ...draft,
    full: block('Warm Knowledge', linesWithin(warm, render, limitOf(context))),
    summary: block('Warm Knowledge', [
      ...shown.map(render),
      ...(warm.length > shown.length
        ? [
            moreLine(
              warm.length - shown.length,
              'warm notes',
              'read them in _agent_context/knowledge/',
            ),
          ]
        : []),
    ]),
    line: `- Warm Knowledge: ${clip(warm.map((document) => document.slug).join(', '), 160)} (read in _agent_context/knowledge/)`,
  }
}

/** Pinned notes in full; summarised to their first paragraph; or just where they are. */
export function pinnedKnowledgeSection(
  documents: KnowledgeDocument[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Pinned Knowledge', importance: 1, head: false }
  const pinned = documents.filter((document) => document.pinned).sort(bySlug(documents))
  if (pinned.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const full = linesWithin(
    pinned,
    (document, index) => [
      ...(index > 0 ? [''] : []),
      `### ${inlineText(document.title)} (${pathOf(document)})`,
      '',
      ...nestHeadings(nestHeadings(document.body.trim().split('\n'))),
    ],
    limit,
  )
  const summary = pinned.map(
    (document) =>
      `- **${document.slug}**: ${firstParagraph(document.body, WARM_PARAGRAPH_CHARS) ?? inlineText(document.summary ?? document.title)}`,
  )
  return {
    ...draft,
    full: block('Pinned Knowledge', full),
    summary: block('Pinned Knowledge', summary),
    line: `- Pinned Knowledge: read ${clip(pinned.map(pathOf).join(', '), 200)}`,
  }
}
