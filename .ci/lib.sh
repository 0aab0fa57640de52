# Shared by .ci/demo and .ci/test: install what is missing, then build.
# Sourced, not run. Needs Debian 12 (or newer) with apt-get.
set -euo pipefail

QJT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# lintian (tests/install lints the .deb) adds about 30 s of install and
# 10 s of linting per build directory.
QJT_PACKAGES=(cmake g++ make libcli11-dev libfmt-dev nlohmann-json3-dev doctest-dev zlib1g-dev libdeflate-dev libssl-dev libsnappy-dev groff-base man-db jq
  lintian clang-format clang libclang-rt-dev)

qjt_bootstrap() {
  local missing=()
  for p in "${QJT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "qjt: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# qjt_check_format: every C++ file as .clang-format lays it out.
qjt_check_format() {
  (cd "$QJT_ROOT" && find apps lib formats tests -name '*.h' -o -name '*.cc' | sort |
    xargs clang-format --dry-run --Werror)
}

# qjt_build DIR [cmake args...]: configure and build into DIR.
qjt_build() {
  local dir=$1
  shift
  cmake -S "$QJT_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)"
}
