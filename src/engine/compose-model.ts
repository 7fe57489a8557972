/**
 * The composition root for consolidation models, kept apart from `compose.ts` because the hook
 * path imports that file and esbuild bundles every literal `import()` it can see: model code must
 * never ride along into `dist/hook.js`.
 */
import type { Config } from './core/config.ts'
import type { LanguageModel } from './ports/language-model.ts'

/**
 * The consolidation model named by `spec` (`extractive`, `anthropic:<model>`, `openai:<model>`,
 * `claude-cli`), or by the brain's settings when `spec` is undefined.
 */
export async function composeLanguageModel(
  spec: string | undefined,
  context: { config: Config; env: Record<string, string | undefined> },
): Promise<LanguageModel> {
  const { createLanguageModel } = await import('./adapters/llm/create-language-model.ts')
  return createLanguageModel(spec ?? context.config.model, {
    config: context.config,
    env: context.env,
  })
}
