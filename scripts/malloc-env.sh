# Sourced by scripts/start.sh (POSIX sh, from the repository's root): exports each glibc malloc
# setting of scripts/malloc.env that the environment does not already set.
while IFS='=' read -r name value; do
  case "$name" in '' | '#'*) continue ;; esac
  eval "given=\${$name+x}"
  [ -n "$given" ] || export "$name=$value"
done < scripts/malloc.env
