#!/usr/bin/env node
// Hooks run after every turn of every session: they load one small bundle, not the whole CLI.
if (process.argv[2] === 'hook') await import('../dist/hook.js')
else await import('../dist/surfaces/cli/main.js')
