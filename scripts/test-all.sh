#!/usr/bin/env bash
# Every test from nothing, as CI runs it (`npm run test:all`, called by .ci/run): the machine's
# packages (scripts/setup-machine.sh), Node.js 24 LTS (scripts/node-runtime.sh: production's runtime,
# whatever node the machine has), `npm ci` built for it, lint, types, the unit, abuse and browser
# suites, then the production smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-machine.sh
. scripts/node-runtime.sh
npm ci
npm test
npm run test:production
