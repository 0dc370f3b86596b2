# expect: 0
# A script of 20,000 lines (commands and queries) runs in time: each line is read, run and
# forgotten.
{
    echo '.count on'
    for i in $(seq 1 4000); do printf '.class Dog\nage > %d\n.timer off\n.class Person\nage > %d\n' "$((i % 12))" "$((i % 40))"; done
} > "$WORK/script"
[ "$("$RQLC" shell < "$WORK/script" | wc -l)" = 8000 ] || exit 99
