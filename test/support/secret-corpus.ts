/**
 * Real-looking, fake secrets of every kind `redactSecrets` knows. Each is built by concatenation so
 * no secret scanner flags this repository; none of them was ever a live credential.
 */

/** One secret in the sentence it arrives in. */
export interface SecretSample {
  /** What the sample is, for test names. */
  name: string
  /** The text as a user, a tool or the agent would write it. */
  text: string
  /** The part that must never be stored or printed. */
  secret: string
  /** The marker that must replace it. */
  marker: string
  /** Words around the secret that must survive. */
  kept: string[]
  /**
   * The secret is known only by its line breaks (a wrapped token, a cut-short key block with line
   * numbers): a caller that joins lines with something else (`ONE_LINE` in the write-path test)
   * leaves it out.
   */
  wrapped?: true
}

const alnum = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY'
const hex = '3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c'

const anthropicKey = `${'sk-'}ant-api03-${alnum}${alnum}-${'Zz9Yy8Xx'}AA`
const openaiKey = `${'sk-'}proj-${alnum}T3BlbkFJ${alnum.slice(0, 20)}`
const openaiLegacyKey = `${'sk-'}${alnum.slice(0, 20)}T3BlbkFJ${alnum.slice(0, 20)}`
const githubClassic = `${'gh'}p_${alnum}Qr5T`
const githubOauth = `${'gh'}o_${alnum}Zk2W`
const githubServer = `${'gh'}s_${alnum}Hm7P`
const githubFine = `${'github'}_pat_11ABCDEFG0${alnum}_${alnum}${alnum.slice(0, 8)}`
const awsKeyId = `${'AK'}IA${'Z3QX7VNB4T2WLK5M'}`
const awsTempKeyId = `${'AS'}IA${'Q4RT8PLM2XCV6BNZ'}`
const awsSecret = `wJalrXUtnFEMI/K7MDENG/${'bPxRfiCY'}${'EXAMPLEKEY'}`
const slackToken = `${'xo'}xb-${'1234567890'}-${'0987654321'}-${alnum.slice(0, 24)}`
const googleKey = `${'AI'}za${'SyD'}${alnum}`
const stripeKey = `${'sk'}_live_${alnum.slice(0, 24)}`
const stripeRestricted = `${'rk'}_live_${alnum.slice(0, 24)}`
const jwt = `${'ey'}JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${'ey'}JzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${'SflKxwRJ'}SMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`
const pemBody = ['MIIEowIBAAKCAQEA7bq9', 'Xk3fQ2lZ8vR1tY6uP0oJ', 'nM4bH5gF7dS9aQ2wE1rT'].join('\n')
const pem = `${'-----BEGIN'} RSA PRIVATE KEY-----\n${pemBody}\n${'-----END'} RSA PRIVATE KEY-----`
const opensshPem = `${'-----BEGIN'} OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nBG5vbmUAAAAEbm9uZQAAAAA\n${'-----END'} OPENSSH PRIVATE KEY-----`
const urlPassword = `Sup3r${'S3cret'}Pw`
const envPassword = `Tr0ub4dor${'&3'}`
const proseToken = hex
const hunter = `hunter${'2!'}`
const slackWebhook = `https://${'hooks'}.slack.com/services/T0${'4BX9QZ2'}/B0${'7MK3LP8'}/${alnum.slice(0, 24)}`
const stripeWebhook = `${'wh'}sec_${alnum}`
const stripeTest = `${'sk'}_test_${alnum.slice(0, 24)}`
const npmToken = `${'npm'}_${alnum}Ab3d`
const gitlabToken = `${'gl'}pat-${alnum.slice(0, 20)}`
const hfToken = `${'hf'}_${alnum}Xy`
const basicPassword = `Dep1oy${'Pa55'}`
const basicValue = btoa(`deploy:${basicPassword}`)
const urlPasswordAt = `p@ss/W0rd${'-9x'}`
const twilioKey = `${'S'}K${hex}`
const sendgridKey = `${'S'}G.${alnum.slice(0, 22)}.${alnum}${alnum.slice(0, 11)}`
const adoPassword = `Str0ng${'Pa55'}w0rd`
const yamlKey = `${'k9'}Zq2Lm7Xp4Rt8Vw1Nb6`
const somnusKey = `${'smn'}_${alnum}${alnum.slice(0, 11)}`
/** Characters no other sample uses, so a half that leaks is found by itself (one per sample). */
const fresh = 'Qm7Zt2Vx9Kp4Lr8Nw3Hy6Jc5Bd1Fg0Ts'
const fresh2 = 'Ye4Wu8Ri1Oa5Sd9Fh3Gj7Kl2Zc6Xv0Bn'
const fresh3 = 'Pt6Mq1Ln5Kr9Js3Hv7Gw2Fx8Dy4Cz0Ba'
const fresh4 = 'Uh2Ig6Jf0Ke4Ld8Mc3Nb7Oa1Pz5Qy9Rx'
const wrappedBearer = `${fresh}${fresh.slice(0, 12)}`
const wrappedAnthropic = `${'sk-'}ant-api03-${fresh2}${fresh2}-Hq4Rw7AA`
const readToolPem = [
  `     1\u2192${'-----BEGIN'} PRIVATE KEY-----`,
  '     2\u2192MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
  '     3\u2192Wq5Ty8Ui2Op6As9Df3Gh7Jk1Lz4Xc0Vb',
  '     4\u2192Nm3Qw6Er9Ty2Ui5Op8As1Df4Gh7Jk0Lz',
].join('\n')
const backslashPassword = `Wq7\\dEf9Lm2${'x!'}`
const percentPassword = `Pa%40ss%2Fw0rd${'Q7'}`
const percentWebhook = `https%3A%2F%2F${'hooks'}.slack.com%2Fservices%2FT0${'5CY8RA3'}%2FB0${'8NL4MQ9'}%2F${fresh3.slice(0, 24)}`
const zeroWidthKey = `${'sk-'}ant-\u200bapi03-${fresh4}${fresh4.slice(0, 20)}-Pw3Kx8AA`
const base64EnvLine = btoa(`STRIPE_SECRET_KEY=${'sk'}_live_${fresh.slice(0, 24)}`)
const mailgunKey = `${'key'}-${hex}`
const mysqlPassword = `Bl0ck${'Ch41n'}x7`
const discordToken = `${'MTA4'}NzY1NDMyMTA5ODc2NTQzMg.GhXyZa.${alnum}z12`
const telegramToken = `${'1234'}56789:${'AA'}HdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1`
const cookieValue = `${fresh2.slice(0, 20)}`
const gcpKeyId = `${hex}a1b2c3d4`
const base64PasswordLine = btoa(`DB_PASSWORD=Gl4cier${'-Fox'}-91`)

