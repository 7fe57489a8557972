/**
 * Knowledge files, `knowledge/<slug>.md`: long-term notes the agent reads on demand. Access is
 * tracked in the ledger (`knowledge_access`) so unused notes show as stale (memory decay) and
 * recently used ones load partly at session start (the warm tier), as seed 000 describes
 * (docs/design/origins.md).
 */

import { daysSince } from '../../engine/core/dates.ts'
import {
  fieldList,
  fieldText,
  parseFrontmatter,
  renderFrontmatter,
} from '../../engine/core/frontmatter.ts'
import { firstParagraph } from '../../engine/core/markdown-text.ts'
import type { KnowledgeAccess } from './sleep-state.ts'
import { compareText } from './snapshot/compare-text.ts'

/** A note unread for more than this many days is stale (seed 000, phase 2). */
export const STALE_AFTER_DAYS = 30
/** A note read within this many days is warm: its first paragraph loads at session start. */
export const WARM_WITHIN_DAYS = 7

/** A parsed knowledge file. */
export interface KnowledgeDocument {
  slug: string
  title: string
  /** Frontmatter `summary` (or agentcontext's `description`), else the first paragraph. */
  summary: string | null
  tags: string[]
  /** Pinned notes load in full at every session start. */
  pinned: boolean
  created: string | null
  /** The text after the frontmatter. */
  body: string
}

/** What `knowledge list` shows of one note. */
export interface KnowledgeListing {
  slug: string
  title: string
  summary: string | null
  tags: string[]
  pinned: boolean
  created: string | null
  last_accessed: string | null
  count: number
  stale: boolean
}

/** The text of a new knowledge file. */
export function renderNewKnowledge(input: {
  title: string
  summary: string | null
  tags: string[]
  pinned: boolean
  body: string
  today: string
}): string {
  const body =
    input.body.trim() || '(write the knowledge here: what is true, why, and how to use it)'
  return renderFrontmatter(
    {
      title: input.title,
      summary: input.summary ?? undefined,
      tags: input.tags,
      pinned: input.pinned,
      created: input.today,
      updated: input.today,
    },
    `\n${body}\n`,
  )
}

/** Reads a knowledge file; tolerates agentcontext's `name`, `description` and `date` fields. */
export function parseKnowledge(slug: string, text: string): KnowledgeDocument {
  const { data, body } = parseFrontmatter(text)
  return {
    slug,
    title: fieldText(data, 'title') ?? fieldText(data, 'name') ?? slug,
    summary:
      fieldText(data, 'summary') ?? fieldText(data, 'description') ?? firstParagraph(body, 160),
    tags: fieldList(data, 'tags'),
    pinned: data.pinned === true || data.pinned === 'true',
    created: fieldText(data, 'created') ?? fieldText(data, 'date') ?? fieldText(data, 'updated'),
    body,
  }
}

/**
 * Stale: last read more than 30 days ago, or never read and created more than 30 days ago.
 * A note with no readable date and no access record is not called stale: we cannot tell.
 */
export function isStale(
  document: Pick<KnowledgeDocument, 'created'>,
  access: KnowledgeAccess | undefined,
  now: Date,
): boolean {
  const reference = access?.last_accessed ?? document.created
  if (!reference) return false
  const age = daysSince(reference, now)
  return age !== null && age > STALE_AFTER_DAYS
}

/** Warm: read within the last 7 days, or sharing a tag with an active task. */
export function isWarm(
  document: Pick<KnowledgeDocument, 'tags'>,
  access: KnowledgeAccess | undefined,
  activeTaskTags: ReadonlySet<string>,
  now: Date,
): boolean {
  const age = access ? daysSince(access.last_accessed, now) : null
  if (age !== null && age <= WARM_WITHIN_DAYS) return true
  return document.tags.some((tag) => activeTaskTags.has(tag.toLowerCase()))
}

/** The `knowledge list` rows, sorted by slug. */
export function listKnowledge(
  documents: KnowledgeDocument[],
  access: Record<string, KnowledgeAccess>,
  now: Date,
): KnowledgeListing[] {
  return documents
    .map((document) => {
      const record = access[document.slug]
      return {
        slug: document.slug,
        title: document.title,
        summary: document.summary,
        tags: document.tags,
        pinned: document.pinned,
        created: document.created,
        last_accessed: record?.last_accessed ?? null,
        count: record?.count ?? 0,
        stale: isStale(document, record, now),
      }
    })
    .sort((a, b) => compareText(a.slug, b.slug))
}
