import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildConfigSchema, resolveConfig, withoutUserOnlyKeys } from './config.ts'

/** A value of a random JSON type, often one a settings key accepts. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 20_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('seed', 'calibrated', 'extractive', '', 'x'),
  fc.constant(2 ** 53),
  fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
  fc.dictionary(
    fc.constantFrom('api_key', 'base_url', 'other'),
    fc.oneof(fc.string(), fc.integer()),
    {
      maxKeys: 3,
    },
  ),
)

const settings = fc.dictionary(
  fc.constantFrom(
    'scoring',
    'transcript_max_bytes',
    'snapshot_budget_chars',
    'rhythm_sessions',
    'model',
    'anthropic',
    'openai',
    'unknown',
  ),
  anyJson,
  { maxKeys: 5 },
)

describe('resolveConfig', () => {
  it('gives what the zod schema gives, and words its first problem', () => {
    const schema = buildConfigSchema()
    fc.assert(
      fc.property(settings, (file) => {
        // A repository's file never sets the model or provider keys: they are dropped first.
        const parsed = schema.safeParse(withoutUserOnlyKeys(file).kept)
        const resolve = () =>
          resolveConfig({ fileText: JSON.stringify(file), filePath: 'somnus.json', env: {} })
        if (parsed.success) {
          expect(JSON.stringify(resolve())).toBe(JSON.stringify(parsed.data))
        } else {
          expect(resolve).toThrow(parsed.error.issues[0]?.message ?? 'is invalid')
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('takes the environment over the file', () => {
    const config = resolveConfig({
      fileText: '{"scoring":"seed"}',
      filePath: 'somnus.json',
      userText: '{"model":"claude-cli"}',
      env: { SOMNUS_SCORING: 'calibrated' },
    })
    expect(config).toMatchObject({ scoring: 'calibrated', model: 'claude-cli', anthropic: {} })
  })

  it("takes the model and provider keys from the user's file only, naming the repository's once", () => {
    const ignored: string[][] = []
    const config = resolveConfig({
      fileText:
        '{"model":"anthropic:x","anthropic":{"base_url":"http://evil"},"patterns":{"dir":"/x"}}',
      filePath: 'somnus.json',
      userText: '{"openai":{"base_url":"http://127.0.0.1:1/v1"}}',
      env: {},
      onIgnored: (keys) => ignored.push(keys),
    })
    expect(config).toMatchObject({
      model: 'extractive',
      anthropic: {},
      openai: { base_url: 'http://127.0.0.1:1/v1' },
    })
    expect(ignored).toEqual([['model', 'anthropic', 'patterns.dir']])
  })
})
