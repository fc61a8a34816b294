#!/bin/bash
# Write lab-base..HEAD of build/linux back into patches/.
. "$(dirname "$0")/../lib.sh"

dirty=$(git -C "$SRC" status --porcelain --untracked-files=no)
[ -z "$dirty" ] || die "build/linux has uncommitted changes: commit them first
$dirty"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$LAB/scripts/series/format.sh" "$tmp"
rm -f "$LAB"/patches/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/* "$LAB/patches/"
step "export: $(grep -c '^[0-9]' "$LAB/patches/series" || true) patches written to patches/"
