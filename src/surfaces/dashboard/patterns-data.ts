/**
 * The project's patterns for the dashboard, each with the skills and CLAUDE.md lines that cite its
 * id (what crystallization made of it). Read-only.
 */
import type { SomnusPatterns } from '../../patterns/create-somnus-patterns.ts'

const SKILLS_FOLDER = '.claude/skills'

/** Patterns newest first, the skills that cite each, and the CLAUDE.md lines that do. */
export async function patternsData(patterns: SomnusPatterns) {
  const entries = await patterns.list({ all: true })
  const { project } = patterns.workspace
  const skills = await Promise.all(
    (await project.folders(SKILLS_FOLDER)).map(async (name) => ({
      name,
      path: `${SKILLS_FOLDER}/${name}/SKILL.md`,
      text: (await project.read(`${SKILLS_FOLDER}/${name}/SKILL.md`)) ?? '',
    })),
  )
  const claudeLines = ((await project.read('CLAUDE.md')) ?? '')
    .split('\n')
    .map((text, index) => ({ line: index + 1, text }))
  return {
    patterns: entries.map((entry) => ({
      id: entry.id,
      domain: entry.domain,
      date: entry.date,
      category: entry.category,
      status: entry.status,
      title: entry.title,
      observation: entry.observation,
      sources: entry.sources,
      skills: skills.filter((skill) => skill.text.includes(entry.id)).map((skill) => skill.name),
      claude_lines: claudeLines.filter((line) => line.text.includes(entry.id)),
    })),
    skills: skills.map((skill) => ({
      name: skill.name,
      path: skill.path,
      lines: skill.text.split('\n').length,
    })),
  }
}
