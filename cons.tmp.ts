import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { consolidatePatterns } from './src/app/patterns/consolidate-patterns.ts'
import { createExtractiveLanguageModel } from './src/index.ts'
import { encodeRealSessions, FACT_SESSIONS } from './test/support/encode-real-sessions.ts'
import { TRANSCRIPTS_DIR } from './test/support/shared-data.ts'
const e = await encodeRealSessions(FACT_SESSIONS.map((id) => join(TRANSCRIPTS_DIR, `${id}.jsonl`)))
const r = await consolidatePatterns(e.workspace, { model: createExtractiveLanguageModel() })
for (const s of r.skills) { console.log('=====', s.path); console.log(readFileSync(join(e.project, s.path), 'utf8')) }
try { console.log('===== CLAUDE.md\n' + readFileSync(join(e.project, 'CLAUDE.md'), 'utf8')) } catch {}
console.log(await (await import('./src/app/patterns/list-patterns.ts')).patternIndex(e.workspace))
