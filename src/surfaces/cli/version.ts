/** The package version, kept in step with package.json by a test (test/package.test.ts). */

/** The package version: `somnus --version`, the MCP server's and the HTTP API's. */
export const VERSION = '0.1.0'
