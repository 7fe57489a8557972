/** The engine for one CLI command, opened the same way by every command. */
import { createSomnus, type Somnus, type SomnusOptions } from '../../brain/create-somnus.ts'
import type { CliIo } from './cli-io.ts'

/** Somnus on the brain found from the command's folder (or `options`), warnings on its stderr. */
export function openSomnus(io: CliIo, options: SomnusOptions = {}): Promise<Somnus> {
  return createSomnus({
    cwd: io.cwd,
    env: io.env,
    warn: (message) => io.stderr(`somnus: ${message}\n`),
    ...options,
  })
}
