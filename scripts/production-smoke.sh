#!/usr/bin/env bash
# The production build from a fresh clone, as a release is made and run (decision 0023, README
# "Production"), with the commands the Dockerfile's stages run (docs/operations.md "Container image";
# no Docker daemon is needed): clone HEAD, `npm ci --ignore-scripts`, `npm run build`, copy dist/ out
# of the clone, scripts/release-install.sh there (`npm ci --omit=dev`, no better-sqlite3), check the
# SBOM and what was installed, migrate and start it with NODE_ENV=production on PostgreSQL (a fresh
# database on 127.0.0.1, dropped at the end; PG_SMOKE_URL names another server), and read the
# discovery document (RFC 8414). Only committed work is checked: the clone is of HEAD. Run by
# `npm run test:all` (CI) after `npm test`; alone: `npm run test:production` (1-3 minutes).
# SMOKE_SQLITE=1 also installs better-sqlite3 as `--build-arg SQLITE=1` does (its native build: minutes)
# and migrates a SQLite file with it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sso-production-smoke-XXXXXX")
server_pid=""
pg_admin_url="${PG_SMOKE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
pg_db="sso_smoke_$(node -e "console.log(require('node:crypto').randomBytes(6).toString('hex'))")"
pg_created=""

# One SQL statement on the PostgreSQL server, with the release's pg (scripts run from the release directory).
pg_admin() { node -e "const pg = require('pg'); const c = new pg.Client(process.argv[1]); c.connect().then(() => c.query(process.argv[2])).finally(() => c.end()).catch((e) => { console.error(e.message); process.exit(1); });" "$pg_admin_url" "$1"; }

cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ -n "$pg_created" ]; then (cd "$work/release" && pg_admin "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)") || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { echo "production smoke: $* (${SECONDS} s)"; }
fail() {
  echo "production smoke FAILED: $*" >&2
  if [ -s "$work/server.log" ]; then
    echo "--- last lines of the server's log:" >&2
    tail -n 30 "$work/server.log" >&2
  fi
  exit 1
}

step "cloning HEAD ($(git -C "$repo" rev-parse --short HEAD)) into $work"
git clone --quiet --no-local "$repo" "$work/clone" || fail "git clone of $repo"
cd "$work/clone"

# The Dockerfile's build stage. The build runs no install script (vite, esbuild and tsx need none): the
# native packages are built once, in the release below, where they run. The npm cache serves the packages already fetched.
step "npm ci (the clone)"
npm ci --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null || fail "npm ci in the fresh clone (does package-lock.json match package.json?)"

step "npm run build"
npm run build --silent >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; fail "npm run build"; }

