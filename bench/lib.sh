# lib.sh: what the benches share. Source it: . "$(dirname "$0")/lib.sh"
#
#   median 3 1 2           -> 2 (the middle value; the mean of the two middle ones for an even count)
#   printf '3\n1\n' | median   (no arguments: the values one a line on stdin)
#   maxof 3 1 2            -> 3

median() {
  { if [ "$#" -gt 0 ]; then printf '%s\n' "$@"; else cat; fi; } | sort -g |
    awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'
}

maxof() { printf '%s\n' "$@" | sort -g | tail -1; }
