#!/usr/bin/env bash
# byoc installed as a user gets it: the release build makes its .deb (cpack -G DEB; the
# sanitizer build, which is never shipped, installs with cmake --install into a staging
# root instead). From that root the installed byoc prints its version and revision, finds
# its recipes under the install prefix (`init` scaffolds a project), `man byoc` shows the
# page, which is the one the binary writes (`byoc __man`), gzipped as Debian ships pages,
# the package has its copyright file, and the completions are where bash, zsh and fish
# look and answer from the installed binary: each shell completes a verb and a live value.
# Needs zsh and fish (scripts/deps.sh --test installs them).
set -u
: "${BYOC_BUILD_DIR:?}" "${BYOC_SOURCE_DIR:?}" "${BYOC_BIN:?}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/byoc-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1" >&2; failed=1; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

root=$tmp/root
if [ "${BYOC_SANITIZE:-OFF}" = ON ]; then
  DESTDIR=$root cmake --install "$BYOC_BUILD_DIR" --prefix /usr >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; bad "cmake --install"; exit 1; }
  ok "cmake --install into a staging root"
else
  (cd "$BYOC_BUILD_DIR" && cpack -G DEB -B "$tmp/pkg") >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log" >&2; bad "cpack -G DEB"; exit 1; }
  deb=$(ls "$tmp"/pkg/byoc_*.deb)
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "Depends: $depends"
  for lib in libc6 libcurl4 libssl3 libjansson4 libncursesw6 libexpat1 libyajl2 libarchive13 libgit2-; do
    check "Depends names $lib" grep -q "$lib" <<<"$depends"
  done
  check ".deb holds no build or source path" bash -c "! dpkg-deb -c '$deb' | grep -q -e '$BYOC_BUILD_DIR' -e '$BYOC_SOURCE_DIR'"
  dpkg-deb -x "$deb" "$root"
  ok "dpkg-deb -x into a scratch root"
fi

bin=$root/usr/bin/byoc
for f in usr/bin/byoc usr/share/man/man1/byoc.1.gz usr/share/doc/byoc/copyright usr/share/byoc/assets usr/share/bash-completion/completions/byoc \
         usr/share/zsh/vendor-completions/_byoc usr/share/fish/vendor_completions.d/byoc.fish; do
  check "installed: /$f" test -e "$root/$f"
done

version=$("$bin" --version)
echo "$version"
check "--version: version and git revision" grep -Eq '^byoc [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]{7,}(-dirty)?|unknown)\)$' <<<"$version"
if git -C "$BYOC_SOURCE_DIR" rev-parse --git-dir >/dev/null 2>&1; then
  head=$(git -C "$BYOC_SOURCE_DIR" rev-parse --short=12 HEAD)
  check "--version names HEAD ($head)" grep -q "git $head" <<<"$version"
fi
check "-v --version: assets under the install prefix" grep -qx "assets: $root/usr/bin/../share/byoc/assets" \
  < <(env -u BYOC_ASSETS_DIR "$bin" -v --version)

proj=$tmp/proj
if (cd "$tmp" && env -u BYOC_ASSETS_DIR "$bin" init "$proj" --no-git >"$tmp/init.log" 2>&1); then
  ok "init from the installed byoc"
else
  cat "$tmp/init.log" >&2; bad "init from the installed byoc"
fi
check "init wrote the recipe's Dockerfile" test -s "$proj/Dockerfile"
check "init wrote byoc.json" test -s "$proj/byoc.json"

man1=$root/usr/share/man/man1
check "the page is gzipped (no plain byoc.1 beside it)" test ! -e "$man1/byoc.1"
check "the installed page is what the binary writes" cmp -s <(gzip -dc "$man1/byoc.1.gz") <("$bin" __man)
check "gzip -n: no file name or time in the header" test "$(od -An -tu1 -j4 -N4 "$man1/byoc.1.gz" | tr -d ' ')" = 0000
check "the copyright file is machine-readable (DEP-5)" \
  grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$root/usr/share/doc/byoc/copyright"
warnings=$(gzip -dc "$man1/byoc.1.gz" | groff -man -Tutf8 -ww -Wbreak -z 2>&1)
check "groff renders the page without a warning (but long words)" test -z "$warnings"
[ -z "$warnings" ] || echo "$warnings" >&2
page=$(MANPATH=$root/usr/share/man MANWIDTH=80 MANPAGER=cat PAGER=cat man byoc 2>"$tmp/man.err")
check "man byoc" grep -q '^NAME' <<<"$page"
for section in SYNOPSIS OPTIONS COMMANDS KEYS ENVIRONMENT FILES 'EXIT STATUS'; do
  check "man byoc: $section" grep -q "^$section" <<<"$page"
