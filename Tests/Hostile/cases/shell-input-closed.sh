# expect: 0
# `rqlc shell <&-`: no standard input is an empty script.
"$RQLC" shell <&-
