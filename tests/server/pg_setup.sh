#!/usr/bin/env bash
# Set up a local PostgreSQL for the server tests; safe to run again and again.
#
# Run as root on a Debian machine (CI, a container). Installs PostgreSQL 15 from the
# Debian packages if it is missing, starts a cluster listening on 127.0.0.1 only, makes
# the role and database `tavernkeep` (password `tavernkeep`) if they are missing, and
# prints the URL for TAVERNKEEP_TEST_POSTGRES_URL as the last line of stdout:
#
#   export TAVERNKEEP_TEST_POSTGRES_URL=$(bash tests/server/pg_setup.sh | tail -1)
#
# Everything else goes to stderr. Override with PG_VERSION, PG_CLUSTER, PG_PORT, PG_NAME,
# PG_PASSWORD.
set -euo pipefail

PG_VERSION="${PG_VERSION:-15}"
PG_PORT="${PG_PORT:-5432}"
PG_NAME="${PG_NAME:-tavernkeep}"
PG_PASSWORD="${PG_PASSWORD:-tavernkeep}"
CLUSTER="${PG_CLUSTER:-main}"

say() { echo "pg_setup: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
    say "run me as root (I install packages and start the server as user postgres)"
    exit 1
fi

if [ ! -x "/usr/lib/postgresql/${PG_VERSION}/bin/postgres" ]; then
    say "installing postgresql-${PG_VERSION}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq "postgresql-${PG_VERSION}" postgresql-client-common >&2
fi

# A fresh container may have the packages but no cluster (or a removed one).
if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "${PG_VERSION} ${CLUSTER}"; then
    say "creating cluster ${PG_VERSION}/${CLUSTER} on port ${PG_PORT}"
    pg_createcluster "${PG_VERSION}" "${CLUSTER}" --port "${PG_PORT}" >&2
fi

CONF="/etc/postgresql/${PG_VERSION}/${CLUSTER}"
# Listen on loopback only, on the port asked for. conf.d is read after postgresql.conf.
pg_conftool "${PG_VERSION}" "${CLUSTER}" set port "${PG_PORT}" >&2
mkdir -p "${CONF}/conf.d"
printf "listen_addresses = '127.0.0.1'\n" > "${CONF}/conf.d/tavernkeep-tests.conf"
# Password logins from loopback (Debian's default already says so; make sure).
if ! grep -Eq "^host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+(scram-sha-256|md5)" \
        "${CONF}/pg_hba.conf"; then
    echo "host all all 127.0.0.1/32 scram-sha-256" >> "${CONF}/pg_hba.conf"
fi

status=0
pg_ctlcluster "${PG_VERSION}" "${CLUSTER}" status >/dev/null 2>&1 || status=$?
if [ "${status}" -eq 0 ]; then
    # Running already: pick up the settings above without dropping connections.
    pg_ctlcluster "${PG_VERSION}" "${CLUSTER}" reload >&2
    # listen_addresses and port need a restart if they changed.
    current_port=$(runuser -u postgres -- psql -XAtq -p "${PG_PORT}" -c "SHOW port" 2>/dev/null || true)
    if [ "${current_port}" != "${PG_PORT}" ]; then
        pg_ctlcluster "${PG_VERSION}" "${CLUSTER}" restart >&2
    fi
else
    say "starting cluster ${PG_VERSION}/${CLUSTER}"
    pg_ctlcluster "${PG_VERSION}" "${CLUSTER}" start >&2
fi

for _ in $(seq 1 60); do
    if pg_isready -q -h 127.0.0.1 -p "${PG_PORT}"; then
        break
    fi
    sleep 0.5
done
pg_isready -h 127.0.0.1 -p "${PG_PORT}" >&2

psql_admin() {
    (cd / && runuser -u postgres -- psql -XAtq -v ON_ERROR_STOP=1 -p "${PG_PORT}" "$@")
}

psql_admin -v name="${PG_NAME}" -v password="${PG_PASSWORD}" <<'SQL' >&2
SELECT format('CREATE ROLE %I LOGIN', :'name')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'name') \gexec
SELECT format('ALTER ROLE %I WITH LOGIN PASSWORD %L', :'name', :'password') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'name', :'name')
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'name') \gexec
SQL

URL="postgresql://${PG_NAME}:${PG_PASSWORD}@127.0.0.1:${PG_PORT}/${PG_NAME}"
if ! PGPASSWORD="${PG_PASSWORD}" psql -XAtq -h 127.0.0.1 -p "${PG_PORT}" -U "${PG_NAME}" \
        -d "${PG_NAME}" -c "SELECT 1" >/dev/null; then
    say "cannot log in as ${PG_NAME} on 127.0.0.1:${PG_PORT}"
    exit 1
fi
say "ready"
echo "${URL}"
