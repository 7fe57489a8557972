/**
 * The project's `.mcp.json` (Claude Code's project-scope MCP servers): Somnus adds or refreshes
 * its own `somnus` server and leaves every other server and key as it found them.
 */
import { SomnusError } from '../../engine/core/errors.ts'

/** Where Claude Code reads the project's MCP servers, relative to the project folder. */
export const MCP_CONFIG_PATH = '.mcp.json'

/** The server's name in `.mcp.json` (and in Claude Code's tool names: `mcp__somnus__recall`). */
export const SOMNUS_MCP_SERVER = 'somnus'

/** How Claude Code starts the server: a program and its arguments, no shell. */
export interface McpServerCommand {
  command: string
  args: string[]
}

/**
 * `text` (the file, or null when there is none) with the Somnus server set to `server`; changed
 * is false when it already was. A file that is not a JSON object stops `init` with nothing written.
 */
export function mergeSomnusMcpServer(
  text: string | null,
  shownPath: string,
  server: McpServerCommand,
): { text: string; changed: boolean } {
  let config: Record<string, unknown> = {}
  if (text !== null && text.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw invalid(shownPath, 'is not valid JSON', error)
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw invalid(shownPath, 'is not a JSON object')
    config = parsed as Record<string, unknown>
  }
  const servers = config.mcpServers ?? {}
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw invalid(shownPath, 'has an "mcpServers" that is not an object')
  const wanted = { type: 'stdio', command: server.command, args: server.args }
  const current = (servers as Record<string, unknown>)[SOMNUS_MCP_SERVER]
  const changed = JSON.stringify(current) !== JSON.stringify(wanted)
  const next = { ...config, mcpServers: { ...servers, [SOMNUS_MCP_SERVER]: wanted } }
  return { text: `${JSON.stringify(next, null, 2)}\n`, changed }
}

/** True when the file's text names a `somnus` server. */
export function hasSomnusMcpServer(text: string | null): boolean {
  if (text === null) return false
  try {
    const servers = (JSON.parse(text) as { mcpServers?: Record<string, unknown> }).mcpServers
    return typeof servers === 'object' && servers !== null && SOMNUS_MCP_SERVER in servers
  } catch {
    return false
  }
}

function invalid(path: string, problem: string, cause?: unknown): SomnusError {
  return new SomnusError(
    'INVALID_INPUT',
    `${path} ${problem}: fix it (Claude Code reads it too) or move it away, then run \`somnus init\` again. Nothing was changed.`,
    cause === undefined ? {} : { cause },
  )
}
