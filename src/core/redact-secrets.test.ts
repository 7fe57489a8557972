import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ALL_SECRETS_TEXT,
  HARMLESS_TEXTS,
  SECRET_SAMPLES,
} from '../../test/support/secret-corpus.ts'
import { redactSecrets } from './redact-secrets.ts'

describe('redactSecrets on every kind of secret', () => {
  for (const sample of SECRET_SAMPLES) {
    it(`replaces a ${sample.name} with its marker and keeps the text around it`, () => {
      const redacted = redactSecrets(sample.text)
      expect(redacted).not.toContain(sample.secret)
      expect(redacted).toContain(sample.marker)
      for (const kept of sample.kept) expect(redacted).toContain(kept)
    })
  }

  it('redacts every secret when they arrive together, and a second pass changes nothing', () => {
    const redacted = redactSecrets(ALL_SECRETS_TEXT)
    for (const sample of SECRET_SAMPLES) expect(redacted).not.toContain(sample.secret)
    expect(redactSecrets(redacted)).toBe(redacted)
  })

  it('redacts a private key block whole, every line of it', () => {
    const sample = SECRET_SAMPLES.find((candidate) => candidate.name === 'PEM RSA private key')
    const redacted = redactSecrets(sample?.text ?? '')
    expect(redacted).toBe('Here is the deploy key:\n[redacted: private key]\nKeep it safe.')
  })

  it('redacts a private key block cut short before its END line', () => {
    const cut = `${'-----BEGIN'} PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB`
    expect(redactSecrets(cut)).toBe('[redacted: private key]')
  })
})

describe('redactSecrets on ordinary text', () => {
  for (const text of HARMLESS_TEXTS) {
    it(`leaves "${text.slice(0, 50)}" alone`, () => {
      expect(redactSecrets(text)).toBe(text)
    })
  }

  it('returns the very same string for text with nothing to redact', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcdefghij .,\n0123456789') }), (text) => {
        expect(redactSecrets(text)).toBe(text)
      }),
    )
  })
})
