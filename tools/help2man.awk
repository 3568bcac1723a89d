# tools/help2man.awk: one command's help text (as `parquetry help CMD`
# prints it) to man(7) roff. Used by tools/gen_cli_docs.sh; plain POSIX awk.
#
# The help text is read as people read it:
#   usage: ...               the command's synopsis (first line)
#   Text at the left margin  paragraphs (lines joined, filled by roff)
#   Heading:                 a short line ending in ':' at the left margin
#     -x, --opt ARG   desc   an option: the term up to two spaces, then its
#                            description; deeper-indented lines continue it
#     other indented text    an indented paragraph
# Whatever does not fit these shapes still comes out as text, never lost.

function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  if (s ~ /^[.']/) s = "\\&" s
  # an abbreviation at the end of a line does not end a sentence
  if (s ~ /(e\.g|i\.e|etc|vs)\.$/) s = s "\\&"
  return s
}

# -c, --columns a,b.c  ->  \fB\-c\fR, \fB\-\-columns\fR \fIa,b.c\fR
function term(s,    n, i, w, out, comma) {
  n = split(s, ws, / +/)
  out = ""
  for (i = 1; i <= n; i++) {
    w = ws[i]
    comma = ""
    if (w ~ /,$/) { comma = ","; w = substr(w, 1, length(w) - 1) }
    if (w ~ /^-/) out = out (out == "" ? "" : " ") "\\fB" esc(w) "\\fR" comma
    else out = out (out == "" ? "" : " ") "\\fI" esc(w) "\\fR" comma
  }
  return out
}

function lead(s) { match(s, /^ */); return RLENGTH }

BEGIN { state = "" ; desccol = 0 }

NR == 1 && /^usage: / {
  u = substr($0, 8)
  sub(/^ +/, "", u)
  print ".PP"
  print "\\fBusage:\\fR " esc(u)
  next
}

/^[ \t]*$/ { state = ""; next }

# a heading: "Reading options:"
/^[^ ].*:$/ && length($0) < 50 {
  print ".PP"
  print "\\fB" esc($0) "\\fR"
  state = "heading"
  next
}

/^[^ ]/ {
  if (state != "para") print ".PP"
  print esc($0)
  state = "para"
  next
}

# an option line
/^ +-/ {
  ind = lead($0)
  body = substr($0, ind + 1)
  # the term ends at the first run of two spaces; failing that, at the
  # column where this block's descriptions start
  t = body; d = ""
  p = index(body, "  ")
  if (p > 0) {
    t = substr(body, 1, p - 1)
    d = substr(body, p)
    sub(/^ +/, "", d)
    desccol = ind + p - 1 + lead(substr(body, p))
  } else if (desccol > ind + 1 && length($0) > desccol && substr($0, desccol, 1) == " ") {
    t = substr($0, ind + 1, desccol - ind - 1)
    sub(/ +$/, "", t)
    d = substr($0, desccol + 1)
  }
  print ".TP"
  print term(t)
  if (d != "") print esc(d)
  state = "item"; itemind = ind
  next
}

# deeper than the option: its description goes on
state == "item" && lead($0) > itemind {
  s = $0; sub(/^ +/, "", s)
  print esc(s)
  next
}

# other indented text: an indented paragraph
{
  s = $0; sub(/^ +/, "", s)
  if (state != "indented") print ".IP"
  print esc(s)
  state = "indented"
}
