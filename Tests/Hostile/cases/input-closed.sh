# expect: 1
# A closed standard input reads as empty: an empty query.
"$RQLC" format --query-file - <&-
