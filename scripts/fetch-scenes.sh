#!/usr/bin/env bash
# Fetches real HDR scenes for the simulated camera: the CC0 studio-light environment maps that
# Debian ships in blender-data, converted from OpenEXR to Radiance .hdr (what CameraCodecs reads).
#
# Usage: scripts/fetch-scenes.sh [cache-directory]
#   default cache: ${XDG_CACHE_HOME:-$HOME/.cache}/camerasun/scenes
# Needs apt (Debian/Ubuntu); installs openimageio-tools (oiiotool) if missing, with sudo when not
# root. Idempotent: scenes already converted are kept, and nothing is downloaded when all are there.
set -euo pipefail

cache="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/camerasun/scenes}"
manifest="$cache/.scenes"
studiolights="usr/share/blender/datafiles/studiolights/world"

say() { printf 'fetch-scenes: %s\n' "$*"; }
fail() { printf 'fetch-scenes: error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        fail "'$*' needs root — run this script as root or install sudo"
    fi
}

# The version apt would install, or nothing when apt knows no candidate.
candidate() {
    apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'
}

# Makes sure apt can fetch package $1, refreshing the package lists once if it cannot.
require_candidate() {
    if [ -z "$(candidate "$1")" ]; then
        say "apt has no candidate for $1; running apt-get update"
        as_root apt-get update -q
    fi
    [ -n "$(candidate "$1")" ] || fail "Debian package $1 is not available from your apt sources — enable Debian 'main' (bookworm or later)"
}

# Prints "WIDTHxHEIGHT" from a Radiance file's resolution line.
dimensions() {
    head -c 4096 "$1" | LC_ALL=C grep -a -m1 '^-Y ' | awk '{ print $4 "x" $2 }'
}

# True when a previous run recorded its scenes and every one of them is still there.
all_converted() {
    [ -s "$manifest" ] || return 1
    while IFS= read -r name; do
        [ -s "$cache/$name" ] || return 1
    done < "$manifest"
}

report() {
    say "scenes in $cache:"
    while IFS= read -r name; do
        printf '  %-24s %10s  %s bytes\n' "$name" "$(dimensions "$cache/$name")" "$(stat -c %s "$cache/$name")"
    done < "$manifest"
}

command -v apt-get >/dev/null || fail "apt-get not found — this script needs Debian or Ubuntu"
mkdir -p "$cache" || fail "cannot create $cache — pass a writable directory as the first argument"

if all_converted; then
    say "all $(wc -l < "$manifest") scenes already converted"
    report
    exit 0
fi

if ! command -v oiiotool >/dev/null; then
    require_candidate openimageio-tools
    say "installing openimageio-tools (oiiotool) to convert EXR to HDR"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends openimageio-tools
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# apt-get download drops root to the _apt user, who must be able to write here.
chmod 0777 "$work"

require_candidate blender-data
say "downloading blender-data $(candidate blender-data) (about 30 MB)"
(cd "$work" && apt-get download -q blender-data) || fail "apt-get download blender-data failed — check your network and apt sources"
dpkg -x "$work"/blender-data_*.deb "$work/root"

shopt -s nullglob
exrs=("$work/root/$studiolights"/*.exr)
[ "${#exrs[@]}" -gt 0 ] || fail "blender-data has no $studiolights/*.exr — the package layout changed; update this script"

: > "$work/manifest"
for exr in "${exrs[@]}"; do
    name="$(basename "${exr%.exr}").hdr"
    printf '%s\n' "$name" >> "$work/manifest"
    if [ -s "$cache/$name" ]; then
        say "kept      $name"
        continue
    fi
    # Convert to a temporary name, then rename: an interrupted run never leaves a partial scene.
    oiiotool "$exr" --ch R,G,B -o "$cache/.partial-$name" || fail "oiiotool could not convert $(basename "$exr")"
    mv -f "$cache/.partial-$name" "$cache/$name"
    say "converted $name"
done
mv -f "$work/manifest" "$manifest"
report
