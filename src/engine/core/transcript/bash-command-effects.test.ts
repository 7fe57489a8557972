import { describe, expect, it } from 'vitest'
import { changesFilesOrState } from './bash-command-effects.ts'

describe('changesFilesOrState', () => {
  it.each([
    'git status',
    'git status 2>&1',
    'git log --oneline -5 2>&1',
    'git diff --stat',
    'git -C ../repo show HEAD',
    'git stash list',
    'ls -la',
    'cat package.json | head -20',
    'grep -rn "a > b" src',
    'npm test',
    'npm run build 2>&1 | tail -5',
    'npx vitest run src/a.test.ts',
    'mix test test/a_test.exs 2>&1',
    'pytest -x tests/',
    'cargo test --all',
    'go test ./...',
    'sed -n 1,20p src/a.ts',
    'bd show x-1 2>/dev/null; echo "==="',
    'cd /repo && git log master..HEAD 2>/dev/null || echo "none"',
    'gh pr view 12',
    'echo "a -> b => c"',
  ])('read-only: %s', (command) => {
    expect(changesFilesOrState(command)).toBe(false)
  })

  it.each([
    'git commit -m "fix: x > y"',
    "git add src/a.ts && git commit -m \"$(cat <<'EOF'\nfeat: a\n\nit's > done\nEOF\n)\"",
    'git push --set-upstream origin main 2>&1',
    'git -C ../repo checkout -b topic',
    'rm -rf dist',
    'mv a.ts b.ts',
    'mkdir -p src/new',
    'sudo chmod +x run.sh',
    "sed -i 's/a/b/' src/a.ts",
    'npm install zod',
    'npm i -D somnus',
    'pnpm add react',
    'pip install requests',
    'uv pip install numpy',
    'cargo add serde',
    'go get example.com/x',
    'mix deps.get',
    'echo "x" > notes.txt',
    'cat <<EOF >> log.md\nline\nEOF',
    'npx biome check --write src',
    'find . -name "*.tmp" -delete',
    'ls | xargs rm',
    'gh pr create --title x',
  ])('changes: %s', (command) => {
    expect(changesFilesOrState(command)).toBe(true)
  })
})
