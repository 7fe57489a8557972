/** The `somnus` executable: the only module that ends the process. */
import { processIo } from './cli-io.ts'
import { runCli } from './run-cli.ts'

// No top-level await: the built CLI is CommonJS, run by cli-loader.ts through a code cache.
void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code
})
