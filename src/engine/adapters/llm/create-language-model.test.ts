import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../core/config.ts'
import { SomnusError } from '../../core/errors.ts'
import { createLanguageModel } from './create-language-model.ts'

const config = resolveConfig({ fileText: null, filePath: 'somnus.json', env: {} })

describe('createLanguageModel', () => {
  it('builds each provider without needing a key until a call is made', async () => {
    for (const spec of [
      'anthropic:claude-sonnet-4-5',
      'openai:gpt-4.1-mini',
      'claude-cli',
      'claude-cli:opus',
    ]) {
      const model = await createLanguageModel(spec, { config, env: {} })
      expect(model.name).toBe(spec)
    }
  })

  it('loads the extractive model lazily', async () => {
    const model = await createLanguageModel('extractive', { config, env: {} })
    expect(model.name).toBe('extractive')
  })

  it('rejects unknown specs with MODEL_CONFIG listing the valid forms', async () => {
    for (const spec of [
      '',
      'anthropic',
      'anthropic:',
      'openai: ',
      'gpt-4o',
      'claude-cli:',
      'ollama:llama3',
    ]) {
      const error = await createLanguageModel(spec, { config, env: {} }).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error, spec).toBeInstanceOf(SomnusError)
      expect((error as SomnusError).code).toBe('MODEL_CONFIG')
      expect((error as SomnusError).message).toContain(
        'anthropic:<model>, openai:<model>, claude-cli',
      )
    }
  })

  it("takes keys and base URLs from the user's settings file before the environment", async () => {
    const seen: Array<{ url: string; headers: Record<string, string> }> = []
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), headers: init?.headers as Record<string, string> })
      return Response.json({
        choices: [{ message: { content: '{"reflection":"r","priority":"p","sources":[]}' } }],
      })
    }
    const fromFile = resolveConfig({
      fileText: null,
      filePath: 'somnus.json',
      userText: JSON.stringify({
        openai: { api_key: 'file-key', base_url: 'http://127.0.0.1:11434/v1' },
      }),
      env: {},
    })
    const model = await createLanguageModel('openai:llama3.2', {
      config: fromFile,
      env: { OPENAI_API_KEY: 'env-key', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' },
      fetch,
    })
    await model.reflect({ units: [{ id: 'a', text: 'x' }] })
    expect(seen[0]?.url).toBe('http://127.0.0.1:11434/v1/chat/completions')
    expect(seen[0]?.headers.authorization).toBe('Bearer file-key')
  })
})