/** Every kind, each in a sentence. */
export const SECRET_SAMPLES: readonly SecretSample[] = [
  {
    name: 'Anthropic key',
    text: `Use ANTHROPIC_API_KEY ${anthropicKey} for the eval run.`,
    secret: anthropicKey,
    marker: '[redacted: anthropic key]',
    kept: ['Use ANTHROPIC_API_KEY', 'for the eval run.'],
  },
  {
    name: 'OpenAI project key',
    text: `The OpenAI key ${openaiKey} is in the vault.`,
    secret: openaiKey,
    marker: '[redacted: openai key]',
    kept: ['The OpenAI key', 'is in the vault.'],
  },
  {
    name: 'OpenAI legacy key',
    text: `client = OpenAI(api_key_value) # ${openaiLegacyKey}`,
    secret: openaiLegacyKey,
    marker: '[redacted: openai key]',
    kept: ['client = OpenAI(api_key_value) #'],
  },
  {
    name: 'GitHub classic token',
    text: `git clone with token ${githubClassic} worked`,
    secret: githubClassic,
    marker: '[redacted: github token]',
    kept: ['git clone with token', 'worked'],
  },
  {
    name: 'GitHub OAuth token',
    text: `gh auth returned ${githubOauth}.`,
    secret: githubOauth,
    marker: '[redacted: github token]',
    kept: ['gh auth returned', '.'],
  },
  {
    name: 'GitHub server token',
    text: `Actions used ${githubServer} in CI`,
    secret: githubServer,
    marker: '[redacted: github token]',
    kept: ['Actions used', 'in CI'],
  },
  {
    name: 'GitHub fine-grained token',
    text: `PAT: ${githubFine}`,
    secret: githubFine,
    marker: '[redacted: github token]',
    kept: ['PAT:'],
  },
  {
    name: 'AWS access key id',
    text: `the IAM user has ${awsKeyId} attached`,
    secret: awsKeyId,
    marker: '[redacted: aws access key id]',
    kept: ['the IAM user has', 'attached'],
  },
  {
    name: 'AWS temporary key id',
    text: `STS gave ${awsTempKeyId} for an hour`,
    secret: awsTempKeyId,
    marker: '[redacted: aws access key id]',
    kept: ['STS gave', 'for an hour'],
  },
  {
    name: 'AWS secret access key',
    text: `aws_secret_access_key = ${awsSecret}\nregion = eu-west-1`,
    secret: awsSecret,
    marker: '[redacted: aws secret access key]',
    kept: ['aws_secret_access_key = ', 'region = eu-west-1'],
  },
  {
    name: 'AWS secret in prose',
    text: `The AWS secret key is ${awsSecret} (rotate it)`,
    secret: awsSecret,
    marker: '[redacted: aws secret access key]',
    kept: ['The AWS secret key is', '(rotate it)'],
  },
  {
    name: 'Slack bot token',
    text: `SLACK says ${slackToken} is valid`,
    secret: slackToken,
    marker: '[redacted: slack token]',
    kept: ['SLACK says', 'is valid'],
  },
  {
    name: 'Google API key',
    text: `maps loader uses ${googleKey}`,
    secret: googleKey,
    marker: '[redacted: google api key]',
    kept: ['maps loader uses'],
  },
  {
    name: 'Stripe live key',
    text: `Charge with ${stripeKey} in production`,
    secret: stripeKey,
    marker: '[redacted: stripe key]',
    kept: ['Charge with', 'in production'],
  },
  {
    name: 'Stripe restricted key',
    text: `restricted ${stripeRestricted}`,
    secret: stripeRestricted,
    marker: '[redacted: stripe key]',
    kept: ['restricted'],
  },
  {
    name: 'JWT',
    text: `session cookie ${jwt} expired`,
    secret: jwt,
    marker: '[redacted: jwt]',
    kept: ['session cookie', 'expired'],
  },
  {
    name: 'PEM RSA private key',
    text: `Here is the deploy key:\n${pem}\nKeep it safe.`,
    secret: pemBody.split('\n')[1] ?? '',
    marker: '[redacted: private key]',
    kept: ['Here is the deploy key:', 'Keep it safe.'],
  },
  {
    name: 'OpenSSH private key',
    text: `cat ~/.ssh/id_ed25519\n${opensshPem}`,
    secret: 'b3BlbnNzaC1rZXktdjEAAAAA',
    marker: '[redacted: private key]',
    kept: ['cat ~/.ssh/id_ed25519'],
  },
  {
    name: 'URL credentials',
    text: `DATABASE at postgres://admin:${urlPassword}@db.internal:5432/app`,
    secret: urlPassword,
    marker: 'postgres://admin:[redacted: password]@db.internal:5432/app',
    kept: ['DATABASE at'],
  },
  {
    name: '.env password line',
    text: `NODE_ENV=production\nDB_PASSWORD=${envPassword}\nPORT=3000`,
    secret: envPassword,
    marker: 'DB_PASSWORD=[redacted: password]',
    kept: ['NODE_ENV=production', 'PORT=3000'],
  },
  {
    name: '.env export with quotes',
    text: `export STRIPE_WEBHOOK_SECRET="whsec_${alnum.slice(0, 12)}"`,
    secret: `whsec_${alnum.slice(0, 12)}`,
    marker: 'STRIPE_WEBHOOK_SECRET="[redacted: secret]"',
    kept: ['export'],
  },
  {
    name: 'low-entropy api key assignment',
    text: 'API_KEY=letmein',
    secret: 'letmein',
    marker: 'API_KEY=[redacted: api key]',
    kept: [],
  },
  {
    name: 'JSON credential field',
    text: `{"client_secret": "${alnum.slice(0, 18)}", "region": "eu"}`,
    secret: alnum.slice(0, 18),
    marker: '"client_secret": "[redacted: secret]"',
    kept: ['"region": "eu"'],
  },
  {
    name: 'token in prose',
    text: `my token is ${proseToken} so use it`,
    secret: proseToken,
    marker: 'my token is [redacted: token]',
    kept: ['so use it'],
  },
  {
    name: 'password in prose',
    text: `password: ${hunter} for the staging box`,
    secret: hunter,
    marker: 'password: [redacted: password]',
    kept: ['for the staging box'],
  },
  {
    name: 'password after another label',
    text: `Staging login: password: ${hunter}`,
    secret: hunter,
    marker: 'password: [redacted: password]',
    kept: ['Staging login:'],
  },
  {
    name: 'password after "is"',
    text: 'the wifi password is swordfish, ask Bob',
    secret: 'swordfish',
    marker: 'password is [redacted: password]',
    kept: [', ask Bob'],
  },
  {
    name: 'bearer token',
    text: `curl -H "Authorization: Bearer ${alnum}" https://api.example.com`,
    secret: alnum,
    marker: 'Bearer [redacted: token]',
    kept: ['curl -H', 'https://api.example.com'],
  },
  {
    name: 'Slack webhook URL',
    text: `Alerts post to ${slackWebhook} on failure`,
    secret: slackWebhook.slice(-24),
    marker: '[redacted: slack webhook]',
    kept: ['Alerts post to', 'on failure'],
  },
  {
    name: 'Stripe webhook signing secret',
    text: `The endpoint verifies with ${stripeWebhook} today.`,
    secret: stripeWebhook,
    marker: '[redacted: stripe key]',
    kept: ['The endpoint verifies with', 'today.'],
  },
  {
    name: 'Stripe test key',
    text: `tests use ${stripeTest} against the sandbox`,
    secret: stripeTest,
    marker: '[redacted: stripe key]',
    kept: ['tests use', 'against the sandbox'],
  },
  {
    name: 'npm token',
    text: `//registry.npmjs.org/:_authToken=${npmToken}`,
    secret: npmToken,
    marker: '[redacted: npm token]',
    kept: ['//registry.npmjs.org/:_authToken='],
  },
  {
    name: 'GitLab token',
    text: `clone over https with ${gitlabToken} then`,
    secret: gitlabToken,
    marker: '[redacted: gitlab token]',
    kept: ['clone over https with', 'then'],
  },
  {
    name: 'Hugging Face token',
    text: `huggingface-cli login ${hfToken}`,
    secret: hfToken,
    marker: '[redacted: hugging face token]',
    kept: ['huggingface-cli login'],
  },
  {
    name: 'HTTP Basic auth header',
    text: `curl -H "Authorization: Basic ${basicValue}" https://ci.example.com`,
    secret: basicValue,
    marker: 'Basic [redacted: basic auth]',
    kept: ['curl -H "Authorization:', 'https://ci.example.com'],
  },
  {
    name: 'AWS secret after "with secret"',
    text: `configured ${awsKeyId} with secret ${awsSecret} for the bucket`,
    secret: awsSecret,
    marker: 'with secret [redacted: aws secret access key]',
    kept: ['configured', 'for the bucket'],
  },
  {
    name: 'URL password holding @ and /',
    text: `mysql://root:${urlPasswordAt}@db.internal:3306/app is the DSN`,
    secret: urlPasswordAt,
    marker: 'mysql://root:[redacted: password]@db.internal:3306/app',
    kept: ['is the DSN'],
  },
  {
    name: 'Twilio API key',
    text: `twilio api key ${twilioKey} for SMS`,
    secret: twilioKey,
    marker: '[redacted: twilio key]',
    kept: ['for SMS'],
  },
  {
    name: 'SendGrid key',
    text: `mail goes through ${sendgridKey} now`,
    secret: sendgridKey,
    marker: '[redacted: sendgrid key]',
    kept: ['mail goes through', 'now'],
  },
  {
    name: 'ADO.NET connection string',
    text: `Server=db.internal;User Id=sa;Password=${adoPassword};Database=app`,
    secret: adoPassword,
    marker: 'Password=[redacted: password]',
    kept: ['Server=db.internal;User Id=sa;', 'Database=app'],
  },
  {
    name: 'YAML api_key',
    text: `service:\n  api_key: ${yamlKey}\n  region: eu`,
    secret: yamlKey,
    marker: 'api_key: [redacted: api key]',
    kept: ['service:', 'region: eu'],
  },
  {
    name: 'Somnus service key',
    text: `SOMNUS key for the tenant: ${somnusKey}`,
    secret: somnusKey,
    marker: '[redacted: somnus key]',
    kept: ['SOMNUS key for the tenant:'],
  },
  {
    name: 'bearer token wrapped over two lines',
    text: `curl -H "Authorization: Bearer ${wrappedBearer.slice(0, 20)}\n${wrappedBearer.slice(20)}" https://api.example.com`,
    secret: wrappedBearer.slice(20),
    marker: 'Bearer [redacted: token]',
    kept: ['curl -H "Authorization:', 'https://api.example.com'],
    wrapped: true,
  },
  {
    name: 'Anthropic key wrapped in a transcript',
    text: `the key I pasted was ${wrappedAnthropic.slice(0, 26)}\n${wrappedAnthropic.slice(26)} and it failed`,
    secret: wrappedAnthropic.slice(26),
    marker: '[redacted: anthropic key]',
    kept: ['the key I pasted was', 'and it failed'],
    wrapped: true,
  },
  {
    name: 'private key read with line numbers, cut short',
    text: `Read id_rsa:\n${readToolPem}`,
    secret: 'Nm3Qw6Er9Ty2Ui5Op8As1Df4Gh7Jk0Lz',
    marker: '[redacted: private key]',
    kept: ['Read id_rsa:'],
    wrapped: true,
  },
  {
    name: 'password holding a backslash',
    text: `mysql_password=${backslashPassword} in my.cnf`,
    secret: backslashPassword.slice(3),
    marker: 'mysql_password=[redacted: password]',
    kept: ['in my.cnf'],
  },
  {
    name: 'URL password percent-encoded',
    text: `git remote add origin https://deploy:${percentPassword}@git.example.com/app.git`,
    secret: percentPassword,
    marker: '[redacted: password]',
    kept: ['git remote add origin', 'git.example.com/app.git'],
  },
  {
    name: 'Slack webhook percent-encoded in a query',
    text: `GET https://relay.example.com/forward?to=${percentWebhook}&retry=1 failed`,
    secret: fresh3.slice(0, 24),
    marker: '[redacted: slack webhook]',
    kept: ['GET https://relay.example.com/forward?to=', 'failed'],
  },
  {
    name: 'Anthropic key with a zero-width space inside',
    text: `export KEY_FOR_EVALS=${zeroWidthKey}`,
    secret: zeroWidthKey.slice(zeroWidthKey.indexOf('api03')),
    marker: '[redacted: anthropic key]',
    kept: ['export KEY_FOR_EVALS='],
  },
  {
    name: 'base64 of a .env key line',
    text: `kubectl get secret app -o yaml\ndata:\n  env: ${base64EnvLine}`,
    secret: base64EnvLine,
    marker: '[redacted: base64 of a secret]',
    kept: ['kubectl get secret app -o yaml', 'data:'],
  },
  {
    name: 'base64 of a .env password line',
    text: `echo ${base64PasswordLine} | base64 -d`,
    secret: base64PasswordLine,
    marker: '[redacted: base64 of a secret]',
    kept: ['| base64 -d'],
  },
  {
    name: 'Mailgun key',
    text: `curl -s --user 'api:${mailgunKey}' https://api.mailgun.net/v3/mg.example.com/messages`,
    secret: mailgunKey,
    marker: '[redacted: mailgun key]',
    kept: ['curl -s --user', 'https://api.mailgun.net/v3/mg.example.com/messages'],
  },
  {
    name: 'mysql password joined to -p',
    text: `mysql -h db.internal -u root -p${mysqlPassword} orders < dump.sql`,
    secret: mysqlPassword,
    marker: '[redacted: password]',
    kept: ['mysql -h db.internal -u root -p', 'orders < dump.sql'],
  },
  {
    name: 'mysqldump --password=',
    text: `mysqldump --user=backup --password=${mysqlPassword} shop > shop.sql`,
    secret: mysqlPassword,
    marker: '[redacted: password]',
    kept: ['mysqldump --user=backup --password=', 'shop > shop.sql'],
  },
  {
    name: 'Discord bot token',
    text: `client.login('${discordToken}')`,
    secret: discordToken,
    marker: '[redacted: discord token]',
    kept: ['client.login('],
  },
  {
    name: 'Telegram bot token in an API URL',
    text: `curl https://api.telegram.org/bot${telegramToken}/getMe`,
    secret: telegramToken,
    marker: '[redacted: telegram token]',
    kept: ['curl https://api.telegram.org/', '/getMe'],
  },
  {
    name: 'Cookie header',
    text: `curl -H 'Cookie: sessionid=${cookieValue}; theme=dark' https://app.example.com/me`,
    secret: cookieValue,
    marker: '[redacted: cookie]',
    kept: ['curl -H', 'theme=dark', 'https://app.example.com/me'],
  },
  {
    name: 'Set-Cookie header',
    text: `< Set-Cookie: sid=${cookieValue}; Path=/; HttpOnly; Secure`,
    secret: cookieValue,
    marker: '[redacted: cookie]',
    kept: ['< Set-Cookie: sid=', 'Path=/; HttpOnly; Secure'],
  },
  {
    name: 'GCP service-account private_key_id',
    text: `{ "type": "service_account", "private_key_id": "${gcpKeyId}", "project_id": "shop" }`,
    secret: gcpKeyId,
    marker: '[redacted: key]',
    kept: ['"type": "service_account"', '"project_id": "shop"'],
  },
]

