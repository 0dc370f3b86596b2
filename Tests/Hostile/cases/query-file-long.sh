# expect: 0
# A query beyond the argument limit can be given with --query-file (a file or standard input).
{
    printf 'age > 100'
    for i in $(seq 1 10000); do printf ' OR age == %d' "$((i + 1000))"; done
} > "$WORK/long.rql"
[ "$("$RQLC" run --class Dog --count --query-file "$WORK/long.rql")" = 0 ] || exit 97
[ "$("$RQLC" check --class Dog --query-file - < "$WORK/long.rql")" = ok ] || exit 98
"$RQLC" format --query-file "$WORK/long.rql" > /dev/null || exit 99