step "checking dist/: the SBOM, and no static import of a package the release does not install"
node - <<'JS' || fail "dist/ (the SBOM and the bundles' imports)"
  const fs = require('node:fs');
  const bom = JSON.parse(fs.readFileSync('dist/sbom.cdx.json', 'utf8'));
  if (bom.bomFormat !== 'CycloneDX' || !/^1\./.test(bom.specVersion)) throw new Error('dist/sbom.cdx.json is not a CycloneDX document');
  const names = new Set((bom.components ?? []).map((c) => c.name));
  for (const name of ['fastify', 'pg', 'jose']) if (!names.has(name)) throw new Error('the SBOM does not list ' + name);
  for (const name of ['smtp-server', 'mailparser', 'better-sqlite3', 'vite']) if (names.has(name)) throw new Error('the SBOM lists ' + name + ', which the release does not install');
  for (const file of fs.readdirSync('dist/server').filter((f) => /\.m?js$/.test(f))) {
    const found = fs.readFileSync('dist/server/' + file, 'utf8').match(/^import\b[^;(]*?["'](smtp-server|mailparser|better-sqlite3)["']/m);
    if (found) throw new Error('dist/server/' + file + ' imports ' + found[1] + ' statically: it must be loaded by import() where configured');
  }
  console.log('production smoke: SBOM of ' + names.size + ' components; no static import of the optional packages');
JS

# The Dockerfile's release stage: the release leaves the repository, so that nothing can be found in the clone's node_modules.
cp -R dist "$work/release"
cd "$work/release"
step "scripts/release-install.sh (the release, as the image's release stage)"
SQLITE=0 NPM_FLAGS=--prefer-offline sh "$work/clone/scripts/release-install.sh" "$work/release" >/dev/null || fail "scripts/release-install.sh in dist/ (is dist/package-lock.json in step with dist/package.json?)"
for tool in vite esbuild tsx typescript vitest react eslint smtp-server mailparser better-sqlite3; do
  [ ! -e "node_modules/$tool" ] || fail "the release installed $tool, which is build, test or development tooling, or SQLite's optional driver"
done

# The JWT signing worker (modules/oidc/jwt-signer.ts) loads beside main.js, with the release's jose, and signs:
# were it missing, the server would sign on its own thread, slower, and only warn.
step "signing a JWT in the release's signing worker"
node --input-type=module -e "
  import { Worker } from 'node:worker_threads';
  import { generateKeyPair, exportJWK, jwtVerify } from 'jose';
  const pair = await generateKeyPair('ES256', { extractable: true });
  const worker = new Worker(new URL('server/jwt-sign-worker.mjs', 'file://' + process.cwd() + '/'), { execArgv: [] });
  worker.postMessage([{ id: 1, job: { kid: 'smoke', alg: 'ES256', jwk: await exportJWK(pair.privateKey), typ: 'JWT', payload: { sub: 'smoke' } } }]);
  const [answer] = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await worker.terminate();
  if (!answer.token) throw new Error(answer.error ?? 'no token');
  await jwtVerify(answer.token, pair.publicKey);
" || fail "the signing worker in dist/server"

# The smallest production configuration (apps/server/src/config.ts): a staging system (the simulators),
# a mail server that is never reached, and the client registry with secrets of its own.
free_port() { node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"; }
port=$(free_port)
metrics_port=$(free_port)
issuer="https://sso.smoke.example"
node -e "
  const { createHash, randomBytes } = require('node:crypto');
  const fs = require('node:fs');
  const clients = JSON.parse(fs.readFileSync('config/clients.json', 'utf8'));
  const own = clients.map((c) => (c.secret_sha256 ? { ...c, secret_sha256: createHash('sha256').update(randomBytes(32).toString('hex')).digest('hex') } : c));
  fs.writeFileSync(process.argv[1], JSON.stringify(own));
" "$work/clients.json"

# A SQLite file without its optional driver: one line saying what to install.
step "a SQLite database without better-sqlite3"
sqlite_error=$(env -i PATH="$PATH" HOME="$HOME" NODE_ENV=development DATABASE_URL="sqlite:$work/sso.db" npm run --silent db:migrate 2>&1) && fail "db:migrate ran on SQLite without better-sqlite3"
echo "$sqlite_error" | grep -q 'DATABASE_URL is a SQLite file but better-sqlite3 is not installed: npm install better-sqlite3@[0-9]' || fail "db:migrate on SQLite without its driver said: $sqlite_error"

step "a fresh PostgreSQL database $pg_db"
pg_admin "CREATE DATABASE $pg_db" || fail "creating $pg_db on $pg_admin_url (is PostgreSQL running? PG_SMOKE_URL)"
pg_created=1
pg_url=$(node -e "const u = new URL(process.argv[1]); u.pathname = '/' + process.argv[2]; console.log(u.toString())" "$pg_admin_url" "$pg_db")

# The migrations alone, as before a rolling upgrade (docs/operations.md, "Upgrading"), and compose's migrate service: applied, then nothing to do.
step "npm run db:migrate in the release, twice"
migrate() { env -i PATH="$PATH" HOME="$HOME" NODE_ENV=development SEED_DEMO=false DATABASE_URL="$1" npm run --silent db:migrate; }
migrate "$pg_url" | grep -q '^db:migrate: applied 0001-initial' || fail "npm run db:migrate in dist/ did not apply the migrations"
migrate "$pg_url" | grep -q '^db:migrate: the schema is current' || fail "npm run db:migrate in dist/ found work on its second run"

if [ "${SMOKE_SQLITE:-0}" = 1 ]; then
  step "SQLITE=1: scripts/release-install.sh adds better-sqlite3, and a SQLite file migrates"
  SQLITE=1 JOBS="${JOBS:-max}" NPM_FLAGS=--prefer-offline sh "$work/clone/scripts/release-install.sh" "$work/release" >/dev/null || fail "SQLITE=1 scripts/release-install.sh"
  migrate "sqlite:$work/sso.db" | grep -q '^db:migrate: applied 0001-initial' || fail "npm run db:migrate on SQLite after SQLITE=1"
fi

# A checked backup of it, as an operator schedules one (docs/operations.md, "Backups and restore").
step "npm run db:backup in the release"
env -i PATH="$PATH" HOME="$HOME" NODE_ENV=development SEED_DEMO=false DATABASE_URL="$pg_url" npm run --silent db:backup -- "$work/sso-backup.dump" 2>&1 \
  | grep -q 'pg_restore --list: [0-9]* tables with data' || fail "npm run db:backup in dist/ did not write a checked backup of $pg_db"
if [ "${SMOKE_SQLITE:-0}" = 1 ]; then
  env -i PATH="$PATH" HOME="$HOME" NODE_ENV=development SEED_DEMO=false DATABASE_URL="sqlite:$work/sso.db" npm run --silent db:backup -- "$work/sso-backup.db" 2>&1 \
    | grep -q 'integrity_check: ok' || fail "npm run db:backup in dist/ did not write a checked backup of the SQLite file"
fi

step "starting the release with NODE_ENV=production on port $port"
env -i PATH="$PATH" HOME="$HOME" \
  NODE_ENV=production HOST=127.0.0.1 PORT="$port" METRICS_PORT="$metrics_port" PUBLIC_ORIGIN="$issuer" \
  DATABASE_URL="$pg_url" PG_POOL_MAX=4 SMTP_URL=smtp://127.0.0.1:9 \
  LOOKUP_KEY="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))")" \
  PAIRWISE_KEY="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))")" \
  SIGNING_KEY_SECRET="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))")" \
  RECAPTCHA_SECRET=smoke-only-recaptcha-secret ALLOW_SIMULATORS=staging \
  CLIENTS_FILE="$work/clients.json" LOG_LEVEL=warn SHUTDOWN_DRAIN_MS=1000 \
  node --enable-source-maps server/main.js >"$work/server.log" 2>&1 &
