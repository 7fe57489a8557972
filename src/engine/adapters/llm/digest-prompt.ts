/**
 * `digestSession` for prompted models: the extractive digest's items go to the model as numbered
 * units, the model writes the digest in the same structure citing those units, and each item it
 * writes cites the transcript records of the units it drew on. So a model-written digest carries
 * exactly the provenance of the material it was given, and can cite nothing else.
 */
import * as z from 'zod'
import type { DigestItem, SessionDigest } from '../../core/digest/session-digest.ts'
import type { Unit } from '../../ports/language-model.ts'
import { REPLY_RULES } from './prompts.ts'

/** System prompt for `digestSession`. */
export const DIGEST_SYSTEM = `You write the session digest of one coding-agent session for the
developer's next session: what it set out to do and what came of it, files changed by area, commit
subjects, decisions with their reasons, gotchas (the real error line, then what fixed it), the state
at the end (done: finished work with final figures; open: what is still open at the end, never
something that was finished later), and the user's own corrections and preferences. Later states
supersede earlier ones: a final test count replaces an earlier one, "closed" replaces "open". Merge
units that say the same thing into one item citing all of them. Keep names, ids, paths, numbers and
commands exactly; write whole sentences, tersely; drop narration and chatter. Never invent anything.
${REPLY_RULES}
Shape: {"summary": {"text": "...", "sources": ["<unit id>"]} or null,
"changes": [{"area": "<folder or theme>", "items": [{"text": "...", "sources": ["<unit id>"]}]}],
"commits": [item], "decisions": [item], "gotchas": [item], "done": [item], "open": [item],
"preferences": [item]} where item is {"text": "...", "sources": ["<unit id>", ...]}.`

const ItemSchema = z.object({ text: z.string().min(1), sources: z.array(z.string()) })
const ListSchema = z.array(ItemSchema).default([])

/** The reply `DIGEST_SYSTEM` asks for; missing lists are empty. */
export const DigestReplySchema = z.object({
  summary: ItemSchema.nullable().default(null),
  changes: z.array(z.object({ area: z.string().min(1), items: z.array(ItemSchema) })).default([]),
  commits: ListSchema,
  decisions: ListSchema,
  gotchas: ListSchema,
  done: ListSchema,
  open: ListSchema,
  preferences: ListSchema,
})

/** A checked reply to `DIGEST_SYSTEM`. */
export type DigestReply = z.infer<typeof DigestReplySchema>

const LISTS = ['commits', 'decisions', 'gotchas', 'done', 'open', 'preferences'] as const

/** The draft's items as units (`d1`, `d2`, …), and the record ids behind each unit. */
export function digestUnits(draft: SessionDigest): {
  units: Unit[]
  sourcesOf: Map<string, string[]>
} {
  const units: Unit[] = []
  const sourcesOf = new Map<string, string[]>()
  const add = (label: string, item: DigestItem) => {
    const id = `d${units.length + 1}`
    units.push({ id, text: `${label}: ${item.text}` })
    sourcesOf.set(id, item.sources)
  }
  if (draft.summary) add('summary', draft.summary)
  for (const area of draft.changes)
    for (const item of area.items) add(`change in ${area.area}`, item)
  for (const list of LISTS) for (const item of draft[list]) add(list.replace(/s$/, ''), item)
  return { units, sourcesOf }
}

/** Every unit id the reply cites (checked against the units by the caller). */
export function citedUnits(reply: DigestReply): string[] {
  return [
    ...(reply.summary?.sources ?? []),
    ...reply.changes.flatMap((area) => area.items.flatMap((item) => item.sources)),
    ...LISTS.flatMap((list) => reply[list].flatMap((item) => item.sources)),
  ]
}

/**
 * The digest the model wrote: the draft's session facts (id, dates, project, files) with the
 * model's items, each citing the records of the units it cited. An item citing nothing is dropped:
 * a digest line without provenance is not kept.
 */
export function digestFromReply(
  draft: SessionDigest,
  reply: DigestReply,
  sourcesOf: ReadonlyMap<string, string[]>,
): SessionDigest {
  const item = (written: { text: string; sources: string[] }): DigestItem | null => {
    const sources = [...new Set(written.sources.flatMap((id) => sourcesOf.get(id) ?? []))]
    const text = written.text.replace(/\s+/g, ' ').trim()
    return sources.length > 0 && text !== '' ? { text, sources } : null
  }
  const items = (list: readonly { text: string; sources: string[] }[]) =>
    list.flatMap((written) => item(written) ?? [])
  return {
    ...draft,
    summary: reply.summary ? item(reply.summary) : null,
    changes: reply.changes
      .map((area) => ({ area: area.area.trim(), items: items(area.items) }))
      .filter((area) => area.items.length > 0),
    commits: items(reply.commits),
    decisions: items(reply.decisions),
    gotchas: items(reply.gotchas),
    done: items(reply.done),
    open: items(reply.open),
    preferences: items(reply.preferences),
  }
}
