#!/usr/bin/env bash
# Makes sure Debian's PostgreSQL and HAProxy are installed for the server tests.
# The tests of several server processes start a throwaway PostgreSQL cluster
# (initdb, pg_ctl) and HAProxy in front of the processes, all on loopback; they
# never skip for want of them, so the setup installs the distribution packages.
set -euo pipefail

have_postgresql() {
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        return 0
    fi
    # Debian keeps them out of PATH, in one directory per major version.
    local folder
    for folder in /usr/lib/postgresql/*/bin; do
        if [ -x "$folder/initdb" ] && [ -x "$folder/pg_ctl" ]; then
            return 0
        fi
    done
    return 1
}

have_haproxy() {
    command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]
}

missing=()
have_postgresql || missing+=(postgresql)
have_haproxy || missing+=(haproxy)

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "ensure-services: ${missing[*]} missing and neither root nor sudo is available;" >&2
    echo "ensure-services: install Debian's '${missing[*]}' packages to run the server tests." >&2
    exit 1
fi

echo "ensure-services: installing Debian's ${missing[*]} packages" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
# policy-rc.d keeps the packages from starting their own services: the tests
# start what they need themselves, on loopback ports of their choosing.
POLICY=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$POLICY" >/dev/null
    "${SUDO[@]}" chmod +x "$POLICY"
    made_policy=1
fi
status=0
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || status=$?
if [ "$made_policy" -eq 1 ]; then
    "${SUDO[@]}" rm -f "$POLICY"
fi
if [ "$status" -ne 0 ]; then
    echo "ensure-services: apt-get install ${missing[*]} failed (exit $status)" >&2
    exit "$status"
fi

if ! have_postgresql; then
    echo "ensure-services: the postgresql package did not provide initdb and pg_ctl" >&2
    exit 1
fi
if ! have_haproxy; then
    echo "ensure-services: the haproxy package did not provide haproxy" >&2
    exit 1
fi
haproxy -v 2>&1 | head -n 1 >&2 || true
