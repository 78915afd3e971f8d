#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, from Debian's packages, on a fresh machine:
# Chromium for the browser journeys, nginx as the two-node suite's load balancer, Apache with
# mod_auth_openidc as the interop journey's relying party, and a PostgreSQL server on
# 127.0.0.1:5432 for the PostgreSQL run.
set -euo pipefail

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "setup: installing Debian's chromium"
  apt_install chromium fonts-noto-cjk
fi

if [ ! -x "${NGINX_PATH:-/usr/sbin/nginx}" ]; then
  echo "setup: installing Debian's nginx"
  apt_install nginx-light || apt_install nginx
fi

# The interop journey runs its own Apache (e2e/support/mod-auth-openidc.ts); the system's instance
# that the apache2 package would start is not needed, so only the binary and the module are installed.
if [ ! -x "${APACHE2_PATH:-/usr/sbin/apache2}" ] || [ ! -f "${APACHE2_MODULES:-/usr/lib/apache2/modules}/mod_auth_openidc.so" ]; then
  echo "setup: installing Debian's apache2 and libapache2-mod-auth-openidc"
  apt_install apache2-bin libapache2-mod-auth-openidc
fi

pg_up() { command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q; }
if ! pg_up; then
  fresh=""
  if [ ! -d /etc/postgresql ] || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "setup: installing Debian's postgresql"
    apt_install postgresql
    fresh=1
  fi
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  if [ -n "$fresh" ]; then
    # A server installed here for the tests: trust local TCP connections, as the test URL expects.
    hba=/etc/postgresql/$version/main/pg_hba.conf
    as_root sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
  fi
  echo "setup: starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "setup: PostgreSQL does not answer on 127.0.0.1:5432" >&2; exit 1; }
fi
echo "setup: chromium, nginx, apache2 with mod_auth_openidc and PostgreSQL ready"
