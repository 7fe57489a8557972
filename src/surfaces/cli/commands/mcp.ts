/** `somnus mcp`: serves the project's memory to MCP clients (Claude Code) over stdio. */
import type { Command } from 'commander'
import type { CliIo } from '../cli-io.ts'

/** Adds `mcp` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('mcp')
    .description(
      "Serve this project's memory over MCP (stdio): tools recall, read, bookmark, sleep_status",
    )
    .addHelpText(
      'after',
      `
Claude Code starts it by itself once it is registered: \`somnus init\` writes it into the
project's .mcp.json (the plugin ships it too), or register it by hand:

  claude mcp add --scope project somnus -- somnus mcp

Tools:
  recall        search the brain, digests, patterns and transcripts; hits name their file:line
  read          one memory in full, by the id a recall hit gave
  bookmark      remember something now, for the next sleep
  sleep_status  sleep debt, what waits for consolidation

It reads the brain found from the folder it starts in (or SOMNUS_CONTEXT_DIR). Logs go to stderr:
stdout carries MCP messages only.`,
    )
    .action(async () => {
      const { serveMcpStdio } = await import('../../mcp/mcp-server.ts')
      const handle = serveMcpStdio({
        cwd: io.cwd,
        env: io.env,
        warn: (message) => io.stderr(`somnus: ${message}\n`),
      })
      // Served until the client closes stdin; the transport ends the process's work then.
      await new Promise<void>((resolve) => {
        process.stdin.once('end', resolve)
        process.stdin.once('close', resolve)
      })
      await handle.close()
    })
}