server_pid=$!

origin="http://127.0.0.1:$port"
# The image's HEALTHCHECK asks liveness; a balancer asks readiness (docs/operations.md "Health and draining").
healthy() { node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$origin/api/health/ready"; }
for _ in $(seq 1 60); do
  kill -0 "$server_pid" 2>/dev/null || fail "the production server exited at start"
  healthy && break
  sleep 0.5
done
healthy || fail "the production server did not answer /api/health/ready within 30 s"
node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$origin/api/health/live" || fail "/api/health/live, the image's HEALTHCHECK"

# Prometheus scrapes the management listener (docs/operations.md "Metrics"): its own port, loopback.
step "scraping GET /metrics on port $metrics_port"
node -e "
  fetch(process.argv[1]).then(async (r) => {
    const text = await r.text();
    const missing = ['# TYPE sso_http_request_duration_seconds histogram', '# TYPE sso_logins_total counter', 'nodejs_eventloop_lag_p99_seconds'].filter((name) => !text.includes(name));
    if (r.status !== 200 || missing.length) { console.error(r.status, missing); process.exit(1); }
  }, (e) => { console.error(e.message); process.exit(1); });
" "http://127.0.0.1:$metrics_port/metrics" || fail "GET /metrics of the management listener"

step "reading the discovery document"
node -e "
  const [origin, issuer] = process.argv.slice(1);
  const fail = (m) => { console.error('production smoke FAILED: ' + m); process.exit(1); };
  (async () => {
    const res = await fetch(origin + '/.well-known/oauth-authorization-server');
    if (res.status !== 200) fail('/.well-known/oauth-authorization-server answered ' + res.status);
    const doc = await res.json();
    if (doc.issuer !== issuer) fail('issuer is ' + JSON.stringify(doc.issuer) + ', not PUBLIC_ORIGIN ' + issuer);
    for (const name of ['authorization_endpoint', 'token_endpoint', 'revocation_endpoint', 'introspection_endpoint']) {
      if (typeof doc[name] !== 'string' || !doc[name].startsWith(issuer + '/')) fail(name + ' is ' + JSON.stringify(doc[name]) + ', not under the issuer');
    }
    // The built SPA is served, its source maps are not.
    const page = await fetch(origin + '/content/');
    if (page.status !== 200 || !(await page.text()).includes('<div id=\"root\">')) fail('/content/ is not the built SPA (' + page.status + ')');
    const map = require('node:fs').readdirSync('web/assets').find((f) => f.endsWith('.js.map'));
    if (!map) fail('the build wrote no source map to check');
    const served = await fetch(origin + '/content/assets/' + map);
    if (served.status !== 404) fail('/content/assets/' + map + ' answered ' + served.status + ' in production, not 404');
    console.log('production smoke: issuer ' + doc.issuer + ', ' + Object.keys(doc).length + ' fields; /content/ 200; source map 404');
  })().catch((e) => fail(e.message));
" "$origin" "$issuer" || fail "the discovery document"

kill -TERM "$server_pid"
wait "$server_pid" || fail "the production server did not stop cleanly on SIGTERM"
server_pid=""
step "passed"
