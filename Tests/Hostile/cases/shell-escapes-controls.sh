# expect: 1
# Control characters in a script line (a class name, a command, a query) come back escaped in
# the diagnostics, never raw.
printf '.class a\033[2Jb\n.\033[31m\n.class Dog\nname == "\033]0;x\007"x\n' | "$RQLC" shell 2>"$WORK/err" >"$WORK/out"
status=$?
for file in "$WORK/err" "$WORK/out"; do
    [ "$(LC_ALL=C tr -d '\000-\010\013-\037\177' < "$file" | wc -c)" = "$(wc -c < "$file")" ] || exit 99
done
grep -qF 'a\u{1B}[2Jb' "$WORK/err" || { cat "$WORK/err"; exit 98; }
exit $status
