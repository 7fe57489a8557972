/** Feature consolidation (REM-sleep step 5): completed tasks fold into their feature PRDs. */
import { fieldText, parseFrontmatter, updateFrontmatter } from '../../../engine/core/frontmatter.ts'
import { inlineText } from '../../../engine/core/markdown-text.ts'
import {
  ensureSection,
  parseMarkdown,
  prependListItems,
  renderMarkdown,
} from '../markdown/markdown-document.ts'

/** A text file of the brain by its path relative to the context root. */
export interface BrainText {
  path: string
  text: string
}

/**
 * For every completed task with a `feature` whose PRD exists and that was not folded in yet: a
 * dated entry at the top of the PRD's `## Changelog`, and `consolidated: <date>` on the task so a
 * second run leaves both alone. Tasks without a feature stay where they are.
 */
export function consolidateCompletedTasks(input: {
  tasks: readonly BrainText[]
  features: readonly BrainText[]
  date: string
}): { files: BrainText[]; tasksFolded: string[] } {
  const features = new Map(
    input.features.map((feature) => [feature.path, parseMarkdown(feature.text)]),
  )
  const touched = new Set<string>()
  const files: BrainText[] = []
  const tasksFolded: string[] = []
  for (const task of input.tasks) {
    const fields = parseFrontmatter(task.text).data
    if (fieldText(fields, 'status') !== 'completed') continue
    if (fieldText(fields, 'consolidated')) continue
    const feature = fieldText(fields, 'feature')
    const featurePath = feature ? `core/features/${feature}.md` : null
    const prd = featurePath ? features.get(featurePath) : undefined
    if (!featurePath || !prd) continue
    const slug = task.path.replace(/^state\//, '').replace(/\.md$/, '')
    const name = fieldText(fields, 'name') ?? slug
    const outcome = latestLogLine(parseMarkdown(task.text).sections) ?? 'Completed.'
    // Name and log line are user text: one line each, so they cannot start headings of the PRD
    // or open a comment that swallows the provenance.
    prependListItems(ensureSection(prd, 'Changelog'), [
      `### ${input.date} - ${inlineText(name)}`,
      `- ${inlineText(outcome)} <!-- sources: task:${slug} -->`,
      '',
    ])
    touched.add(featurePath)
    files.push({
      path: task.path,
      text: updateFrontmatter(task.text, { consolidated: input.date }),
    })
    tasksFolded.push(slug)
  }
  for (const path of touched) {
    const prd = features.get(path)
    if (prd)
      files.push({ path, text: updateFrontmatter(renderMarkdown(prd), { updated: input.date }) })
  }
  return { files, tasksFolded }
}

function latestLogLine(sections: readonly { heading: string; lines: string[] }[]): string | null {
  const log = sections.find((section) => section.heading.toLowerCase() === 'log')
  const line = log?.lines.find((entry) => /^\s*[-*] /.test(entry))
  return line
    ? line
        .replace(/^\s*[-*]\s+/, '')
        .replace(/^\*\*[^*]+\*\*:?\s*/, '')
        .trim()
    : null
}
