#!/usr/bin/env node
// CommonJS (see bin/package.json): Node starts it without its ES module loader, ~2-3 ms sooner.
// Hooks run after every turn of every session: they load one small bundle, not the whole CLI.
if (process.argv[2] === 'hook') require('../dist/hook.cjs')
else require('../dist/cli.cjs')
