/**
 * Finds this Somnus install's package folder, which ships the templates, the dashboard assets and
 * the word vectors. From the module's own URL, so it holds from src/, from dist/ and from the CLI
 * bundle (whose `import.meta.url` is the bundle's, see scripts/bundle-cli.mjs).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The nearest folder above this module whose package.json is named "somnus"; null if none. */
export function somnusPackageRoot(): string | null {
  let folder = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(folder, 'package.json')
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name
      if (name === 'somnus') return folder
    }
    const parent = dirname(folder)
    if (parent === folder) return null
    folder = parent
  }
}
