#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests.
# The tests drive this system browser through Playwright and never download a
# browser build of their own, so the only source is the distribution package.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "ensure-chromium: $CHROMIUM is missing and neither root nor sudo is available;" >&2
    echo "ensure-chromium: install Debian's 'chromium' package to run the browser tests." >&2
    exit 1
fi

echo "ensure-chromium: installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
# fonts-dejavu-core gives the page's suit symbols and Cyrillic text a glyph
# in screenshots; Chromium works without it, so its absence is not fatal.
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends fonts-dejavu-core >/dev/null || true

if [ ! -x "$CHROMIUM" ]; then
    echo "ensure-chromium: the chromium package did not provide $CHROMIUM" >&2
    exit 1
fi
"$CHROMIUM" --version >&2 || true
