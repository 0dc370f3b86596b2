# expect: 1
# 100,000 nested parentheses: an error, not a stack overflow.
{ head -c 100000 /dev/zero | tr '\0' '('; printf 'age > 2'; head -c 100000 /dev/zero | tr '\0' ')'; } > "$WORK/deep.rql"
"$RQLC" check --class Dog --query-file "$WORK/deep.rql"
