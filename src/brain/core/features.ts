/**
 * Feature PRDs, `core/features/<slug>.md` (seed 000 is one, docs/design/origins.md): frontmatter,
 * `## Why`, stories.
 */
import { fieldText, parseFrontmatter } from '../../engine/core/frontmatter.ts'
import { clip, firstContentLine, sectionBody } from '../../engine/core/markdown-text.ts'

/** What `features list` and the snapshot show of a feature. */
export interface FeatureSummary {
  slug: string
  id: string | null
  title: string
  status: string
  updated: string | null
  /** First line of `## Why`, at most 120 characters. */
  why: string | null
}

/** Reads a feature file: title from frontmatter `title`/`name`, else the first `# ` heading, else the slug. */
export function parseFeature(slug: string, text: string): FeatureSummary {
  const { data, body } = parseFrontmatter(text)
  const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim()
  const why = sectionBody(body, 'Why')
  const whyLine = why === null ? null : firstContentLine(why)
  return {
    slug,
    id: fieldText(data, 'id'),
    title: fieldText(data, 'title') ?? fieldText(data, 'name') ?? heading ?? slug,
    status: fieldText(data, 'status') ?? 'unknown',
    updated: fieldText(data, 'updated') ?? fieldText(data, 'updated_at'),
    why: whyLine === null ? null : clip(whyLine, 120),
  }
}
