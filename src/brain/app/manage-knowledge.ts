/** `somnus knowledge`: create a note, record a read (`touch`), list notes with their staleness. */
import { utcDay } from '../../engine/core/dates.ts'
import { SomnusError } from '../../engine/core/errors.ts'
import {
  type KnowledgeListing,
  listKnowledge as listingsOf,
  renderNewKnowledge,
} from '../core/knowledge.ts'
import { touchKnowledge } from '../core/ledger.ts'
import type { KnowledgeAccess } from '../core/sleep-state.ts'
import { requireSlug } from '../core/slug.ts'
import type { Brain } from './brain.ts'
import { knowledgeDocument, readKnowledge } from './brain-documents.ts'

/** What `knowledge create` needs. */
export interface CreateKnowledgeInput {
  slug: string
  title?: string | null
  summary?: string | null
  tags?: string[]
  pinned?: boolean
  body?: string
}

/** Creates `knowledge/<slug>.md`; a USAGE error when it exists. Returns its path. */
export async function createKnowledge(brain: Brain, input: CreateKnowledgeInput): Promise<string> {
  const slug = requireSlug(input.slug, 'knowledge')
  const note = knowledgeDocument(slug)
  if ((await brain.files.read(note)) !== null) {
    throw new SomnusError(
      'USAGE',
      `Knowledge note "${slug}" already exists (${brain.files.where(note)}): edit that file, or pick another slug.`,
    )
  }
  await brain.files.write(
    note,
    renderNewKnowledge({
      title: input.title?.trim() || slug,
      summary: input.summary?.trim() || null,
      tags: (input.tags ?? []).map((tag) => tag.trim()).filter(Boolean),
      pinned: input.pinned ?? false,
      body: input.body ?? '',
      today: utcDay(brain.clock.now()),
    }),
  )
  return brain.files.where(note)
}

/** Records a read of note `slug` in the ledger; NOT_FOUND when the note does not exist. */
export async function touchKnowledgeNote(brain: Brain, slug: string): Promise<KnowledgeAccess> {
  requireSlug(slug, 'knowledge')
  const note = knowledgeDocument(slug)
  if ((await brain.files.read(note)) === null) {
    throw new SomnusError(
      'NOT_FOUND',
      `No knowledge note "${slug}" (${brain.files.where(note)}): see \`somnus knowledge list\`.`,
    )
  }
  const now = brain.clock.now()
  return brain.state.update((state) => {
    const next = touchKnowledge(state, slug, now)
    const record = next.knowledge_access[slug] ?? { last_accessed: utcDay(now), count: 1 }
    return { state: next, result: record }
  })
}

/** Every note with its last read, read count and staleness, by slug. */
export async function listKnowledge(brain: Brain): Promise<KnowledgeListing[]> {
  const [documents, state] = await Promise.all([readKnowledge(brain), brain.state.read()])
  return listingsOf(documents, state.knowledge_access, brain.clock.now())
}
