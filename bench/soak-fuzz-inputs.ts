/**
 * Fuzzed hook inputs (fast-check): near-valid Claude Code payloads with fields of the wrong type,
 * unicode, huge strings, unknown fields and hostile transcript paths or working folders; any JSON;
 * raw junk and cut-off JSON; deeply nested brackets. Generated in chunks from a seed, so a run can
 * be replayed and a huge string lives only as long as its chunk.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { SOMNUS_HOOKS } from '../src/brain/core/claude-settings.ts'
import { type SoakWorkspace, writeTranscript } from './soak-support.ts'

/** The hook verbs (`node dist/hook.cjs <verb>`), every event `init` wires. */
export const HOOK_VERBS = SOMNUS_HOOKS.map((hook) => hook.verb)

/** Each verb's timeout in ms, as `init` writes it into Claude Code's settings. */
export const HOOK_TIMEOUT_MS: Record<string, number> = Object.fromEntries(
  SOMNUS_HOOKS.map((hook) => [hook.verb, hook.timeout * 1000]),
)

/** The paths a payload may name: real ones of the fixture, and hostile ones. */
export interface FuzzFixture {
  /** The project folder with the brain (the good `cwd`). */
  project: string
  /** The fake home folder (`HOME`). */
  home: string
  /** Real-format transcripts in the fake home. */
  transcripts: string[]
  /** Paths no transcript should be read from, or that are not transcripts at all. */
  hostilePaths: string[]
  /** Working folders other than the project: none, outside, a file, relative. */
  hostileFolders: string[]
}

/** One fuzzed hook run: the verb and the exact stdin text. */
export interface FuzzInput {
  verb: string
  stdin: string
}

const SESSION_POOL = Array.from({ length: 24 }, (_, index) => `fuzz-session-${index}`)

const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '<!--', '-->', '\n# Heading\n- item', 'null', '..'),
)

const hugeString = fc
  .record({
    unit: fc.constantFrom('x', 'é', '😀', '\n', '\\"', 'word '),
    size: fc.integer({ min: 10_000, max: 1_000_000 }),
  })
  .map(({ unit, size }) => unit.repeat(Math.ceil(size / unit.length)))

const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
)

/** A field that is usually `good`, sometimes odd text, a wrong type, or (rarely) huge. */
function mutated<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: good },
    { weight: 3, arbitrary: oddString },
    { weight: 2, arbitrary: wrongType },
    {
      weight: 1,
      arbitrary: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, hugeString),
    },
  )
}

/** A payload of the right shape; with `mutate`, any field may be odd, of the wrong type or huge. */
function nearValidPayload(fixture: FuzzFixture, mutate: boolean) {
  const field = mutate ? mutated : <T>(good: fc.Arbitrary<T>) => good
  const transcriptPath = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...fixture.transcripts) },
    { weight: 2, arbitrary: fc.constantFrom(...fixture.hostilePaths) },
  )
  const cwd = fc.oneof(
    { weight: 4, arbitrary: fc.constant(fixture.project) },
    { weight: 1, arbitrary: fc.constantFrom(...fixture.hostileFolders) },
  )
  const text = field(fc.lorem({ maxCount: 12 }))
  return fc.record(
    {
      session_id: field(fc.oneof(fc.constantFrom(...SESSION_POOL), fc.uuid())),
      transcript_path: field(transcriptPath),
      cwd: field(cwd),
      hook_event_name: field(
        fc.constantFrom(
          'Stop',
          'SessionStart',
          'SubagentStop',
          'PreCompact',
          'SessionEnd',
          'UserPromptSubmit',
        ),
      ),
      permission_mode: field(fc.constantFrom('default', 'plan', 'bypassPermissions')),
      last_assistant_message: text,
      stop_hook_active: field(fc.boolean()),
      source: field(fc.constantFrom('startup', 'resume', 'clear', 'compact', 'fork')),
      reason: field(fc.constantFrom('clear', 'logout', 'prompt_input_exit', 'other')),
      trigger: field(fc.constantFrom('manual', 'auto')),
      custom_instructions: text,
      prompt: text,
      agent_id: field(fc.uuid()),
      agent_transcript_path: field(transcriptPath),
      extra: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  )
}

function stdinFor(fixture: FuzzFixture): fc.Arbitrary<string> {
  const payload = (mutate: boolean) =>
    nearValidPayload(fixture, mutate).map(({ extra, ...fields }) =>
      JSON.stringify({ ...(extra as object), ...fields }),
    )
  const nearValid = payload(true)
  return fc.oneof(
    { weight: 30, arbitrary: payload(false) },
    { weight: 30, arbitrary: nearValid },
    { weight: 10, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 8, arbitrary: oddString },
    {
      weight: 8,
      arbitrary: fc
        .tuple(nearValid, fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([json, cut]) => json.slice(0, Math.floor(json.length * cut))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('[', '{"a":'))
        .map(([depth, open]) => open.repeat(depth) + (open === '[' ? ']' : '1}').repeat(depth)),
    },
  )
}

/** Inputs `start` to `start + count - 1` of the stream for `seed` (chunks of 500 share a sample). */
export function* fuzzInputs(
  fixture: FuzzFixture,
  seed: number,
  start: number,
  count: number,
): Generator<FuzzInput> {
  const arbitrary = fc.tuple(fc.constantFrom(...HOOK_VERBS), stdinFor(fixture))
  const chunk = 500
  for (let first = Math.floor(start / chunk) * chunk; first < start + count; first += chunk) {
    const sample = fc.sample(arbitrary, { seed: seed * 100_003 + first / chunk, numRuns: chunk })
    for (let offset = 0; offset < chunk; offset += 1) {
      const index = first + offset
      if (index < start || index >= start + count) continue
      const [verb, stdin] = sample[offset] as [string, string]
      yield { verb, stdin }
    }
  }
}

/**
 * Makes `<folder>/project` (no brain yet) and `<folder>/home` with three real-format transcripts,
 * a junk transcript and a symlink loop, and returns the paths payloads may name.
 */
export function makeFuzzFixture(folder: string): FuzzFixture {
  const project = join(folder, 'project')
  const home = join(folder, 'home')
  const transcripts = join(home, '.claude', 'projects', 'fuzz')
  mkdirSync(transcripts, { recursive: true })
  mkdirSync(project, { recursive: true })
  const workspace: SoakWorkspace = { name: 'fuzz', project, root: '', home, transcripts, env: {} }
  const good = [0, 1, 2].map((index) =>
    writeTranscript(workspace, `fuzz-t${index}`, `fuzztok${index}x`),
  )
  const junk = join(folder, 'junk.jsonl')
  writeFileSync(
    junk,
    `${'{"type":"assistant","message":{"content":[{"type":"tool_use"'.repeat(40_000)}\n`,
  )
  const loop = join(folder, 'loop.jsonl')
  rmSync(loop, { force: true })
  symlinkSync(loop, loop)
  return {
    project,
    home,
    transcripts: good,
    hostilePaths: [
      '/dev/zero',
      '/dev/null',
      '/etc/passwd',
      '/proc/self/environ',
      folder,
      junk,
      loop,
      join(folder, 'missing.jsonl'),
      join(project, '_agent_context', 'state', '.sleep.json'),
      '../../../../../../etc/hostname',
      'relative/transcript.jsonl',
      `${folder}/${'a'.repeat(5000)}.jsonl`,
      `${folder}/nul\u0000byte.jsonl`,
      '',
    ],
    hostileFolders: ['/', '', 'relative/folder', join(project, 'no', 'such', 'folder'), junk, home],
  }
}
