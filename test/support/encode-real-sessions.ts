/** Encodes real Claude Code sessions into a throw-away user scope, as `somnus patterns encode` does (offline). */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixedClock } from '../../src/engine/ports/clock.ts'
import { encodePatterns } from '../../src/patterns/app/encode-patterns.ts'
import { sessionDigestFor } from '../../src/patterns/compose-pattern-transcripts.ts'
import { openPatternWorkspace } from '../../src/patterns/compose-patterns.ts'

/** The three UUID-named sessions of the shared dataset (those `session-facts.json` covers). */
export const FACT_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]

/** Encodes `transcripts` (paths) in order into a temp HOME; returns the workspace and the pattern files' text. */
export async function encodeRealSessions(transcripts: readonly string[], day = '2026-02-11') {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-patterns-real-')))
  const home = join(base, 'home')
  const project = join(base, 'project')
  mkdirSync(home)
  mkdirSync(join(project, '.git'), { recursive: true })
  const env = { HOME: home }
  const workspace = openPatternWorkspace({
    cwd: project,
    env,
    clock: fixedClock(`${day}T12:00:00Z`),
  })
  for (const path of transcripts) {
    await encodePatterns(workspace, { digest: await sessionDigestFor(path) })
  }
  const names = readdirSync(workspace.patternsDir).filter((name) => name.endsWith('.md'))
  const files = Object.fromEntries(
    names.map((name) => [name, readFileSync(join(workspace.patternsDir, name), 'utf8')]),
  )
  return { base, home, project, env, workspace, files }
}
