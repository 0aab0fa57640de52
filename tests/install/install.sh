#!/bin/bash
# install.sh BUILD_DIR SOURCE_DIR: `cmake --install` into a scratch prefix,
# then the installed qjt runs (--version, verify on testdata), man -M finds
# and renders qjt(1), qjt-roll(1) (a .so link to qjt-compact(1)) and
# qjt-json(5), and the completions are where the shells look. When cpack
# and dpkg-deb are installed, the .deb is built too (into a scratch
# directory) and must list its Depends and hold bin/qjt and the pages.
# Exit 77 (skipped) without man.
set -u
build=$1
src=$2
command -v man >/dev/null 2>&1 || { echo "man not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }

"$prefix/bin/qjt" --version | grep -q '^qjt ' || fail "installed qjt --version"
"$prefix/bin/qjt" verify "$src/testdata/kestrel/sample" >/dev/null || fail "installed qjt verify testdata/kestrel/sample"

for page in 1/qjt 1/qjt-compact 1/qjt-roll 1/qjt-dump 1/qjt-verify 1/qjt-replay 1/qjt-convert 1/qjt-repair \
            1/qjt-gen 1/qjt-help 1/qjt-completion 5/qjt-json; do
  [ -f "$prefix/share/man/man${page%%/*}/${page#*/}.${page%%/*}" ] || fail "man${page%%/*}/${page#*/}.${page%%/*} not installed"
done
render() {  # render SECTION NAME
  LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat PAGER=cat man -M "$prefix/share/man" "$1" "$2" 2>"$tmp/man.err"
}
render 1 qjt-roll | grep -q '^QJT-COMPACT(1)' || fail "man -M PREFIX qjt-roll does not show qjt-compact(1)"
render 5 qjt-json | grep -q 'hint' || fail "man -M PREFIX qjt-json does not render"
render 1 qjt | grep -q 'qjt-completion(1)' || fail "man -M PREFIX qjt does not render"

for file in share/bash-completion/completions/qjt share/zsh/site-functions/_qjt \
            share/fish/vendor_completions.d/qjt.fish; do
  [ -s "$prefix/$file" ] || fail "$file not installed"
done
bash -c 'source "$1" && complete -p qjt >/dev/null' _ "$prefix/share/bash-completion/completions/qjt" ||
  fail "the installed bash completion does not load"

if command -v cpack >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
  (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb") >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
  deb=$(ls "$tmp"/deb/*.deb 2>/dev/null | head -1)
  if [ -n "$deb" ]; then
    depends=$(dpkg-deb -f "$deb" Depends)
    [ -n "$depends" ] || fail "the .deb lists no Depends"
    echo "Depends: $depends"
    for field in Maintainer Description Section; do
      [ -n "$(dpkg-deb -f "$deb" $field)" ] || fail "the .deb has no $field"
    done
    dpkg-deb -f "$deb" Description | grep -q ';' && fail "the .deb's Description holds a CMake list's ;"
    dpkg-deb -c "$deb" >"$tmp/contents"
    for file in ./usr/bin/qjt ./usr/share/man/man1/qjt.1 ./usr/share/man/man1/qjt-roll.1 \
                ./usr/share/man/man5/qjt-json.5 ./usr/share/bash-completion/completions/qjt; do
      grep -qE " $file(\.gz)?\$" "$tmp/contents" || fail "the .deb does not hold $file"
    done
  else
    fail "cpack wrote no .deb"
  fi
else
  echo "cpack or dpkg-deb not installed: no .deb built"
fi
exit $status
