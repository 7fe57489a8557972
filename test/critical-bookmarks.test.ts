/**
 * Issue 13 item 3, through real processes: five ★★★ bookmarks that word overlap called
 * "near-duplicates" of each other or of memory all reach the brain after `somnus sleep run`, and
 * the one that corrects a memory line replaces it (the old line goes to the archive, cited).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

const BOOKMARKS = [
  'Do not use Jest for the unit tests',
  'Use Node 20 for the backend',
  'Use Node 18 for the frontend',
  'Rotate the API keys every 30 days',
  'Rotate the API keys every 90 days',
]

function somnus(root: string, args: string[]): string {
  return execFileSync(process.execPath, [SOMNUS_BIN, ...args], {
    env: { ...process.env, SOMNUS_CONTEXT_DIR: root, SOMNUS_QUIET_SKIPS: '1' },
    encoding: 'utf8',
  })
}

const currentLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.replace(/ <!--.*$/, ''))

describe('critical bookmarks through a real sleep run', () => {
  let root: string
  let memory: string
  let archive: string

  beforeAll(async () => {
    await ensureBuilt()
    const project = mkdtempSync(join(tmpdir(), 'somnus-critical-'))
    execFileSync(process.execPath, [SOMNUS_BIN, 'init', project, '--plugin'], { stdio: 'pipe' })
    root = join(project, '_agent_context')
    const memoryPath = join(root, 'core/2.memory.md')
    writeFileSync(
      memoryPath,
      readFileSync(memoryPath, 'utf8')
        .replace(
          '- (Key technical choices and why they were made)',
          '- We use Jest for the unit tests <!-- sources: s_jest -->',
        )
        .replace(
          /(## Active Memory\n\n<!--[^\n]*-->\n)/,
          '$1\n- Use Node 18 for the backend <!-- sources: s_node -->\n',
        ),
    )
    for (const message of BOOKMARKS) somnus(root, ['bookmark', 'add', '-s', '3', message])
    somnus(root, ['sleep', 'run'])
    memory = readFileSync(memoryPath, 'utf8')
    const archivePath = join(root, 'knowledge/2.memory-archive.md')
    archive = existsSync(archivePath) ? readFileSync(archivePath, 'utf8') : ''
  }, 120_000)

  it('puts all five facts in memory', () => {
    const lines = currentLines(memory)
    for (const message of BOOKMARKS) expect(lines, message).toContain(`- ${message}`)
  })

  it('replaces the lines they correct, archiving them and citing their sources', () => {
    const lines = currentLines(memory)
    expect(lines).not.toContain('- We use Jest for the unit tests')
    expect(lines).not.toContain('- Use Node 18 for the backend')
    expect(archive).toContain('- We use Jest for the unit tests <!-- sources: s_jest -->')
    expect(archive).toContain('- Use Node 18 for the backend <!-- sources: s_node -->')
    expect(memory).toMatch(/- Do not use Jest for the unit tests <!-- sources: bm_\w+, s_jest;/)
    expect(memory).toMatch(/- Use Node 20 for the backend <!-- sources: bm_\w+, s_node;/)
  })

  it('leaves the bookmarks cleared only once they are in the brain', () => {
    expect(JSON.parse(readFileSync(join(root, 'state/.sleep.json'), 'utf8')).bookmarks).toEqual([])
  })
})