done
# --help and the page come from the same tables: every verb's summary line is on the page
while read -r verb summary; do
  [ -n "$verb" ] || continue
  check "man byoc: $verb" grep -q "^   $verb\$" <<<"$page"
done < <("$bin" --help | sed -n '/^verbs:/,/^$/p' | sed '1d;/^$/d')

# completions, answered by the installed binary
export PATH=$root/usr/bin:$PATH
check "bash completion parses" bash -n "$root/usr/share/bash-completion/completions/byoc"
got=$(bash -c '. "$1"; COMP_WORDS=(byoc in); COMP_CWORD=1; _byoc; printf "%s\n" "${COMPREPLY[@]}"' _ \
      "$root/usr/share/bash-completion/completions/byoc")
check "bash: byoc in<Tab> -> init" test "$got" = init
got=$(bash -c '. "$1"; COMP_WORDS=(byoc init --recipe ""); COMP_CWORD=3; _byoc; printf "%s " "${COMPREPLY[@]}"' _ \
      "$root/usr/share/bash-completion/completions/byoc")
check "bash: init --recipe <Tab> -> the recipes" test "$got" = "extend-prebuilt custom-base "
printf '[default]\nregion = us-east-1\n[profile dev]\nregion = eu-west-2\n' >"$tmp/aws-config"
got=$(AWS_CONFIG_FILE=$tmp/aws-config AWS_SHARED_CREDENTIALS_FILE=$tmp/none bash -c \
      '. "$1"; COMP_WORDS=(byoc --profile ""); COMP_CWORD=2; _byoc; printf "%s " "${COMPREPLY[@]}"' _ \
      "$root/usr/share/bash-completion/completions/byoc")
check "bash: --profile <Tab> -> the profiles of the config file" test "$got" = "default dev "

# zsh: the function autoloaded from the vendor directory and run as the completion system would,
# with words and CURRENT set; compadd and _files stand in for the completion system's (they need
# the line editor), printing what would be offered.
zsh_complete() {
  zsh -f -c 'compadd() { [[ $1 == -a ]] && print -rl -- "${(@P)2}"; }; _files() { print -r -- "(files)"; }
             fpath=("$1" $fpath); autoload -Uz _byoc; words=("${@:2}"); CURRENT=$#words; _byoc' \
      _ "$root/usr/share/zsh/vendor-completions" "$@" | tr '\n' ' '
}
# fish: found through XDG_DATA_DIRS in the vendor directory, as fish finds installed ones; no user
# configuration (a scratch HOME), complete -C prints what <Tab> would offer.
fish_complete() {
  HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share \
    XDG_DATA_DIRS=$root/usr/share fish -c 'complete -C $argv[1]' "$1" | cut -f1 | sort | tr '\n' ' '
}
mkdir -p "$tmp/home"
for sh in zsh fish; do
  command -v $sh >/dev/null || bad "$sh is not installed: scripts/deps.sh --test installs it"
done
if command -v zsh >/dev/null; then
  check "zsh completion parses" zsh -n "$root/usr/share/zsh/vendor-completions/_byoc"
  got=$(zsh_complete byoc in)
  check "zsh: byoc in<Tab> -> init ($got)" test "$got" = "init "
  got=$(zsh_complete byoc init --recipe "")
  check "zsh: init --recipe <Tab> -> the recipes ($got)" test "$got" = "extend-prebuilt custom-base "
  got=$(AWS_CONFIG_FILE=$tmp/aws-config AWS_SHARED_CREDENTIALS_FILE=$tmp/none zsh_complete byoc --profile "")
  check "zsh: --profile <Tab> -> the profiles of the config file ($got)" test "$got" = "default dev "
  got=$(zsh_complete byoc init ./)
  check "zsh: a path argument falls back to file names ($got)" test "$got" = "(files) "
fi
if command -v fish >/dev/null; then
  check "fish completion parses" fish -n "$root/usr/share/fish/vendor_completions.d/byoc.fish"
  got=$(fish_complete "byoc in")
  check "fish: byoc in<Tab> -> init ($got)" test "$got" = "init "
  got=$(fish_complete "byoc init --recipe ")
  check "fish: init --recipe <Tab> -> the recipes ($got)" test "$got" = "custom-base extend-prebuilt "
  got=$(AWS_CONFIG_FILE=$tmp/aws-config AWS_SHARED_CREDENTIALS_FILE=$tmp/none fish_complete "byoc --profile ")
  check "fish: --profile <Tab> -> the profiles of the config file ($got)" test "$got" = "default dev "
fi
exit $failed