/** All the samples in one text, as a user might paste a config dump. */
export const ALL_SECRETS_TEXT = SECRET_SAMPLES.map((sample) => sample.text).join('\n')

/** Ordinary text that must come back unchanged: code, hashes, ids, paths, prose about secrets. */
export const HARMLESS_TEXTS: readonly string[] = [
  'Fixed the retry loop in src/engine/core/redact-secrets.ts; tests pass.',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 reverted a1b2c3d',
  'session 550e8400-e29b-41d4-a716-446655440000 ended',
  'The key insight is that the lock must be taken first.',
  'The password is required and must be hashed with argon2.',
  'Add a password reset flow and rotate tokens every 90 days.',
  'const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY',
  'interface Config { password: string; token: string | null }',
  'max_tokens: 4096, input_tokens: 1200',
  '<li key={item.id}>{item.label}</li>',
  'Use `token => token.trim()` to clean them.',
  'Read /home/user/project/secrets/README.md and src/auth/token-store.ts',
  'export PWD=/home/user/project',
  'API_KEY=$ANTHROPIC_API_KEY npm test',
  ['password: $', '{{ secrets.DB_PASSWORD }}'].join(''),
  'See https://user@example.com/repo and https://example.com:8443/path',
  'The monkey keyboard has 104 keys.',
  'TOKEN_LIMIT=8000',
  'sk-learn is a library; task-runner-2 finished',
  'The basic idea works; Basic authentication is off by default.',
  'the secret rotation job ran at commit 0123456789abcdef0123456789abcdef01234567',
  'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 matches',
  'AWS region eu-west-1, bucket somnus-artifacts-2026, SKILL.md updated',
  'npm_config_cache=/tmp/npm and hf_hub_download(repo_id) work',
  'postgres://localhost:5432/app and http://example.com:8080/a@b',
  'Created task fix-the-auth-bug: _agent_context/state/fix-the-auth-bug.md',
  // Near the disguises redactSecrets undoes: wrapped lines, percent escapes, backslashes, joiners.
  'Pass a Bearer token in the header:\nAuthorization must be set first',
  'installed sk-learn-2024-release\nFinished in 3.2s',
  'https://example.com/search?q=caf%C3%A9%20menu%2Fdrinks&page=2',
  'open C:\\Users\\dev\\project\\src\\index.ts',
  'printf "PORT=3000\\nHOST=localhost\\n" > .env.example',
  'shipped it \u{1F469}\u200D\u{1F4BB} with the team, \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645',
  'echo $(printf %s%s a b) and 100% done',
]
