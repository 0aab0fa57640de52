#!/bin/bash
# install.sh BUILD_DIR SOURCE_DIR HARDENED: `cmake --install` into a
# scratch prefix, then the installed qjt runs (--version, verify on
# testdata), the pages are gzip'd and man -M finds and renders qjt(1),
# qjt-roll(1) (a link to qjt-compact(1)) and qjt-json(5), share/doc/qjt
# holds the copyright and changelog, and the completions are where the
# shells look. When cpack and dpkg-deb are installed, the .deb is built too
# (into a scratch directory) and must have its fields (Depends, Maintainer,
# Homepage if configured, no CMake default), hold those files with a
# stripped bin/qjt (hardened as Debian's packages are when HARDENED is 1),
# and, for a release build when Debian's lintian is installed, pass it
# without an error or a warning.
# Exit 77 (skipped) without man.
set -u
build=$1
src=$2
hardened=$3
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
  [ -f "$prefix/share/man/man${page%%/*}/${page#*/}.${page%%/*}.gz" ] || fail "man${page%%/*}/${page#*/}.${page%%/*}.gz not installed"
done
[ "$(readlink "$prefix/share/man/man1/qjt-roll.1.gz")" = qjt-compact.1.gz ] ||
  fail "man1/qjt-roll.1.gz is not a link to qjt-compact.1.gz"
render() {  # render SECTION NAME
  LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat PAGER=cat man -M "$prefix/share/man" "$1" "$2" 2>"$tmp/man.err"
}
render 1 qjt-roll | grep -q '^QJT-COMPACT(1)' || fail "man -M PREFIX qjt-roll does not show qjt-compact(1)"
render 5 qjt-json | grep -q 'hint' || fail "man -M PREFIX qjt-json does not render"
render 1 qjt | grep -q 'qjt-completion(1)' || fail "man -M PREFIX qjt does not render"

cmp -s "$prefix/share/doc/qjt/copyright" "$src/cmake/debian/copyright" || fail "share/doc/qjt/copyright not installed"
gzip -dc "$prefix/share/doc/qjt/changelog.gz" | cmp -s - "$src/cmake/debian/changelog" || fail "share/doc/qjt/changelog.gz not installed"

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
    grep -q 'CPACK_PACKAGE_VENDOR "Humanity"' "$build/CPackConfig.cmake" && fail "the package's vendor is CMake's default"
    homepage=$(sed -n 's/^QJT_PACKAGE_HOMEPAGE:STRING=//p' "$build/CMakeCache.txt")  # empty: no public home yet
    [ "$(dpkg-deb -f "$deb" Homepage)" = "$homepage" ] || fail "the .deb's Homepage is not QJT_PACKAGE_HOMEPAGE ($homepage)"
    version=$(dpkg-deb -f "$deb" Version)
    head -1 "$src/cmake/debian/changelog" | grep -qF "qjt ($version) " ||
      fail "cmake/debian/changelog does not begin with an entry for $version"
    dpkg-deb -c "$deb" | sed -n 's/^.* \(\.\/.*\)$/\1/p' >"$tmp/contents"  # ./path, or ./path -> target
    for file in ./usr/bin/qjt ./usr/share/man/man1/qjt.1.gz "./usr/share/man/man1/qjt-roll.1.gz -> qjt-compact.1.gz" \
                ./usr/share/man/man5/qjt-json.5.gz ./usr/share/doc/qjt/copyright ./usr/share/doc/qjt/changelog.gz \
                ./usr/share/bash-completion/completions/qjt; do
      grep -qxF "$file" "$tmp/contents" || fail "the .deb does not hold $file"
    done
    dpkg-deb -x "$deb" "$tmp/root"
    readelf -S "$tmp/root/usr/bin/qjt" | grep -qE '\.(symtab|debug_info)\b' && fail "the .deb's usr/bin/qjt is not stripped"
    if [ "$hardened" = 1 ]; then
      # What lintian's hardening tags look for: fortified (__*_chk) and
      # canary-checked calls, and relocations bound at start (BIND_NOW).
      readelf -W --dyn-syms "$tmp/root/usr/bin/qjt" >"$tmp/dynsyms"
      grep -qE ' __[a-z0-9_]+_chk(@|$)' "$tmp/dynsyms" || fail "usr/bin/qjt calls no fortified function"
      grep -q ' __stack_chk_fail' "$tmp/dynsyms" || fail "usr/bin/qjt has no stack protector"
      readelf -d "$tmp/root/usr/bin/qjt" | grep -qE '\(BIND_NOW\)|\(FLAGS_1\).* NOW' || fail "usr/bin/qjt is not linked with -z now"
    fi
    if [ "$hardened" != 1 ]; then
      # A sanitizer or debug build's package is never shipped: only what a
      # release build packs is held to Debian's rules.
      echo "not a release build: the .deb is not linted"
    elif command -v lintian >/dev/null 2>&1; then
      # Any error or warning fails; informational tags are left out, as
      # lintian does by default (README.md lists the ones it has).
      lintian --tag-display-limit 0 --fail-on error,warning "$deb" >"$tmp/lintian.log" 2>&1 ||
        fail "lintian reports errors or warnings on the .deb"
      cat "$tmp/lintian.log"
    else
      echo "lintian not installed: the .deb is not linted"
    fi
  else
    fail "cpack wrote no .deb"
  fi
else
  echo "cpack or dpkg-deb not installed: no .deb built"
fi
exit $status
